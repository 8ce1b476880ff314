// The plan graph's view of a run (client/src/graph/runSteps.ts): the runtime's event stream
// reduced to step states, in process. The events come from real runs of the runtime (startRun
// with in-process tools), so the client is tested against what the runtime emits, not against
// a guess of it; the run log keeps events without ranges, and so do these. The test project
// imports the client through its package's exports map.

import { strict as assert } from "node:assert";
import { test } from "node:test";
import { startRun } from "@rlm-plan/core/run/startRun";
import { type RunEvent } from "@rlm-plan/core";
import { type RunHost, type ToolHandler } from "@rlm-plan/core/run/host";
import { SecretMask } from "@rlm-plan/core/mask/secretMask";
import {
  failedAttempts,
  MAX_FAILURES_LISTED,
  runSummary,
  stepId,
  stepStates,
  type RunEvents,
} from "rlm-plan-client/graph/runSteps";

type RunRecord = Parameters<typeof runSummary>[0];

/** Runs `plan` with the given tools; resolves to the events it emitted, in order. */
async function eventsOf(
  plan: object,
  tools: Record<string, ToolHandler>,
  options: { mask?: SecretMask; capabilities?: string[]; parallel?: "sequential" | "concurrent" } = {},
): Promise<RunEvent[]> {
  const events: RunEvent[] = [];
  const host: RunHost = { tools: new Map(Object.entries(tools)) };
  await startRun({
    source: { kind: "value", value: plan as never },
    policy: {
      capabilities: options.capabilities ?? [
        "retry",
        "rlm",
        "parallel",
        ...Object.keys(tools).map((name) => `tool(${name})`),
      ],
    },
    host,
    observers: [{ event: (event) => events.push(event) }],
    ...(options.mask ? { mask: options.mask } : {}),
    ...(options.parallel ? { parallel: options.parallel } : {}),
  }).done;
  return events;
}

/** The states with only their names and failure counts, for whole-graph comparisons. */
function summary(states: ReturnType<typeof stepStates>): Record<string, string> {
  return Object.fromEntries(
    Object.entries(states).map(([id, s]) => [id, s.failures ? `${s.state} (${s.failures} failed)` : s.state]),
  );
}

const tool = (name: string, bind: string, args: unknown = 1) => ({ op: "tool", name, args, bind });
const final = (name: string) => ({ op: "final", value: { ref: "var", name } });

/** A tool that fails on its first `failures` calls with `message`, then answers its call count. */
function failing(failures: number, message: string): ToolHandler {
  let calls = 0;
  return () => {
    if (++calls <= failures) throw new Error(message);
    return calls;
  };
}

const RETRY_PLAN = {
  steps: [
    { op: "retry", attempts: 3, plan: { steps: [tool("flaky", "page"), final("page")] }, bind: "page" },
    final("page"),
  ],
};
const RETRY_IDS = ["steps/0", "steps/0/plan/steps/0", "steps/0/plan/steps/1", "steps/1"];

test("a step's id is the runtime's: the root plan is 'plan', a step its JSON path joined by /", () => {
  assert.equal(stepId([]), "plan");
  assert.equal(stepId(["steps", 2, "plan", "steps", 0]), "steps/2/plan/steps/0");
});

