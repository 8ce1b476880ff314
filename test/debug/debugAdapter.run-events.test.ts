// A debug run's events over DAP (issue 35 item 3): the adapter forwards every event of the run's
// stream as the wire contract's DebugRunEvent, not its transitions only, so the editor's log of a
// debug run is a normal run's. The example triage plan with its mocks retries a fetch that fails
// once: the failed attempt arrives with its exact body, in the stream's order, and the stream is
// the one the core's session gives the same plan run in process (what a language server's run
// sends as rlmPlan/runEvent) and the CLI's `run --json --events` prints.

import assert from "node:assert/strict";
import { join, resolve } from "node:path";
import { test } from "node:test";
import type { RunEvent } from "@rlm-plan/core";
import { openPlanSession } from "@rlm-plan/core/session";
import {
  DebugRunEvent,
  DebugRunResultEvent,
  DebugRunStartedEvent,
  debugEventBody,
} from "@rlm-plan/language-server/protocol";
import { jsonLines, runCliAsync } from "../support/cliWorkspace";
import { debugClient } from "../support/debugClient";

// Compiled to test/out/debug: the repository root is three levels up.
const ROOT = resolve(__dirname, "..", "..", "..");
const MOCKS_DIR = join(ROOT, "examples", "workspace", "mocks");
const PLAN = join(MOCKS_DIR, "triage.rlmplan.json");
const MOCKS = join(MOCKS_DIR, "triage.mocks.json");

/** Times vary from run to run; everything else in an event is exact. */
function timeless(event: RunEvent): unknown {
  return JSON.parse(JSON.stringify(event), (key, value: unknown) =>
    key === "elapsed_ms" || key === "duration_ms" ? "<ms>" : value,
  );
}

/** The debug run's custom events, in the order the adapter sent them. */
async function debugRun(): Promise<{ event: string; body?: unknown }[]> {
  const dc = debugClient(join(ROOT, "examples", "workspace"));
  const custom: { event: string; body?: unknown }[] = [];
  for (const name of [DebugRunStartedEvent.event, DebugRunEvent.event, DebugRunResultEvent.event])
    dc.on(name, (e: { event: string; body?: unknown }) => custom.push({ event: e.event, body: e.body }));
  const terminated = dc.waitForEvent("terminated");
  await dc.start();
  try {
    await Promise.all([
      dc.waitForEvent("initialized").then(() => dc.configurationDoneRequest()),
      dc
        .initializeRequest({ adapterID: "rlm-plan", linesStartAt1: true, columnsStartAt1: true, pathFormat: "path" })
        .then(() => dc.launchRequest({ program: PLAN, mocks: MOCKS } as never)),
    ]);
    await terminated;
  } finally {
    await dc.stop();
  }
  return custom;
}

test("a debug run forwards the run's whole event stream: the retry's failed attempt with its exact body", async () => {
  const custom = await debugRun();
  assert.deepEqual(
    custom.map((e) => e.event),
    [
      DebugRunStartedEvent.event,
      ...Array<string>(custom.length - 2).fill(DebugRunEvent.event),
      DebugRunResultEvent.event,
    ],
  );
  const events = custom.flatMap((e) => {
    const body = debugEventBody(e, DebugRunEvent.type);
    return body ? [body.event] : [];
  });
  assert.deepEqual(
    events.map((e) => `${e.type} ${e.operation} ${e.path.join("/")}${e.attempt ? ` #${e.attempt}` : ""}`),
    [
      "step_started retry steps/0",
      "step_started tool(flaky_fetch) steps/0/plan/steps/0 #1",
      "step_failed tool(flaky_fetch) steps/0/plan/steps/0 #1",
      "attempt_failed retry steps/0 #1",
      "step_started tool(flaky_fetch) steps/0/plan/steps/0 #2",
      "transition tool(flaky_fetch) steps/0/plan/steps/0 #2",
      "step_finished tool(flaky_fetch) steps/0/plan/steps/0 #2",
      "step_started final steps/0/plan/steps/1 #2",
      "transition final steps/0/plan/steps/1 #2",
      "step_finished final steps/0/plan/steps/1 #2",
      "transition retry steps/0",
      "step_finished retry steps/0",
      "step_started checkpoint steps/1",
      "transition checkpoint steps/1",
      "step_finished checkpoint steps/1",
      "step_started model(local) steps/2",
      "transition model(local) steps/2",
      "step_finished model(local) steps/2",
      "step_started final steps/3",
      "transition final steps/3",
      "step_finished final steps/3",
    ],
  );
  const failed = events.find((e) => e.type === "attempt_failed");
  assert.deepEqual(failed && timeless(failed), {
    type: "attempt_failed",
    path: ["steps", 0],
    operation: "retry",
    bind: "page",
    depth: 1,
    range: { offset: 388, length: 374 },
    attempt: 1,
    attempts: 2,
    retrying: true,
    elapsed_ms: "<ms>",
    duration_ms: "<ms>",
    remaining: { steps: 62, model_calls: 8, tool_calls: 7, context_ops: 32, output_bytes: 65536 },
    error: {
      phase: "execute",
      kind: "tool_error",
      message: 'tool "flaky_fetch" failed: connection reset by peer',
      path: ["steps", 0, "plan", "steps", 0],
      range: { offset: 477, length: 167 },
    },
  });
  // The same stream, event for event, as the core's session gives a normal run of the plan.
  const opened = await openPlanSession({ file: PLAN, cwd: MOCKS_DIR, mocks: { file: MOCKS }, allInputs: true });
  assert.ok(opened.ok);
  const normal: RunEvent[] = [];
  await opened.session.run({
    life: { origin: "debugger", journal: false },
    observers: [{ event: (event) => normal.push(event) }],
  }).done;
  assert.deepEqual(events.map(timeless), normal.map(timeless));
  // And as the CLI's `run --json --events` streams it (its event lines, in order).
  const cli = await runCliAsync(MOCKS_DIR, ["run", PLAN, "--mocks", MOCKS, "--json", "--events", "--no-journal"]);
  assert.equal(cli.code, 0, cli.stderr);
  const streamed = jsonLines<{ type: string; event?: RunEvent }>(cli.stdout).flatMap((line) =>
    line.type === "event" && line.event ? [line.event] : [],
  );
  assert.deepEqual(events.map(timeless), streamed.map(timeless));
});
