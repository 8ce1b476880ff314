// The semantic model (shared-runtime/src/plan/semanticModel.ts) that the editor, the CLI and the client
// read: bindings and references by path, scopes, per-step costs and the rows against a budget.

import assert from "node:assert/strict";
import { test } from "node:test";
import { analyzePlanText } from "@rlm-plan/core/analysis";
import { DEFAULT_BUDGET } from "@rlm-plan/core/plan/budget";
import type { Estimate } from "@rlm-plan/core/plan/estimate";
import type { PlanModel } from "@rlm-plan/core/plan/semanticModel";

const V = (name: string) => ({ ref: "var", name });
const PLAN = {
  steps: [
    { op: "tool", name: "t", args: 1, bind: "a" },
    {
      op: "retry",
      attempts: 3,
      plan: {
        steps: [
          { op: "tool", name: "t", args: V("a"), bind: "b" },
          { op: "model", provider: "p", prompt: V("b"), bind: "c" },
          { op: "final", value: V("c") },
        ],
      },
      bind: "r",
    },
    { op: "final", value: [V("a"), V("r")] },
  ],
};

function model(value: unknown = PLAN): PlanModel {
  const analysis = analyzePlanText(JSON.stringify(value, null, 2));
  assert.ok(analysis.model);
  return analysis.model;
}

test("bindings and references, each resolved, in walk order", () => {
  const m = model();
  assert.deepEqual(
    m.bindings.map((b) => [b.name, b.stepPath, b.planPath, b.index, b.op]),
    [
      ["a", ["steps", 0], [], 0, "tool"],
      ["b", ["steps", 1, "plan", "steps", 0], ["steps", 1, "plan"], 0, "tool"],
      ["c", ["steps", 1, "plan", "steps", 1], ["steps", 1, "plan"], 1, "model"],
      ["r", ["steps", 1], [], 1, "retry"],
    ],
  );
  assert.deepEqual(
    m.references.map((r) => [r.name, r.path, r.binding?.stepPath, r.checked]),
    [
      ["a", ["steps", 1, "plan", "steps", 0, "args"], ["steps", 0], true],
      ["b", ["steps", 1, "plan", "steps", 1, "prompt"], ["steps", 1, "plan", "steps", 0], true],
      ["c", ["steps", 1, "plan", "steps", 2, "value"], ["steps", 1, "plan", "steps", 1], true],
      ["a", ["steps", 2, "value", 0], ["steps", 0], true],
      ["r", ["steps", 2, "value", 1], ["steps", 1], true],
    ],
  );
  const a = m.bindingAt(["steps", 0]);
  assert.ok(a);
  assert.deepEqual(
    m.referencesTo(a).map((r) => r.path),
    [
      ["steps", 1, "plan", "steps", 0, "args"],
      ["steps", 2, "value", 0],
    ],
  );
  assert.equal(m.referenceAt(["steps", 2, "value", 1])?.binding, m.bindingAt(["steps", 1]));
  assert.equal(m.bindingAt(["steps", 2]), undefined);
});

test("scopes: what is visible where, and what a name means there", () => {
  const m = model();
  const inner = ["steps", 1, "plan", "steps", 2, "value"];
  assert.deepEqual(
    m.inScopeAt(inner).map((b) => b.name),
    ["a", "b", "c"],
  );
  assert.deepEqual(
    m.inScopeAt(["steps", 2, "value"]).map((b) => b.name),
    ["a", "r"],
  );
  assert.equal(m.resolve(["steps", 2, "value"], "b"), undefined);
  assert.equal(m.resolve(inner, "a"), m.bindingAt(["steps", 0]));
  assert.deepEqual(m.scopeAt(inner)?.scope.planPath, ["steps", 1, "plan"]);
  assert.equal(m.scopeAt(inner)?.cut, 2);
});

test("a name bound twice: later references mean the later binding (with or without duplicates)", () => {
  const m = model({
    steps: [
      { op: "tool", name: "t", args: 1, bind: "n" },
      { op: "tool", name: "t", args: V("n"), bind: "n" },
      { op: "final", value: V("n") },
    ],
  });
  assert.deepEqual(
    m.references.map((r) => r.binding?.stepPath),
    [
      ["steps", 0],
      ["steps", 1],
    ],
  );
  assert.deepEqual(
    m.inScopeAt(["steps", 2, "value"]).map((b) => b.stepPath),
    [["steps", 1]],
  );
});

test("costs: the step's subtree, its plan so far, the run so far, and the retry's attempts", () => {
  const m = model();
  const figures = (e: Estimate | undefined) => e && [e.steps, e.depth, e.model_calls, e.tool_calls];
  const innerModel = m.costAt(["steps", 1, "plan", "steps", 1]);
  assert.deepEqual(figures(innerModel?.subtree), [1, 2, 1, 0]);
  assert.deepEqual(figures(innerModel?.planSoFar), [2, 2, 1, 1]);
  // Step 0, the retry step itself, two earlier attempts of 3 steps, then 2 steps of the last.
  assert.deepEqual(figures(innerModel?.runSoFar), [1 + 1 + 6 + 2, 2, 3, 4]);
  const retry = m.costAt(["steps", 1]);
  assert.deepEqual(figures(retry?.retry?.perAttempt), [3, 2, 1, 1]);
  assert.deepEqual(figures(retry?.retry?.allAttempts), [9, 2, 3, 3]);
  assert.deepEqual(figures(retry?.subtree), [10, 2, 3, 3]);
  assert.deepEqual(figures(m.total), [12, 2, 3, 4]);
  assert.equal(m.costAt(["steps", 7]), undefined);
});

test("rows: each limited figure against the budget, in the reference's order", () => {
  const m = model();
  assert.deepEqual(
    m
      .rows(m.total, { ...DEFAULT_BUDGET, max_model_calls: 2 })
      ?.map((r) => [r.name, r.field, r.estimate, r.limit, r.over]),
    [
      ["steps", "max_steps", 12, 64, false],
      ["depth", "max_depth", 2, 4, false],
      ["parallel", "max_parallel", 0, 8, false],
      ["model_calls", "max_model_calls", 3, 2, true],
      ["tool_calls", "max_tool_calls", 4, 16, false],
      ["context_ops", "max_context_ops", 0, 32, false],
    ],
  );
});
