// The plan graph's view of a run (client/src/graph/runSteps.ts), in process: which step is ok,
// running, failed or skipped, and the run's one-line summary. The test project imports the
// client through its package's exports map.

import { strict as assert } from "node:assert";
import { test } from "node:test";
import { runSummary, stepId, stepStates } from "rlm-plan-client/graph/runSteps";

type RunRecord = Parameters<typeof stepStates>[0];

const remaining = { max_steps: 62 } as unknown as RunRecord["transitions"][number]["remaining"];

function record(overrides: Partial<RunRecord>): RunRecord {
  return {
    id: "r1",
    number: 7,
    plan: "file:///w/plan.rlmplan.json",
    hostProfile: null,
    startedAt: "2026-12-01T00:00:00.000Z",
    serverRunId: "1",
    status: "running",
    transitions: [],
    ...overrides,
  } as RunRecord;
}

const transition = (path: (string | number)[], duration: number) =>
  ({
    seq: 1,
    op: "tool",
    bind: "x",
    status: "ok",
    duration_ms: duration,
    remaining,
    path,
  }) as unknown as RunRecord["transitions"][number];

test("a step's id is the runtime's: the root plan is 'plan', a step its JSON path joined by /", () => {
  assert.equal(stepId([]), "plan");
  assert.equal(stepId(["steps", 2, "plan", "steps", 0]), "steps/2/plan/steps/0");
});

test("a running run: completed steps ok with duration and budget left, the open step running, no others", () => {
  const states = stepStates(
    record({ transitions: [transition(["steps", 0], 12)] }),
    ["steps/0", "steps/1", "steps/2"],
    { operation: "model", bind: "y", path: ["steps", 1] },
  );
  assert.deepEqual(states, {
    "steps/0": { state: "ok", durationMs: 12, remaining: { max_steps: 62 } },
    "steps/1": { state: "running" },
  });
});

test("a failed run: the failing step failed, every step it never reached skipped", () => {
  const states = stepStates(
    record({
      status: "failed",
      transitions: [transition(["steps", 0], 3)],
      failedStep: { operation: "tool", bind: "y", path: ["steps", 1] },
    } as Partial<RunRecord>),
    ["steps/0", "steps/1", "steps/2"],
    undefined,
  );
  assert.deepEqual(states, {
    "steps/0": { state: "ok", durationMs: 3, remaining: { max_steps: 62 } },
    "steps/1": { state: "failed" },
    "steps/2": { state: "skipped" },
  });
});

test("the summary says the run's number, status and duration", () => {
  assert.equal(runSummary(record({})), "Run 7 · running");
  assert.equal(
    runSummary(record({ status: "succeeded", durationMs: 1250 } as Partial<RunRecord>)),
    "Run 7 · succeeded after 1.3 s",
  );
});
