// Worst cases beyond 2^53 stay exact, as the reference computes them: counts are numbers while
// they are safe integers and bigints beyond, the budget comparison is exact, a validation
// problem carries the exact figure, and a run's error (plain JSON) the nearest number.

import assert from "node:assert/strict";
import { test } from "node:test";
import { exactJsonText, parseExactJson } from "@rlm-plan/core/json";
import { exceedsBudget } from "@rlm-plan/core/plan/budget";
import { addCounts, multiplyCounts } from "@rlm-plan/core/plan/count";
import { addEstimates, estimatePlan, scaleEstimate } from "@rlm-plan/core/plan/estimate";
import { parsePlan } from "@rlm-plan/core/plan/parse";
import { validatePlan } from "@rlm-plan/core/plan/validate";
import type { Plan } from "@rlm-plan/core/plan/ast";
import { checkPlan } from "@rlm-plan/core/run/pipeline";

/** Retries nested innermost first, around a tool call, a context operation and a final step (conformance bignum-003). */
function nestedRetries(attempts: readonly number[]): unknown {
  let inner: unknown = {
    steps: [
      { op: "tool", name: "count_items", args: [], bind: "n" },
      {
        op: "context",
        handle: { ref: "input", name: "context" },
        action: { type: "reduce", reducer: "count" },
        bind: "c",
      },
      { op: "final", value: { ref: "var", name: "n" } },
    ],
  };
  attempts.forEach((n, i) => {
    inner = {
      steps: [
        { op: "retry", attempts: n, plan: inner, bind: `r${i}` },
        { op: "final", value: { ref: "var", name: `r${i}` } },
      ],
    };
  });
  return inner;
}

function planOf(value: unknown): Plan {
  const parsed = parsePlan({ kind: "value", value });
  assert.deepEqual(parsed.problems, []);
  return parsed.plan as Plan;
}

const CAPABILITIES = ["retry", "tool(count_items)", "context(reduce)"];
const BIG = nestedRetries([1000000, 1000, 123457, 99999]);

test("counts stay numbers while they are safe and become exact bigints beyond", () => {
  assert.equal(addCounts(2, 3), 5);
  assert.equal(multiplyCounts(4096, 4096), 16777216);
  assert.equal(addCounts(Number.MAX_SAFE_INTEGER - 1, 1), Number.MAX_SAFE_INTEGER);
  assert.equal(addCounts(Number.MAX_SAFE_INTEGER, 1), 9007199254740992n);
  assert.equal(multiplyCounts(3000000000, 3000000000), 9000000000000000000n);
  assert.equal(multiplyCounts(9000000000000000000n, 0), 0);
  assert.equal(addCounts(9007199254740993n, -2), 9007199254740991);
});

test("the estimate of nested retries is the reference's exact figure", () => {
  const estimate = estimatePlan(planOf(BIG));
  assert.deepEqual(estimate, {
    steps: 37036754344844439086n,
    depth: 5,
    parallel_width: 0,
    model_calls: 0,
    tool_calls: 12345576543000000000n,
    context_ops: 12345576543000000000n,
  });
  assert.deepEqual(estimatePlan(planOf(nestedRetries([123457, 99999]))).steps, 37036929629);
});

test("addEstimates and scaleEstimate are exact", () => {
  const a = { steps: 2 ** 53, depth: 2, parallel_width: 1, model_calls: 1, tool_calls: 0, context_ops: 3 };
  const sum = addEstimates(a, { ...a, steps: 1, depth: 3 });
  assert.deepEqual(sum, {
    steps: 9007199254740993n,
    depth: 3,
    parallel_width: 1,
    model_calls: 2,
    tool_calls: 0,
    context_ops: 6,
  });
  assert.deepEqual(scaleEstimate(sum, 3), { ...sum, steps: 27021597764222979n, model_calls: 6, context_ops: 18 });
});

test("the budget comparison is exact where numbers would round", () => {
  assert.equal(Number(9007199254740993n) > 2 ** 53, false, "as numbers the two are equal");
  assert.equal(exceedsBudget(9007199254740993n, 2 ** 53), true);
  assert.equal(exceedsBudget(9007199254740992n, 2 ** 53), false);
  assert.equal(exceedsBudget(64, 64), false);
  assert.equal(exceedsBudget(65, 64), true);
});

test("the budget problem carries the exact estimate; a run's error the nearest number", () => {
  const result = validatePlan(planOf(BIG), {
    capabilities: CAPABILITIES,
    budget: { max_depth: 8, max_steps: 2147483648 },
  });
  assert.equal(result.ok, false);
  const problem = result.problems[0];
  assert.deepEqual([problem?.budget, problem?.estimated, problem?.limit], ["steps", 37036754344844439086n, 2147483648]);
  assert.equal(problem?.message, "worst case steps 37036754344844439086 exceeds the budget's max_steps of 2147483648");
  const checked = checkPlan({ kind: "value", value: BIG }, { capabilities: CAPABILITIES, budget: { max_depth: 8 } });
  assert.equal(checked.ok, false);
  if (!checked.ok) {
    assert.equal(checked.error.estimated, Number(37036754344844439086n));
    assert.equal(JSON.stringify(checked.error).includes('"estimated":37036754344844435000'), true);
  }
});

test("exact JSON text writes bigints as integers and reads them back", () => {
  const text = exactJsonText({ steps: 37036754344844439086n, depth: 5, ratio: 0.5 });
  assert.equal(text, '{"steps":37036754344844439086,"depth":5,"ratio":0.5}');
  assert.deepEqual(parseExactJson(text), { steps: 37036754344844439086n, depth: 5, ratio: 0.5 });
  assert.deepEqual(parseExactJson("[9007199254740991, 9007199254740993, 1e400, -0, 2.5]"), [
    9007199254740991,
    9007199254740993n,
    Infinity,
    -0,
    2.5,
  ]);
});
