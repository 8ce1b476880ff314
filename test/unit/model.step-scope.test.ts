// What running one step alone must and may be given (plan/stepScope.ts), the rule `run --step`,
// a test case's `step` and the editor's Test This Step share: the names the step reads from
// outside itself (its sub-plans' own bindings are not), every name in scope there, the refusals,
// and the template of the bindings from their types.

import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { analyzePlanText, bindingsProblem, bindingsTemplate, stepScope } from "@rlm-plan/core/analysis";

const ref = (name: string) => ({ ref: "var", name });

const PLAN = JSON.stringify({
  steps: [
    { op: "tool", name: "t", args: { x: 1 }, bind: "a" },
    { op: "rlm", plan: { steps: [{ op: "final", value: { n: 1, s: "x", ok: true, list: [1, "y"] } }] }, bind: "shape" },
    { op: "tool", name: "t", args: { y: ref("a") }, bind: "b" },
    {
      op: "rlm",
      plan: {
        steps: [
          { op: "tool", name: "t", args: { z: ref("b") }, bind: "inner" },
          { op: "final", value: { inner: ref("inner"), shape: ref("shape"), b: ref("b") } },
        ],
      },
      bind: "sub",
    },
    { op: "final", value: ref("sub") },
  ],
});

describe("stepScope", () => {
  const { model, types } = analyzePlanText(PLAN);

  test("a sub-plan step reads the outside names its steps read, once each; its own bindings are not read from outside", () => {
    assert.deepEqual(stepScope(model, ["steps", 3]), {
      shown: "steps/3",
      inScope: ["a", "shape", "b"],
      needed: ["b", "shape"],
    });
    assert.deepEqual(stepScope(model, ["steps", 3, "plan", "steps", 1]), {
      shown: "steps/3/plan/steps/1",
      inScope: ["a", "shape", "b", "inner"],
      needed: ["b", "inner", "shape"],
    });
    assert.deepEqual(stepScope(model, ["steps", 0]), { shown: "steps/0", inScope: [], needed: [] });
    assert.equal(stepScope(model, ["steps", 9]), "there is no step at steps/9 in this plan");
  });

  test("bindings that name one out of scope, or miss one the step reads, are refused with the names", () => {
    const scope = stepScope(model, ["steps", 3]);
    assert.ok(typeof scope !== "string");
    assert.deepEqual(bindingsProblem(scope, ["b", "shape", "sub"]), {
      message: 'no binding "sub" is in scope at steps/3 (in scope: a, shape, b)',
      name: "sub",
      missing: [],
    });
    assert.deepEqual(bindingsProblem(scope, ["a", "b"]), {
      message:
        'the step at steps/3 reads "shape", which is not given (in scope: a, shape, b; the step reads: b, shape)',
      missing: ["shape"],
    });
    assert.equal(bindingsProblem(scope, ["a", "b", "shape"]), undefined);
  });

  test("the template gives each name the step reads a value of its type (null where unknown)", () => {
    assert.ok(model);
    // Plain data for the comparison: the template's objects have no prototype (names from a plan).
    const plain = (value: unknown): unknown => JSON.parse(JSON.stringify(value));
    assert.deepEqual(plain(bindingsTemplate(model, types, ["steps", 3])), {
      b: null,
      shape: { n: 0, s: "", ok: false, list: [0, ""] },
    });
    assert.deepEqual(plain(bindingsTemplate(model, types, ["steps", 9])), {});
  });
});
