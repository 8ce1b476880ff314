// PlanModel.steps(): the one walk over a plan's normalized steps that the analyses share (context
// handles, silent caps, typed tool arguments): each step with its path, scope and the references
// in its own fields, resolved.

import assert from "node:assert/strict";
import { test } from "node:test";
import { analyzePlanText } from "@rlm-plan/core/analysis";
import type { PlanModel } from "@rlm-plan/core/plan/semanticModel";

const V = (name: string) => ({ ref: "var", name });

function model(value: unknown): PlanModel {
  const analysis = analyzePlanText(JSON.stringify(value, null, 2));
  assert.ok(analysis.model);
  return analysis.model;
}

/** Each step as [path, op, its plan's path, cut, [reference path, name, bound at]...]. */
function walk(m: PlanModel): unknown[] {
  return [...m.steps()].map(({ step, path, scope, references }) => [
    path.join("/"),
    step.op,
    scope?.scope.planPath.join("/"),
    scope?.cut,
    references.map((r) => [r.path.join("/"), r.name, r.binding?.stepPath.join("/") ?? null]),
  ]);
}

test("steps in source order, a step's sub-plans before its next sibling, each with its scope and own references", () => {
  const m = model({
    steps: [
      { op: "tool", name: "t", args: 1, bind: "a" },
      {
        op: "parallel",
        plans: [
          {
            steps: [
              { op: "tool", name: "t", args: V("a"), bind: "b" },
              { op: "final", value: V("b") },
            ],
          },
          { steps: [{ op: "final", value: [V("a"), V("zz")] }] },
        ],
        bind: "p",
      },
      {
        op: "rlm",
        plan: { steps: [{ op: "final", value: { x: V("p") } }] },
        bind: "r",
      },
      { op: "final", value: [V("a"), V("r")] },
    ],
  });
  assert.deepEqual(walk(m), [
    ["steps/0", "tool", "", 0, []],
    ["steps/1", "parallel", "", 1, []],
    ["steps/1/plans/0/steps/0", "tool", "steps/1/plans/0", 0, [["steps/1/plans/0/steps/0/args", "a", "steps/0"]]],
    [
      "steps/1/plans/0/steps/1",
      "final",
      "steps/1/plans/0",
      1,
      [["steps/1/plans/0/steps/1/value", "b", "steps/1/plans/0/steps/0"]],
    ],
    [
      "steps/1/plans/1/steps/0",
      "final",
      "steps/1/plans/1",
      0,
      [
        ["steps/1/plans/1/steps/0/value/0", "a", "steps/0"],
        ["steps/1/plans/1/steps/0/value/1", "zz", null],
      ],
    ],
    ["steps/2", "rlm", "", 2, []],
    ["steps/2/plan/steps/0", "final", "steps/2/plan", 0, [["steps/2/plan/steps/0/value/x", "p", "steps/1"]]],
    [
      "steps/3",
      "final",
      "",
      3,
      [
        ["steps/3/value/0", "a", "steps/0"],
        ["steps/3/value/1", "r", "steps/2"],
      ],
    ],
  ]);
});

test("a step that did not normalize is left out with everything inside it; its neighbours keep their source index", () => {
  const m = model({
    steps: [
      { op: "tool", name: "t", args: 1, bind: "a" },
      { op: "rlm", plan: { steps: [{ op: "final", value: V("a") }] }, bind: 7 },
      { op: "final", value: V("a") },
    ],
  });
  assert.deepEqual(walk(m), [
    ["steps/0", "tool", "", 0, []],
    ["steps/2", "final", "", 2, [["steps/2/value", "a", "steps/0"]]],
  ]);
});