test("a retried tool that fails once: failed while the attempt is over, then running, then ok with its failed attempt and reason", async () => {
  const events = await eventsOf(RETRY_PLAN, { flaky: failing(1, "connection reset by peer") });
  assert.deepEqual(
    events.map((e) => `${e.type} ${stepId(e.path)}`),
    [
      "step_started steps/0",
      "step_started steps/0/plan/steps/0",
      "step_failed steps/0/plan/steps/0",
      "attempt_failed steps/0",
      "step_started steps/0/plan/steps/0",
      "transition steps/0/plan/steps/0",
      "step_finished steps/0/plan/steps/0",
      "step_started steps/0/plan/steps/1",
      "transition steps/0/plan/steps/1",
      "step_finished steps/0/plan/steps/1",
      "transition steps/0",
      "step_finished steps/0",
      "step_started steps/1",
      "transition steps/1",
      "step_finished steps/1",
    ],
  );
  const after = (n: number, status: RunRecord["status"] = "running") =>
    summary(stepStates({ status, events: events.slice(0, n) }, RETRY_IDS));
  const TOOL = "steps/0/plan/steps/0";
  assert.deepEqual(after(3), { "steps/0": "running", [TOOL]: "failed (1 failed)" });
  assert.deepEqual(after(4), { "steps/0": "running (1 failed)", [TOOL]: "failed (1 failed)" });
  assert.deepEqual(after(5), { "steps/0": "running (1 failed)", [TOOL]: "running (1 failed)" });
  assert.deepEqual(after(7), { "steps/0": "running (1 failed)", [TOOL]: "ok (1 failed)" });
  assert.deepEqual(after(events.length, "succeeded"), {
    "steps/0": "ok (1 failed)",
    [TOOL]: "ok (1 failed)",
    "steps/0/plan/steps/1": "ok",
    "steps/1": "ok",
  });
  // What the node's tooltip lists: the attempt and the runtime's message.
  const states = stepStates({ status: "succeeded", events }, RETRY_IDS);
  assert.deepEqual(states[TOOL]?.lastFailures, [
    {
      phase: "execute",
      kind: "tool_error",
      message: 'tool "flaky" failed: connection reset by peer',
      attempt: 1,
    },
  ]);
  assert.deepEqual(states["steps/0"]?.lastFailures, [
    {
      phase: "execute",
      kind: "tool_error",
      message: 'tool "flaky" failed: connection reset by peer',
      attempt: 1,
      attempts: 3,
    },
  ]);
  assert.equal(states[TOOL]?.state, "ok");
  assert.equal(typeof states[TOOL]?.durationMs, "number");
  assert.equal(states[TOOL]?.remaining?.tool_calls, 14);
  assert.equal(failedAttempts({ status: "succeeded", events }), 1);
});

test("every attempt fails: each failure once (the retry's last attempt_failed and its step_failed are one), the rest skipped", async () => {
  const events = await eventsOf(RETRY_PLAN, { flaky: failing(9, "still down") });
  const states = stepStates({ status: "failed", events }, RETRY_IDS);
  assert.deepEqual(summary(states), {
    "steps/0": "failed (3 failed)",
    "steps/0/plan/steps/0": "failed (3 failed)",
    "steps/0/plan/steps/1": "skipped",
    "steps/1": "skipped",
  });
  assert.deepEqual(
    states["steps/0"]?.lastFailures?.map((f) => `${f.attempt}/${f.attempts} ${f.message}`),
    [
      '1/3 tool "flaky" failed: still down',
      '2/3 tool "flaky" failed: still down',
      '3/3 tool "flaky" failed: still down',
    ],
  );
});

test("a step that fails deep inside nested plans: it and every step enclosing it failed, as the runtime said", async () => {
  const plan = {
    steps: [
      tool("ok", "a"),
      {
        op: "rlm",
        plan: {
          steps: [
            { op: "rlm", plan: { steps: [tool("ok", "b"), tool("broken", "z"), final("z")] }, bind: "in" },
            final("in"),
          ],
        },
        bind: "out",
      },
      final("out"),
    ],
  };
  const events = await eventsOf(plan, { ok: () => 1, broken: failing(9, "no such file") });
  const inner = "steps/1/plan/steps/0/plan/steps/1";
  assert.deepEqual(
    summary(
      stepStates({ status: "failed", events }, [
        "steps/0",
        "steps/1",
        "steps/1/plan/steps/0",
        "steps/1/plan/steps/0/plan/steps/0",
        inner,
        "steps/1/plan/steps/0/plan/steps/2",
        "steps/2",
      ]),
    ),
    {
      "steps/0": "ok",
      "steps/1": "failed (1 failed)",
      "steps/1/plan/steps/0": "failed (1 failed)",
      "steps/1/plan/steps/0/plan/steps/0": "ok",
      [inner]: "failed (1 failed)",
      "steps/1/plan/steps/0/plan/steps/2": "skipped",
      "steps/2": "skipped",
    },
  );
});

