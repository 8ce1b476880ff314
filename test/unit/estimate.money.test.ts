// The worst case in money: each model call's input bound (a literal prompt's bytes, else
// max_output_bytes, plus 8 tokens of template) and max_tokens (the step's, else the provider's)
// at its price, times the times it may run (retry attempts; parallel branches and rlm once).
// Each figure below is worked by hand in its comment. Provider "a": 2 per million input tokens,
// 10 per million output tokens, maxTokens 100; max_output_bytes 1000.

import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { analyzePlanText, type AnalysisPolicy } from "@rlm-plan/core/analysis";
import type { CostPolicy } from "@rlm-plan/core/plan/modelCost";

const COSTS: CostPolicy = {
  currency: "EUR",
  providers: new Map([
    ["a", { price: { input_per_mtok: 2, output_per_mtok: 10 }, maxTokens: 100 }],
    ["free", { price: { input_per_mtok: 0, output_per_mtok: 0 } }],
    ["b", {}],
  ]),
};

function policy(costs: CostPolicy = COSTS): AnalysisPolicy {
  return { budget: { max_output_bytes: 1000 }, costs };
}

const final = { op: "final", value: "done" };
const model = (prompt: unknown, bind: string, options?: object) => ({
  op: "model",
  provider: "a",
  prompt,
  bind,
  ...(options ? { options } : {}),
});
const textOf = (name: string) => ({ ref: "field", value: { ref: "var", name }, key: "text" });

function moneyOf(plan: object, costs?: CostPolicy) {
  const analysis = analyzePlanText(JSON.stringify(plan), policy(costs));
  return analysis.money;
}

describe("estimate: the worst case in money", () => {
  test("retry: a call times its attempts", () => {
    // "hello": (5 + 8) * 2 + 50 * 10 = 526 per million; 3 attempts: 1578 per million.
    const plan = {
      steps: [
        { op: "retry", attempts: 3, plan: { steps: [model("hello", "r", { max_tokens: 50 }), final] }, bind: "out" },
        final,
      ],
    };
    assert.deepEqual(moneyOf(plan), { cost: 0.001578, unpriced: [], currency: "EUR" });
  });

  test("parallel: every branch's calls once", () => {
    // "abc": (3 + 8) * 2 + 100 * 10 = 1022; "q": (1 + 8) * 2 + 1000 = 1018; a prompt from a value:
    // (1000 + 8) * 2 + 1000 = 3016. Sum: 5056 per million.
    const plan = {
      steps: [
        {
          op: "parallel",
          plans: [{ steps: [model("abc", "x"), final] }, { steps: [model("q", "y"), model(textOf("y"), "z"), final] }],
          bind: "both",
        },
        final,
      ],
    };
    assert.deepEqual(moneyOf(plan), { cost: 0.005056, unpriced: [], currency: "EUR" });
  });

  test("nested rlm: a retry inside an rlm inside an rlm", () => {
    // "hi": (2 + 8) * 2 + 1000 = 1020; "deep": (4 + 8) * 2 + 1000 = 1024, twice: 2048. Sum: 3068.
    const inner = {
      steps: [{ op: "retry", attempts: 2, plan: { steps: [model("deep", "d"), final] }, bind: "r" }, final],
    };
    const plan = {
      steps: [
        { op: "rlm", plan: { steps: [model("hi", "h"), { op: "rlm", plan: inner, bind: "i" }, final] }, bind: "o" },
        final,
      ],
    };
    assert.deepEqual(moneyOf(plan), { cost: 0.003068, unpriced: [], currency: "EUR" });
  });

  test("a provider without a price, or without max_tokens, is unpriced, never free", () => {
    const plan = {
      steps: [
        { op: "model", provider: "b", prompt: "p", bind: "x" },
        { op: "model", provider: "free", prompt: "p", bind: "y" },
        { op: "model", provider: "free", prompt: "p", bind: "z", options: { max_tokens: 5 } },
        final,
      ],
    };
    assert.deepEqual(moneyOf(plan), {
      cost: 0,
      unpriced: [
        'provider "b" has no price in the host profile',
        'provider "free" has no max_tokens (set it on the step or the provider\'s maxTokens)',
      ],
      currency: "EUR",
    });
  });

  test("max_cost: a worst case over it, or unknown under it, is a budget_exceeded problem", () => {
    const over = analyzePlanText(
      JSON.stringify({ steps: [model("hello", "r"), final] }),
      policy({ ...COSTS, maxCost: 0.001 }),
    );
    // (5 + 8) * 2 + 1000 = 1026 per million, over 0.001.
    assert.deepEqual(
      over.problems.filter((p) => p.kind === "budget_exceeded").map((p) => [p.field, p.message]),
      [["max_cost", "worst case cost 0.001026 EUR exceeds the budget's max_cost of 0.001 EUR"]],
    );
    const within = analyzePlanText(
      JSON.stringify({ steps: [model("hello", "r"), final] }),
      policy({ ...COSTS, maxCost: 0.002 }),
    );
    assert.deepEqual(
      within.problems.filter((p) => p.kind === "budget_exceeded"),
      [],
    );
    const unknown = analyzePlanText(
      JSON.stringify({ steps: [{ op: "model", provider: "b", prompt: "p", bind: "x" }, final] }),
      policy({ ...COSTS, maxCost: 1 }),
    );
    assert.deepEqual(
      unknown.problems.filter((p) => p.kind === "budget_exceeded").map((p) => p.message),
      ['the worst case in money is unknown under max_cost: provider "b" has no price in the host profile'],
    );
  });
});
