// Worst-case estimates with the reference's arithmetic. Figures marked "reference" are the
// numbers the SWI-Prolog runtime computed for the same plan in the conformance corpus.

import assert from "node:assert/strict";
import { test } from "node:test";
import { parsePlan } from "@rlm-plan/core/plan/parse";
import type { Plan, Step } from "@rlm-plan/core/plan/ast";
import { estimateEachStep, estimatePlan, type Estimate } from "@rlm-plan/core/plan/estimate";
import { planSteps } from "@rlm-plan/core/plan/walk";

function planOf(value: unknown): Plan {
  const parsed = parsePlan({ kind: "value", value });
  assert.deepEqual(parsed.problems, [], "the fixture normalizes");
  return parsed.plan as Plan;
}

/** Estimates written positionally: steps, depth, parallel width, model, tool and context calls. */
type Figures = readonly [number, number, number, number, number, number];
const figures = ([steps, depth, parallel_width, model_calls, tool_calls, context_ops]: Figures): Estimate => ({
  steps,
  depth,
  parallel_width,
  model_calls,
  tool_calls,
  context_ops,
});

function check(value: unknown, expected: Figures): void {
  const plan = planOf(value);
  assert.deepEqual(estimatePlan(plan), figures(expected));
  assert.deepEqual(estimateEachStep(plan).total, figures(expected));
}

const V = (name: string) => ({ ref: "var", name });
const final = (value: unknown = 1) => ({ op: "final", value });
const plan = (...steps: unknown[]) => ({ steps });
const tool = (bind: string) => ({ op: "tool", name: "echo", args: 1, bind });
const model = (bind: string) => ({ op: "model", provider: "openrouter", prompt: "p", bind });
const context = (bind: string) => ({ op: "context", handle: 1, action: { type: "reduce", reducer: "count" }, bind });
const checkpoint = { op: "checkpoint", label: "c" };
const rlm = (bind: string, ...steps: unknown[]) => ({ op: "rlm", plan: plan(...steps), bind });
const retry = (attempts: number, ...steps: unknown[]) => ({ op: "retry", attempts, plan: plan(...steps), bind: "r" });
const parallel = (bind: string, ...branches: unknown[][]) => ({
  op: "parallel",
  plans: branches.map((s) => plan(...s)),
  bind,
});
const branches = (n: number) => Array.from({ length: n }, (_, i) => [final(i)]);

const cases: readonly (readonly [string, unknown, Figures])[] = [
  ["a lone final: one step at depth 1", plan(final()), [1, 1, 0, 0, 0, 0]],
  [
    "each leaf costs one step and one of its counter",
    plan(tool("t"), model("m"), context("c"), checkpoint, final()),
    [5, 1, 0, 1, 1, 1],
  ],
  ["an empty plan costs nothing but keeps depth 1", plan(), [0, 1, 0, 0, 0, 0]],
  [
    "reference: retry 5 around [tool, final] under a root with final",
    plan(retry(5, tool("n"), final(V("n"))), final(V("r"))),
    [12, 2, 0, 0, 5, 0],
  ],
  ["retry 0 scales its plan to nothing", plan(retry(0, tool("n"), final()), final()), [2, 2, 0, 0, 0, 0]],
  ["reference: a single rlm has depth 2", plan(rlm("r", final()), final(V("r"))), [3, 2, 0, 0, 0, 0]],
  [
    "reference: four nested rlm steps reach depth 5",
    plan(rlm("d", rlm("c", rlm("b", rlm("a", final(5)), final(V("a"))), final(V("b"))), final(V("c"))), final(V("d"))),
    [9, 5, 0, 0, 0, 0],
  ],
  [
    "reference: an rlm wrapper counts as a step",
    plan(rlm("r", tool("x"), final(V("x"))), final(V("r"))),
    [4, 2, 0, 0, 1, 0],
  ],
  ["a parallel's width is its number of branches", plan(parallel("p", ...branches(3)), final()), [5, 2, 3, 0, 0, 0]],
  ["an empty parallel has width 0", plan(parallel("p"), final()), [2, 2, 0, 0, 0, 0]],
  [
    "reference: sibling parallels: the width is the maximum",
    plan(parallel("a", ...branches(2)), parallel("b", ...branches(3)), final()),
    [8, 2, 3, 0, 0, 0],
  ],
  [
    "reference: nested parallels: the width is the maximum, not the product",
    plan(
      parallel(
        "o",
        [parallel("i", ...branches(2)), final(V("i"))],
        [parallel("i", ...branches(2)), final(V("i"))],
        [parallel("i", ...branches(2)), final(V("i"))],
      ),
      final(V("o")),
    ),
    [14, 3, 3, 0, 0, 0],
  ],
  [
    "a narrow parallel inside a wide one",
    plan(parallel("o", [parallel("i", ...branches(2)), final()], ...branches(4)), final()),
    [10, 3, 5, 0, 0, 0],
  ],
  [
    "a wide parallel inside a narrow one",
    plan(parallel("o", [parallel("i", ...branches(6)), final()]), final()),
    [10, 3, 6, 0, 0, 0],
  ],
  [
    "reference: retry does not multiply width",
    plan(retry(4, parallel("x", ...branches(2)), final(V("x"))), final(V("r"))),
    [18, 3, 2, 0, 0, 0],
  ],
  [
    "parallel branches add their calls",
    plan(parallel("p", [tool("a"), final()], [tool("b"), model("m"), final()]), final()),
    [7, 2, 2, 1, 2, 0],
  ],
  [
    "reference: retry 3 around a parallel of mixed calls",
    plan(
      retry(3, parallel("p", [tool("a"), context("b"), model("c"), final()], [final(2)]), final(V("p"))),
      final(V("r")),
    ),
    [23, 3, 2, 3, 3, 3],
  ],
  [
    "nested retries multiply",
    plan(retry(3, { ...retry(2, tool("n"), final(V("n"))), bind: "inner" }, final(V("inner"))), final(V("r"))),
    [20, 3, 0, 0, 6, 0],
  ],
  [
    "depth is the deepest branch, not the sum",
    plan(rlm("a", final()), rlm("b", rlm("c", final()), final()), final()),
    [7, 3, 0, 0, 0, 0],
  ],
];