test("concurrent branches: a branch fails while its sibling runs; the sibling's step is cancelled, not failed", async () => {
  let release: () => void = () => undefined;
  const slow: ToolHandler = (_args, context) =>
    new Promise((resolve, reject) => {
      release = () => resolve(1);
      context?.signal?.addEventListener("abort", () => reject(new Error("aborted")));
    });
  const plan = {
    steps: [
      {
        op: "parallel",
        plans: [{ steps: [tool("slow", "a"), final("a")] }, { steps: [tool("broken", "b"), final("b")] }],
        bind: "both",
      },
      final("both"),
    ],
  };
  const events = await eventsOf(plan, { slow, broken: failing(9, "boom") }, { parallel: "concurrent" });
  release();
  const states = stepStates({ status: "failed", events }, [
    "steps/0",
    "steps/0/plans/0/steps/0",
    "steps/0/plans/0/steps/1",
    "steps/0/plans/1/steps/0",
    "steps/0/plans/1/steps/1",
    "steps/1",
  ]);
  assert.deepEqual(summary(states), {
    "steps/0": "failed (1 failed)",
    "steps/0/plans/0/steps/0": "cancelled (1 failed)",
    "steps/0/plans/1/steps/0": "failed (1 failed)",
    "steps/0/plans/0/steps/1": "skipped",
    "steps/0/plans/1/steps/1": "skipped",
    "steps/1": "skipped",
  });
  assert.equal(states["steps/0/plans/0/steps/0"]?.lastFailures?.[0]?.kind, "cancelled");
  assert.equal(states["steps/0"]?.lastFailures?.[0]?.message, 'tool "broken" failed: boom');
});

test("a run that ended while a step ran (interrupted): that step cancelled; with dropped events, nothing guessed", () => {
  const started = (path: (string | number)[]): RunEvent =>
    ({ type: "step_started", path, operation: "tool(t)", bind: "x", depth: 1, elapsed_ms: 0 }) as RunEvent;
  const events = [started(["steps", 0])];
  assert.deepEqual(summary(stepStates({ status: "running", events }, ["steps/0", "steps/1"])), {
    "steps/0": "running",
  });
  assert.deepEqual(summary(stepStates({ status: "interrupted", events }, ["steps/0", "steps/1"])), {
    "steps/0": "cancelled",
    "steps/1": "skipped",
  });
  assert.deepEqual(stepStates({ status: "succeeded", events, droppedEvents: 3 }, ["steps/0", "steps/1"]), {});
  // A run logged without events (a debug run, or one logged before events were kept): no states.
  assert.deepEqual(stepStates({ status: "succeeded" } as RunEvents, ["steps/0"]), {});
});

test("a step lists its newest failures only, and counts them all", async () => {
  const plan = {
    steps: [{ op: "retry", attempts: 8, plan: { steps: [tool("flaky", "v"), final("v")] }, bind: "r" }, final("r")],
  };
  const events = await eventsOf(plan, { flaky: failing(7, "try again") });
  const state = stepStates({ status: "succeeded", events }, [])["steps/0"];
  assert.equal(state?.failures, 7);
  assert.equal(state?.lastFailures?.length, MAX_FAILURES_LISTED);
  assert.deepEqual(
    state?.lastFailures?.map((f) => f.attempt),
    [3, 4, 5, 6, 7],
  );
});

test("a failure's reason in an event passes through the run's secret mask", async () => {
  const key = "sk-sentinel-Zq8vL2mN4pR6";
  const events = await eventsOf(
    RETRY_PLAN,
    { flaky: failing(1, `bad key ${key.toUpperCase()}`) },
    { mask: new SecretMask([key]) },
  );
  const states = stepStates({ status: "succeeded", events }, RETRY_IDS);
  assert.equal(states["steps/0/plan/steps/0"]?.lastFailures?.[0]?.message, 'tool "flaky" failed: bad key ***');
  assert.ok(!JSON.stringify(events).toLowerCase().includes("zq8vl2mn4pr6"));
});

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

test("the summary says the run's number, status, duration and failed attempts", async () => {
  assert.equal(runSummary(record({})), "Run 7 · running");
  assert.equal(runSummary(record({ status: "succeeded", durationMs: 1250 })), "Run 7 · succeeded after 1.3 s");
  const events = await eventsOf(RETRY_PLAN, { flaky: failing(2, "x") });
  assert.equal(
    runSummary(record({ status: "succeeded", durationMs: 40, events })),
    "Run 7 · succeeded after 0.0 s · 2 failed attempts",
  );
});
