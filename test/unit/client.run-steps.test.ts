// The plan graph's view of a run (client/src/graph/runSteps.ts), in process: which step is ok,
// running, failed or skipped, and the run's one-line summary. The test project imports the
// client through its package's exports map.

import { strict as assert } from "node:assert";
import { test } from "node:test";
import { OpenSteps, runSummary, stepId, stepStates } from "rlm-plan-client/graph/runSteps";

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
    [{ operation: "model", bind: "y", path: ["steps", 1] }],
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
    [],
  );
  assert.deepEqual(states, {
    "steps/0": { state: "ok", durationMs: 3, remaining: { max_steps: 62 } },
    "steps/1": { state: "failed" },
    "steps/2": { state: "skipped" },
  });
});

test("a failed run: the steps enclosing the failing one failed with it, at every depth", () => {
  const inner = ["steps", 1, "plan", "steps", 0, "plan", "steps", 2];
  const states = stateNames(
    stepStates(
      record({
        status: "failed",
        transitions: [transition(["steps", 0], 3), transition(["steps", 1, "plan", "steps", 0, "plan", "steps", 0], 1)],
        failedStep: { operation: "tool", bind: "z", path: inner },
      } as Partial<RunRecord>),
      [
        "steps/0",
        "steps/1",
        "steps/1/plan/steps/0",
        "steps/1/plan/steps/0/plan/steps/0",
        "steps/1/plan/steps/0/plan/steps/2",
        "steps/2",
      ],
      [],
    ),
  );
  assert.deepEqual(states, {
    "steps/0": "ok",
    "steps/1/plan/steps/0/plan/steps/0": "ok",
    "steps/1": "failed",
    "steps/1/plan/steps/0": "failed",
    "steps/1/plan/steps/0/plan/steps/2": "failed",
    "steps/2": "skipped",
  });
});

// A parallel step at steps/0 with two branches of two steps each, then a final step; branch 1
// starts while branch 0 runs and finishes first.
const PARALLEL_IDS = [
  "steps/0",
  "steps/0/plans/0/steps/0",
  "steps/0/plans/0/steps/1",
  "steps/0/plans/1/steps/0",
  "steps/0/plans/1/steps/1",
  "steps/1",
];

type Event =
  | { readonly start: (string | number)[]; readonly op: string; readonly bind: string | null }
  | { readonly done: (string | number)[]; readonly op: string; readonly bind: string | null; readonly ms: number };

/** Feeds events to OpenSteps and the record as a run session does, returning the states after each. */
function statesAfterEach(events: readonly Event[], end?: Partial<RunRecord>): Record<string, unknown>[] {
  const open = new OpenSteps();
  const run = record({});
  const after: Record<string, unknown>[] = [];
  events.forEach((event, seq) => {
    if ("start" in event) open.start({ operation: event.op, bind: event.bind, path: event.start });
    else {
      const t = { ...(transition([], event.ms) as object), seq, operation: event.op, bind: event.bind };
      const logged = open.complete(t as unknown as RunRecord["transitions"][number], event.done);
      run.transitions.push(logged);
    }
    after.push(stateNames(stepStates(run, PARALLEL_IDS, open.all)));
  });
  if (end) after.push(stateNames(stepStates({ ...run, ...end } as RunRecord, PARALLEL_IDS, open.all)));
  return after;
}

function stateNames(states: ReturnType<typeof stepStates>): Record<string, string> {
  return Object.fromEntries(Object.entries(states).map(([id, state]) => [id, state.state]));
}

const b0 = (i: number): (string | number)[] => ["steps", 0, "plans", 0, "steps", i];
const b1 = (i: number): (string | number)[] => ["steps", 0, "plans", 1, "steps", i];