for (const [name, value, expected] of cases) {
  test(name, () => check(value, expected));
}

// Per-step estimates: the depth each step runs at, its own subtree, and the running total of its
// plan up to and including it. Keyed by the step's JSON path.
type PerStep = Readonly<Record<string, { depth: number; subtree: Figures; runningTotal: Figures }>>;

function checkEachStep(value: unknown, expected: PerStep): void {
  const { steps } = estimateEachStep(planOf(value));
  const actual: Record<string, unknown> = {};
  for (const [step, estimate] of steps as ReadonlyMap<
    Step,
    { depth: number; subtree: Estimate; runningTotal: Estimate }
  >) {
    actual[step.path.join("/")] = estimate;
  }
  const wanted: Record<string, unknown> = {};
  for (const [path, e] of Object.entries(expected)) {
    wanted[path] = { depth: e.depth, subtree: figures(e.subtree), runningTotal: figures(e.runningTotal) };
  }
  assert.deepEqual(actual, wanted);
}

test("each step of a retry plan: subtree and running totals", () => {
  checkEachStep(plan(tool("a"), retry(5, tool("n"), final(V("n"))), final()), {
    "steps/0": { depth: 1, subtree: [1, 1, 0, 0, 1, 0], runningTotal: [1, 1, 0, 0, 1, 0] },
    "steps/1/plan/steps/0": { depth: 2, subtree: [1, 2, 0, 0, 1, 0], runningTotal: [1, 2, 0, 0, 1, 0] },
    "steps/1/plan/steps/1": { depth: 2, subtree: [1, 2, 0, 0, 0, 0], runningTotal: [2, 2, 0, 0, 1, 0] },
    "steps/1": { depth: 1, subtree: [11, 2, 0, 0, 5, 0], runningTotal: [12, 2, 0, 0, 6, 0] },
    "steps/2": { depth: 1, subtree: [1, 1, 0, 0, 0, 0], runningTotal: [13, 2, 0, 0, 6, 0] },
  });
});

