// `rlm-plan propose --run` (the built CLI, a real process): the proposed plan's run is a run of the
// plan session like any other, so it gets what the session attaches without the command asking:
// the host profile's `telemetry.otlp` trace (spans at a real OTLP/HTTP receiver on 127.0.0.1),
// the run journal's entry (which the trace names), and the mask (the provider, a real chat server
// on 127.0.0.1, answers the run's model step with the key it was called with: in no span, no output).

import assert from "node:assert/strict";
import { after, before, test } from "node:test";
import { startChatServer, type ChatServer } from "../support/chatServer";
import { runCliAsync } from "../support/cliWorkspace";
import {
  assertTraced,
  TRACED_ENV,
  TRACED_KEY,
  TRACED_PLAN,
  tracedProfile,
  tracedWorkspace,
} from "../support/tracedRun";

const traced = tracedWorkspace("propose-life");
let chat: ChatServer;
before(async () => {
  chat = await startChatServer([
    { kind: "ok", text: TRACED_PLAN },
    {
      kind: "dynamic",
      answer: (request) => ({
        kind: "ok",
        text: `the key is ${String(request.headers.authorization ?? "").replace(/^Bearer /, "")}`,
      }),
    },
  ]);
  // The profile again, its provider the chat server (the workspace's names a dead port).
  traced.ws.write("rlmplan.host.json", JSON.stringify(tracedProfile(traced.receiver().url, chat.baseUrl)));
});
after(() => chat.close());

test("propose --run: the proposed plan's run is recorded and traced to the profile's receiver, the key masked", async () => {
  const run = await runCliAsync(traced.ws.dir, ["propose", "say hello", "--provider", "m", "--run"], TRACED_ENV);
  assert.equal(run.code, 0, run.stdout + run.stderr);
  assert.equal(chat.requests[1]?.headers.authorization, `Bearer ${TRACED_KEY}`, "the provider got the real key");
  await assertTraced(
    traced.receiver(),
    "plan",
    1,
    '{"finish_reason":"stop","model":"life-model","text":"the key is ***","usage":{"completion_tokens":7,"prompt_tokens":11,"total_tokens":18}}',
  );
  assert.equal((run.stdout + run.stderr).includes(TRACED_KEY), false);
  const listed = await runCliAsync(traced.ws.dir, ["runs", "list", "--json"]);
  assert.deepEqual(
    (JSON.parse(listed.stdout) as { id: number; origin: string }[]).map((r) => [r.id, r.origin]),
    [[1, "cli"]],
  );
});
