// The semantic model's lookups by scope (shared-runtime/src/plan/semanticModel.ts): a step's binding found
// in its plan's scope, and a reference's binding by the scope rule at its place, give what the
// validator's walk recorded, on a plan with every case the scope rule has (shadowing across
// levels, a name bound twice in one plan, parallel branches binding the same names, a half-typed
// step that binds, a plan under a step that did not normalize). The editor's first hover after an
// edit asks these, so they must not need an index of every binding or reference.

import assert from "node:assert/strict";
import { test } from "node:test";
import { analyzePlanText } from "@rlm-plan/core/analysis";
import type { PlanModel } from "@rlm-plan/core/plan/semanticModel";

const V = (name: string) => ({ ref: "var", name });
const tool = (bind: string, args: unknown = 1) => ({ op: "tool", name: "t", args, bind });
const PLAN = {
  steps: [
    tool("a"),
    tool("n", V("a")),
    {
      op: "parallel",
      bind: "p",
      plans: [
        { steps: [tool("n", V("n")), tool("b", V("n")), { op: "final", value: V("b") }] },
        { steps: [tool("b", V("a")), tool("b", V("b")), { op: "final", value: [V("b"), V("n")] }] },
        {
          steps: [
            {
              op: "rlm",
              bind: "r",
              plan: {
                steps: [
                  tool("a", V("a")),
                  { op: "retry", attempts: 2, bind: "q", plan: { steps: [{ op: "final", value: V("a") }] } },
                  { op: "final", value: [V("q"), V("n"), V("missing")] },
                ],
              },
            },
            { op: "final", value: V("r") },
          ],
        },
      ],
    },
    // Half-typed: no provider yet; it binds `m` all the same.
    { op: "model", prompt: V("p"), bind: "m" },
    { op: "rlm", bind: "h", plan: { steps: [tool("i", V("m")), { op: "final", value: V("i") }] } },
    { op: "retry", attempts: "two", bind: "o", plan: { steps: [tool("u", V("h")), { op: "final", value: V("u") }] } },
    { op: "final", value: [V("n"), V("m"), V("h"), V("o")] },
  ],
};

function model(): PlanModel {
  const analysis = analyzePlanText(JSON.stringify(PLAN, null, 2));
  assert.ok(analysis.model);
  return analysis.model;
}

test("the fixture has what the lookups must handle", () => {
  const m = model();
  assert.equal(m.bindings.length, 15);
  assert.ok(
    m.bindings.some((b) => b.step === undefined),
    "a binding of a step that did not normalize",
  );
  assert.ok(
    m.references.some((r) => r.checked && r.binding === undefined),
    "a reference to nothing",
  );
  assert.ok(
    m.references.some((r) => !r.checked),
    "a reference inside a step that did not normalize",
  );
});

test("each step's binding, found in its plan's scope, is the binding the walk recorded", () => {
  const m = model();
  for (const binding of m.bindings) {
    assert.equal(m.bindingAt(binding.stepPath), binding, binding.stepPath.join("/"));
    const scope = m.scopeAt(binding.stepPath);
    assert.deepEqual([scope?.scope.planPath, scope?.cut], [binding.planPath, binding.index]);
  }
  assert.equal(m.bindingAt(["steps", 6]), undefined, "a final binds nothing");
  assert.equal(m.bindingAt(["steps", 2, "plans", 2, "steps", 1]), undefined);
  assert.equal(m.bindingAt(["steps", 9]), undefined, "no such step");
  assert.equal(m.bindingAt(["steps", 2, "plans", 7, "steps", 0]), undefined, "no such branch");
  assert.equal(m.bindingAt([]), undefined);
});

test("each reference's binding by the scope rule is the one the walk recorded, before and after the index", () => {
  const m = model();
  const checked = m.references.filter((r) => r.checked);
  assert.equal(checked.length, 20);
  for (const reference of checked) {
    const where = `${reference.name} at ${reference.path.join("/")}`;
    assert.equal(m.resolve(reference.path, reference.name), reference.binding, where);
    assert.equal(m.bindingOfReference(reference.path, reference.name), reference.binding, where);
  }
  // Past the first few asks the model reads its index of references instead: the same answers.
  for (let i = 0; i < 300; i++) m.bindingOfReference(["steps", 0], "a");
  for (const reference of checked)
    assert.equal(m.bindingOfReference(reference.path, reference.name), reference.binding, reference.path.join("/"));
});