test("each step of parallel branches: each branch's running total starts afresh", () => {
  checkEachStep(plan(model("m"), parallel("p", [tool("a"), final()], [context("c"), final()]), final()), {
    "steps/0": { depth: 1, subtree: [1, 1, 0, 1, 0, 0], runningTotal: [1, 1, 0, 1, 0, 0] },
    "steps/1/plans/0/steps/0": { depth: 2, subtree: [1, 2, 0, 0, 1, 0], runningTotal: [1, 2, 0, 0, 1, 0] },
    "steps/1/plans/0/steps/1": { depth: 2, subtree: [1, 2, 0, 0, 0, 0], runningTotal: [2, 2, 0, 0, 1, 0] },
    "steps/1/plans/1/steps/0": { depth: 2, subtree: [1, 2, 0, 0, 0, 1], runningTotal: [1, 2, 0, 0, 0, 1] },
    "steps/1/plans/1/steps/1": { depth: 2, subtree: [1, 2, 0, 0, 0, 0], runningTotal: [2, 2, 0, 0, 0, 1] },
    "steps/1": { depth: 1, subtree: [5, 2, 2, 0, 1, 1], runningTotal: [6, 2, 2, 1, 1, 1] },
    "steps/2": { depth: 1, subtree: [1, 1, 0, 0, 0, 0], runningTotal: [7, 2, 2, 1, 1, 1] },
  });
});

test("each step of nested rlm plans: depth grows by one per level", () => {
  checkEachStep(plan(rlm("a", rlm("b", final()), final()), final()), {
    "steps/0/plan/steps/0/plan/steps/0": { depth: 3, subtree: [1, 3, 0, 0, 0, 0], runningTotal: [1, 3, 0, 0, 0, 0] },
    "steps/0/plan/steps/0": { depth: 2, subtree: [2, 3, 0, 0, 0, 0], runningTotal: [2, 3, 0, 0, 0, 0] },
    "steps/0/plan/steps/1": { depth: 2, subtree: [1, 2, 0, 0, 0, 0], runningTotal: [3, 3, 0, 0, 0, 0] },
    "steps/0": { depth: 1, subtree: [4, 3, 0, 0, 0, 0], runningTotal: [4, 3, 0, 0, 0, 0] },
    "steps/1": { depth: 1, subtree: [1, 1, 0, 0, 0, 0], runningTotal: [5, 3, 0, 0, 0, 0] },
  });
});

test("every step of the plan, at every level, has an estimate", () => {
  const value = plan(
    tool("a"),
    retry(2, parallel("p", [tool("b"), final()], [final()]), final()),
    rlm("r", final()),
    final(),
  );
  const { steps } = estimateEachStep(planOf(value));
  assert.deepEqual([...steps.keys()].map((s) => s.path.join("/")).sort(), [
    "steps/0",
    "steps/1",
    "steps/1/plan/steps/0",
    "steps/1/plan/steps/0/plans/0/steps/0",
    "steps/1/plan/steps/0/plans/0/steps/1",
    "steps/1/plan/steps/0/plans/1/steps/0",
    "steps/1/plan/steps/1",
    "steps/2",
    "steps/2/plan/steps/0",
    "steps/3",
  ]);
});

// What the editor asks (a step's figures on demand, each plan's total) against the map of every
// step (the walk of the whole plan): equal for every step of every plan above, asked in an order
// unlike the walk's (last plan first, last step first), so a running total filled part way and a
// sub-plan's total kept from an earlier ask are both read.
test("each step's estimate on demand equals the whole plan's map, at every step of every case", () => {
  for (const [name, value] of cases) {
    const parsed = planOf(value);
    const whole = estimateEachStep(parsed).steps;
    const onDemand = estimateEachStep(parsed);
    const walked = [...planSteps(parsed)].reverse();
    assert.equal(walked.length, whole.size, name);
    for (const { step, plan: owner, index, depth } of walked) {
      assert.deepEqual(
        onDemand.stepEstimate(owner, index, depth + 1),
        whole.get(step),
        `${name}: ${step.path.join("/")}`,
      );
      const last = owner.steps[owner.steps.length - 1] as Step;
      assert.deepEqual(
        onDemand.planTotal(owner, depth + 1),
        whole.get(last)?.runningTotal,
        `${name}: its plan's total`,
      );
    }
    assert.deepEqual(onDemand.planTotal(parsed, 1), onDemand.total, name);
    assert.equal(onDemand.stepEstimate(parsed, parsed.steps.length, 1), undefined, `${name}: past the last step`);
  }
});

test("an empty sub-plan's total on demand: nothing, at its depth", () => {
  const parsed = planOf(plan(rlm("r"), final()));
  const rlmStep = parsed.steps[0] as Extract<Step, { op: "rlm" }>;
  assert.deepEqual(estimateEachStep(parsed).planTotal(rlmStep.plan, 2), figures([0, 2, 0, 0, 0, 0]));
});
