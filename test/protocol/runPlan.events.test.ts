// The server forwards the runtime's event stream unchanged: a retried command tool that fails
// once, with a sentinel key (handed to the run by the client) in the failing tool's stderr. The
// `rlmPlan/runEvent` notifications carry exactly the events the runtime emits for the same plan
// and host in process (timings aside), in the same order, before `rlmPlan/runFinished`; every
// failure carries its reason with the key masked, and the key is in no notification.

import assert from "node:assert/strict";
import { after, before, it } from "node:test";
import { profileHost } from "@rlm-plan/core/host/createHost";
import { parseHostProfile } from "@rlm-plan/core/host/profile";
import { SecretMask } from "@rlm-plan/core/mask/secretMask";
import { startRun } from "@rlm-plan/core/run/startRun";
import { type RunEvent } from "@rlm-plan/core";
import { hostProfile, ServerSession } from "@rlm-plan/lsp-harness";
import { assertNoKey, newSentinel } from "../support/hostileProviders";
import { recordRunNotifications, runToEnd, RUN_NOTIFICATIONS, TRANSITION_KEYS } from "./support/planRuns";

const sentinel = newSentinel();
// A name that does not look secret: only the client's handing it to the run makes it one.
const KEY_VAR = "RLM_EVENTS_UPSTREAM_VAR";

/** Fails on the first call of each FLAKY_KEY with the key in its stderr, then answers. */
const FLAKY_TOOL = `
const fs = require("node:fs");
process.stdin.resume();
process.stdin.on("end", () => {
  const state = "flaky-" + process.env.FLAKY_KEY;
  if (!fs.existsSync(state)) {
    fs.writeFileSync(state, "");
    process.stderr.write("upstream refused " + process.env.${KEY_VAR} + "\\n");
    process.exit(1);
  }
  fs.rmSync(state);
  process.stdout.write(JSON.stringify({ body: "fetched" }));
});
`;

const HOST = {
  capabilities: ["retry", "checkpoint", "tool(flaky)"],
  tools: {
    flaky: {
      type: "command",
      command: [process.execPath, "flaky.js"],
      inheritEnv: ["FLAKY_KEY", KEY_VAR],
      // It keeps its state in the workspace: a path it declares it writes.
      writes: ["."],
      timeoutMs: 10000,
    },
  },
};

const PLAN = `{
  "steps": [
    {"op": "retry", "attempts": 3, "plan": {"steps": [
      {"op": "checkpoint", "label": "attempt"},
      {"op": "tool", "name": "flaky", "args": {}, "bind": "page"},
      {"op": "final", "value": {"ref": "var", "name": "page"}}
    ]}, "bind": "page"},
    {"op": "final", "value": {"ref": "var", "name": "page"}}
  ]
}
`;

const REASON = 'tool "flaky" failed: exited with status 1: upstream refused ***';

let server: ServerSession;
const seen: string[] = [];

before(async () => {
  server = await new ServerSession({
    files: { "rlmplan.host.json": hostProfile(HOST), "flaky.js": FLAKY_TOOL },
  }).start();
  recordRunNotifications(server.client, seen, [...RUN_NOTIFICATIONS, "window/logMessage"]);
});

after(() => server.dispose());

/** An event without what varies from run to run: its timings. */
function timeless(event: RunEvent): unknown {
  const { elapsed_ms: _elapsed, ...rest } = event as RunEvent & { duration_ms?: number };
  delete (rest as { duration_ms?: number }).duration_ms;
  if (rest.type !== "transition") return rest;
  const { elapsed_ms: _e, duration_ms: _d, ...transition } = rest.transition;
  return { ...rest, transition };
}

it("the notifications carry the runtime's events in order, each failure with its masked reason", async () => {
  const file = server.workspace.path("flaky.rlmplan.json");
  const result = await runToEnd(server.client, seen, file, PLAN, {
    env: { [KEY_VAR]: sentinel.key, FLAKY_KEY: "server" },
  });
  assert.deepEqual(result.ok, true, JSON.stringify(result));

  const notifications = seen.map((text) => JSON.parse(text) as { runId?: string; event?: RunEvent; result?: unknown });
  const runId = notifications.find((n) => n.result)?.runId;
  const mine = notifications.filter((n) => n.runId === runId);
  // Every event before the end.
  assert.ok(mine.at(-1)?.result);
  const forwarded = mine.flatMap((n) => (n.event ? [n.event] : []));

  // The same plan and host in process, the runtime's own stream.
  const parsed = parseHostProfile(hostProfile(HOST), server.workspace.path("rlmplan.host.json"));
  assert.ok(parsed.ok);
  const local: RunEvent[] = [];
  const env = { ...process.env, [KEY_VAR]: sentinel.key, FLAKY_KEY: "in-process" };
  // Command tools run in the host profile's folder, as the server's do.
  await startRun({
    source: { kind: "document", text: PLAN },
    policy: { capabilities: [...parsed.profile.capabilities] },
    host: profileHost(parsed.profile, { env }),
    mask: new SecretMask([sentinel.key]),
    observers: [{ event: (event) => local.push(event) }],
  }).done;
  assert.deepEqual(forwarded.map(timeless), local.map(timeless));

  // What the stream says, read as a user would: the failed attempt, its reason, the retry.
  assert.deepEqual(
    forwarded.map((e) => `${e.type} ${e.path.join("/")}${"error" in e ? `: ${e.error.message}` : ""}`),
    [
      "step_started steps/0",
      "step_started steps/0/plan/steps/0",
      "transition steps/0/plan/steps/0",
      "step_finished steps/0/plan/steps/0",
      "step_started steps/0/plan/steps/1",
      `step_failed steps/0/plan/steps/1: ${REASON}`,
      `attempt_failed steps/0: ${REASON}`,
      "step_started steps/0/plan/steps/0",
      "transition steps/0/plan/steps/0",
      "step_finished steps/0/plan/steps/0",
      "step_started steps/0/plan/steps/1",
      "transition steps/0/plan/steps/1",
      "step_finished steps/0/plan/steps/1",
      "step_started steps/0/plan/steps/2",
      "transition steps/0/plan/steps/2",
      "step_finished steps/0/plan/steps/2",
      "transition steps/0",
      "step_finished steps/0",
      "step_started steps/1",
      "transition steps/1",
      "step_finished steps/1",
    ],
  );
  const attempt = forwarded.find((e) => e.type === "attempt_failed");
  assert.deepEqual(attempt && [attempt.attempt, attempt.attempts, attempt.retrying], [1, 3, true]);
  // Transitions stay content-free.
  for (const event of forwarded)
    if (event.type === "transition") assert.deepEqual(Object.keys(event.transition).sort(), TRANSITION_KEYS);
  assertNoKey(seen.join("\n"), sentinel, "the run's notifications");
  assertNoKey(server.client.stderr, sentinel, "the server's stderr");
});
