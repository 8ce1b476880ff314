// A case of `rlm-plan test` (the built CLI, a real process) is a run of the plan session like any
// other, so it gets what the session attaches without the test runner asking: the host
// profile's `telemetry.otlp` trace (spans at a real OTLP/HTTP receiver on 127.0.0.1), the run
// journal's entry (which the trace names), and the mask (the provider's key, echoed by the
// case's mocked model, is in no span and not in the report).

import assert from "node:assert/strict";
import { test } from "node:test";
import { runCliAsync } from "../support/cliWorkspace";
import { assertTraced, TRACED_ENV, TRACED_KEY, TRACED_MOCKS, tracedWorkspace } from "../support/tracedRun";

const traced = tracedWorkspace("test-life");
traced.ws.write(
  "traced.rlmplan.test.json",
  JSON.stringify({ plan: "traced.rlmplan.json", mocks: TRACED_MOCKS, cases: [{ name: "echoes", expect: {} }] }),
);

test("rlm-plan test: the case is recorded and traced to the profile's receiver, the key masked", async () => {
  const run = await runCliAsync(traced.ws.dir, ["test", "traced.rlmplan.test.json"], TRACED_ENV);
  assert.equal(run.code, 0, run.stdout + run.stderr);
  assert.match(run.stderr, /the cases' runs are runs? 1 in the run journal \.rlm-plan\n$/);
  await assertTraced(traced.receiver(), "traced.rlmplan.json", 1);
  assert.equal((run.stdout + run.stderr).includes(TRACED_KEY), false);
});
