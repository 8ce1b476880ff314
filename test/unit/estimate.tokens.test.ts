// The worst case in tokens and each model step's term, as a run's page shows them beside what the
// run spent: the same bounds as the money (a literal prompt's bytes plus 8, else max_output_bytes
// plus 8; max_tokens, the step's or the provider's) times how often the step may run. Their money
// sums to planMoney's figure. Provider "a": priced, maxTokens 100; "b": no price, no maxTokens.

import assert from "node:assert/strict";
import { test } from "node:test";
import { analyzePlanText } from "@rlm-plan/core/analysis";
import { pointer } from "@rlm-plan/core/json";
import { modelStepBounds, planMoney, planTokenBound, type Budget, type CostPolicy } from "@rlm-plan/core/plan";

const COSTS: CostPolicy = {
  currency: "EUR",
  providers: new Map([
    ["a", { price: { input_per_mtok: 2, output_per_mtok: 10 }, maxTokens: 100 }],
    ["b", {}],
  ]),
};
const final = { op: "final", value: "done" };

function analysed(plan: object) {
  const analysis = analyzePlanText(JSON.stringify(plan), { budget: { max_output_bytes: 1000 }, costs: COSTS });
  assert.ok(analysis.plan && analysis.budget);
  return { plan: analysis.plan, budget: analysis.budget as Budget };
}

test("a retried step counts its attempts; a prompt from a value is bounded by max_output_bytes", () => {
  const { plan, budget } = analysed({
    steps: [
      {
        op: "retry",
        attempts: 3,
        plan: {
          steps: [{ op: "model", provider: "a", prompt: "hello", bind: "r", options: { max_tokens: 50 } }, final],
        },
        bind: "out",
      },
      { op: "model", provider: "a", prompt: { ref: "var", name: "out" }, bind: "s" },
      final,
    ],
  });
  const bounds = modelStepBounds(plan, COSTS, budget);
  assert.deepEqual(
    bounds.map((b) => [pointer(b.step.path), Number(b.runs), b.inputTokens, b.outputTokens, b.cost, b.unpriced]),
    [
      // (5 + 8) * 2 + 50 * 10 = 526 per million.
      ["/steps/0/plan/steps/0", 3, 13, 50, 0.000526, undefined],
      // (1000 + 8) * 2 + 100 * 10 = 3016 per million.
      ["/steps/1", 1, 1008, 100, 0.003016, undefined],
    ],
  );
  // 3 * 13 + 1008 in, 3 * 50 + 100 out; the money is planMoney's: 3 * 526 + 3016 per million.
  assert.deepEqual(planTokenBound(bounds), { inputTokens: 1047, outputTokens: 250, unbounded: [] });
  assert.deepEqual(planMoney(plan, COSTS, budget), { cost: 0.004594, unpriced: [] });
});

test("a step with no max_tokens leaves the output unbounded, with its reason, never 0", () => {
  const { plan, budget } = analysed({
    steps: [
      { op: "model", provider: "a", prompt: "p", bind: "x" },
      { op: "model", provider: "b", prompt: "p", bind: "y" },
      final,
    ],
  });
  const bounds = modelStepBounds(plan, COSTS, budget);
  assert.deepEqual(
    bounds.map((b) => [b.outputTokens, b.unpriced]),
    [
      [100, undefined],
      [undefined, 'provider "b" has no price in the host profile'],
    ],
  );
  assert.deepEqual(planTokenBound(bounds), {
    inputTokens: 18,
    outputTokens: null,
    unbounded: ['provider "b" has no max_tokens (set it on the step or the provider\'s maxTokens)'],
  });
});
