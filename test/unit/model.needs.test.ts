// What a plan asks of its host, asked of the semantic model (`model.needs()`: plan/needs.ts, the
// one planNeeds a run's host factory also gets) and the one walk under it (`planSteps`): names in
// order of first use with the path of that use, nested plans, branches and retries included;
// capabilities as the reference writes them; inputs read as a context handle told apart from
// inputs used as values.

import assert from "node:assert/strict";
import { test } from "node:test";
import { analyzePlanText, type PlanModel } from "@rlm-plan/core";
import { planSteps } from "@rlm-plan/core/plan/walk";
import { type Plan } from "@rlm-plan/core/plan/ast";

const I = (name: string) => ({ ref: "input", name });

function model(value: unknown): PlanModel {
  const analysis = analyzePlanText(JSON.stringify(value, null, 2));
  assert.ok(analysis.model);
  return analysis.model;
}

const PLAN = {
  steps: [
    { op: "model", provider: "local", prompt: [I("question"), I("doc")], bind: "a" },
    {
      op: "parallel",
      plans: [
        {
          steps: [
            { op: "context", handle: I("doc"), action: { type: "search", pattern: "x" }, bind: "hits" },
            { op: "final", value: { ref: "var", name: "hits" } },
          ],
        },
        {
          steps: [
            {
              op: "retry",
              attempts: 2,
              plan: {
                steps: [
                  { op: "tool", name: "Count Items", args: [I("limit"), I("question")], bind: "n" },
                  { op: "final", value: { ref: "var", name: "n" } },
                ],
              },
              bind: "m",
            },
            { op: "final", value: { ref: "var", name: "m" } },
          ],
        },
      ],
      bind: "p",
    },
    {
      op: "rlm",
      plan: {
        steps: [
          { op: "checkpoint", label: "done" },
          { op: "final", value: 1 },
        ],
      },
      bind: "r",
    },
    { op: "model", provider: "local", prompt: "again", bind: "b" },
    { op: "final", value: { ref: "field", value: I("config"), key: "k" } },
  ],
};

test("the model's needs: names in order of first use, each with its path; capabilities; context inputs", () => {
  const needs = model(PLAN).needs();
  assert.deepEqual([...needs.providers], ["local"]);
  assert.deepEqual([...needs.tools], ["Count Items"]);
  assert.deepEqual([...needs.inputs], ["question", "doc", "limit", "config"]);
  assert.deepEqual([...needs.contextInputs], ["doc"]);
  assert.deepEqual(needs.capabilities, [
    "model(local)",
    "parallel",
    "context(search)",
    "retry",
    "tool('Count Items')",
    "rlm",
    "checkpoint",
  ]);
  const paths = (map: ReadonlyMap<string, readonly (string | number)[]>) =>
    Object.fromEntries([...map].map(([name, path]) => [name, path.join("/")]));
  assert.deepEqual(paths(needs.paths.providers), { local: "steps/0/provider" });
  assert.deepEqual(paths(needs.paths.tools), {
    "Count Items": "steps/1/plans/1/steps/0/plan/steps/0/name",
  });
  assert.deepEqual(paths(needs.paths.inputs), {
    question: "steps/0/prompt/0/name",
    doc: "steps/0/prompt/1/name",
    limit: "steps/1/plans/1/steps/0/plan/steps/0/args/0/name",
    config: "steps/4/value/value/name",
  });
});

test("the one walk: every step in source order, a step's plans before its next sibling, with its depth", () => {
  const m = model(PLAN);
  const walked = [...planSteps(m.plan)].map(({ step, depth }) => `${depth} ${step.op} ${step.path.join("/")}`);
  assert.deepEqual(walked, [
    "0 model steps/0",
    "0 parallel steps/1",
    "1 context steps/1/plans/0/steps/0",
    "1 final steps/1/plans/0/steps/1",
    "1 retry steps/1/plans/1/steps/0",
    "2 tool steps/1/plans/1/steps/0/plan/steps/0",
    "2 final steps/1/plans/1/steps/0/plan/steps/1",
    "1 final steps/1/plans/1/steps/1",
    "0 rlm steps/2",
    "1 checkpoint steps/2/plan/steps/0",
    "1 final steps/2/plan/steps/1",
    "0 model steps/3",
    "0 final steps/4",
  ]);
  // The model's walk is the same walk.
  assert.deepEqual(
    [...m.steps()].map(({ path }) => path.join("/")),
    walked.map((line) => line.split(" ")[2]),
  );
});

test("a step's own expressions and the inputs they read, from the model", () => {
  const m = model(PLAN);
  const first = m.plan.steps[0];
  assert.ok(first);
  assert.deepEqual(
    m.expressions(first).map(({ field }) => field),
    ["prompt"],
  );
  assert.deepEqual(
    m.inputsOf(first).map(({ name, asContext }) => [name, asContext]),
    [
      ["question", false],
      ["doc", false],
    ],
  );
  // A parallel step evaluates nothing itself: its branches' expressions are theirs.
  const parallel = m.plan.steps[1];
  assert.ok(parallel);
  assert.deepEqual(m.expressions(parallel), []);
});

test("a plan nested thousands deep is walked without overflowing the stack", () => {
  // Built as the AST directly: the walk, not the parser, is under test.
  let plan: Plan = { steps: [{ op: "final", value: { kind: "literal", value: 1 }, path: [] }], path: [] };
  for (let i = 0; i < 100_000; i++)
    plan = {
      steps: [
        { op: "rlm", plan, bind: "x", path: [] },
        { op: "final", value: { kind: "literal", value: 1 }, path: [] },
      ],
      path: [],
    };
  let count = 0;
  let deepest = 0;
  for (const { depth } of planSteps(plan)) {
    count++;
    deepest = Math.max(deepest, depth);
  }
  assert.equal(count, 200_001);
  assert.equal(deepest, 100_000);
});