test("concurrent branches: every started step not yet completed is running; a branch that finished is ok while its sibling runs", () => {
  const after = statesAfterEach([
    { start: ["steps", 0], op: "parallel", bind: "both" },
    { start: b0(0), op: "model(p)", bind: "a" },
    { start: b1(0), op: "tool(t)", bind: "c" },
    { done: b1(0), op: "tool(t)", bind: "c", ms: 5 },
    { start: b1(1), op: "final", bind: null },
    { done: b1(1), op: "final", bind: null, ms: 1 },
    { done: b0(0), op: "model(p)", bind: "a", ms: 30 },
    { start: b0(1), op: "final", bind: null },
    { done: b0(1), op: "final", bind: null, ms: 1 },
    { done: ["steps", 0], op: "parallel", bind: "both", ms: 40 },
    { start: ["steps", 1], op: "final", bind: null },
  ]);
  const P = "steps/0";
  const [A0, A1, B0, B1] = PARALLEL_IDS.slice(1) as [string, string, string, string];
  assert.deepEqual(after, [
    { [P]: "running" },
    { [P]: "running", [A0]: "running" },
    { [P]: "running", [A0]: "running", [B0]: "running" },
    { [P]: "running", [A0]: "running", [B0]: "ok" },
    { [P]: "running", [A0]: "running", [B0]: "ok", [B1]: "running" },
    { [P]: "running", [A0]: "running", [B0]: "ok", [B1]: "ok" },
    { [P]: "running", [A0]: "ok", [B0]: "ok", [B1]: "ok" },
    { [P]: "running", [A0]: "ok", [B0]: "ok", [B1]: "ok", [A1]: "running" },
    { [P]: "running", [A0]: "ok", [B0]: "ok", [B1]: "ok", [A1]: "ok" },
    { [P]: "ok", [A0]: "ok", [B0]: "ok", [B1]: "ok", [A1]: "ok" },
    { [P]: "ok", [A0]: "ok", [B0]: "ok", [B1]: "ok", [A1]: "ok", "steps/1": "running" },
  ]);
});

test("a branch fails while its sibling runs: the failing step (the one the error names) and its parallel step failed, its sibling's open step skipped", () => {
  const open = new OpenSteps();
  open.start({ operation: "parallel", bind: "both", path: ["steps", 0] });
  open.start({ operation: "model(p)", bind: "a", path: b0(0) });
  open.start({ operation: "tool(t)", bind: "c", path: b1(0) });
  // The run session names the failed step from the error's path, not the step that started last.
  assert.deepEqual(open.failing(b0(0))?.path, b0(0));
  assert.deepEqual(open.failing(undefined)?.path, b1(0));
  assert.deepEqual(open.failing(["steps", 9])?.path, b1(0));
  const states = stateNames(
    stepStates(
      record({ status: "failed", failedStep: open.failing(b0(0)), errorAt: b0(0) } as Partial<RunRecord>),
      PARALLEL_IDS,
      open.all,
    ),
  );
  assert.deepEqual(states, {
    "steps/0/plans/0/steps/0": "failed",
    "steps/0": "failed",
    "steps/0/plans/0/steps/1": "skipped",
    "steps/0/plans/1/steps/0": "skipped",
    "steps/0/plans/1/steps/1": "skipped",
    "steps/1": "skipped",
  });
});

test("a retry's next attempt closes the steps its failed attempt left open", () => {
  const open = new OpenSteps();
  const body = (i: number): (string | number)[] => ["steps", 0, "plan", "steps", i];
  open.start({ operation: "retry", bind: "r", path: ["steps", 0] });
  open.start({ operation: "rlm", bind: "s", path: body(0) });
  open.start({ operation: "tool(t)", bind: "x", path: [...body(0), "plan", "steps", 0] });
  // Attempt 1 fails inside the rlm step: no transition; attempt 2 starts the body again.
  open.start({ operation: "rlm", bind: "s", path: body(0) });
  assert.deepEqual(
    open.all.map((step) => step.path),
    [["steps", 0], body(0)],
  );
  const logged = open.complete(transition([], 2) as RunRecord["transitions"][number], body(0));
  assert.deepEqual(logged.path, body(0));
  assert.deepEqual(
    open.all.map((step) => step.path),
    [["steps", 0]],
  );
});

test("a transition without a path closes the latest open step with its operation and binding", () => {
  const open = new OpenSteps();
  open.start({ operation: "rlm", bind: "s", path: ["steps", 0] });
  open.start({ operation: "model(p)", bind: "a", path: ["steps", 0, "plan", "steps", 0] });
  const t = {
    ...(transition([], 2) as object),
    operation: "rlm",
    bind: "s",
  } as unknown as RunRecord["transitions"][number];
  delete (t as { path?: unknown }).path;
  assert.deepEqual(open.complete(t).path, ["steps", 0]);
  assert.deepEqual(open.all, []);
});

test("the summary says the run's number, status and duration", () => {
  assert.equal(runSummary(record({})), "Run 7 · running");
  assert.equal(
    runSummary(record({ status: "succeeded", durationMs: 1250 } as Partial<RunRecord>)),
    "Run 7 · succeeded after 1.3 s",
  );
});
