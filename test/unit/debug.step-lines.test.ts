// Debugger helpers of the runtime: steps by line and the nearest step a breakpoint moves to;
// console expressions (the short name.field form and plan JSON) and breakpoint conditions;
// and the adapter's stepping and hit-condition rules.

import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { conditionHolds, parseCondition, parseDebugExpression } from "@rlm-plan/core/debug/expression";
import { nearestStep, stepLines, type StepLine } from "@rlm-plan/core/debug/stepLines";
import { parsePlan } from "@rlm-plan/core/plan/parse";
import { hitConditionTest, steppingStops } from "@rlm-plan/debug-adapter/stepping";

const PLAN = `// a comment
{
  "steps": [
    { "op": "tool", "name": "t", "args": 1, "bind": "a" },
    {
      "op": "retry",
      "attempts": 2,
      "plan": { "steps": [
        { "op": "tool", "name": "t", "args": 2, "bind": "b" },
        { "op": "final", "value": { "ref": "var", "name": "b" } }
      ] },
      "bind": "c"
    },
    { "op": "final", "value": { "ref": "var", "name": "c" } }
  ]
}
`;

function lines(): StepLine[] {
  const parsed = parsePlan({ kind: "document", text: PLAN });
  assert.ok(parsed.plan && parsed.document);
  return stepLines(parsed.plan, parsed.document);
}

describe("stepLines and nearestStep", () => {
  test("every step with its 0-based lines, column and depth, in source order", () => {
    assert.deepEqual(
      lines().map((s) => [s.path.join("."), s.line, s.endLine, s.column, s.depth]),
      [
        ["steps.0", 3, 3, 4, 0],
        ["steps.1", 4, 12, 4, 0],
        ["steps.1.plan.steps.0", 8, 8, 8, 1],
        ["steps.1.plan.steps.1", 9, 9, 8, 1],
        ["steps.2", 13, 13, 4, 0],
      ],
    );
  });

  test("a breakpoint line moves to the step starting there, else the innermost step around it, else the next, else the last", () => {
    const at = (line: number) => nearestStep(lines(), line)?.path.join(".");
    assert.equal(at(3), "steps.0");
    assert.equal(at(8), "steps.1.plan.steps.0");
    assert.equal(at(6), "steps.1", "inside the retry step, before its plan's steps");
    assert.equal(at(10), "steps.1", "the closing line of the nested plan");
    assert.equal(at(0), "steps.0", "the comment above: the next step");
    assert.equal(at(15), "steps.2", "below the last step");
    assert.equal(nearestStep([], 3), undefined);
  });
});

describe("parseDebugExpression", () => {
  test("the short form reads a variable and its fields", () => {
    assert.deepEqual(parseDebugExpression(" page.body.text "), {
      ok: true,
      expr: {
        kind: "field",
        base: { kind: "field", base: { kind: "var", name: "page", path: [] }, key: "body", path: [] },
        key: "text",
        path: [],
      },
    });
  });

  test("plan JSON goes through the runtime's normalizer", () => {
    const parsed = parseDebugExpression('{"ref": "input", "name": "haystack"}');
    assert.equal(parsed.ok && parsed.expr.kind, "input");
    assert.deepEqual(parseDebugExpression("[1, true]").ok, true);
    assert.deepEqual(parseDebugExpression('{"ref": "nope"}'), {
      ok: false,
      message: 'unknown reference "nope": use input, var or field',
    });
  });

  test("what is neither says how to write it", () => {
    const bad = parseDebugExpression("a[0]");
    assert.equal(bad.ok, false);
    assert.match(!bad.ok ? bad.message : "", /^"a\[0\]" is not a name: use name\.field/);
    assert.deepEqual(parseDebugExpression("  "), {
      ok: false,
      message: "type a variable (hits, page.body) or a plan expression as JSON",
    });
  });
});

describe("breakpoint conditions", () => {
  const holds = (text: string, value: unknown) => {
    const condition = parseCondition(text);
    assert.ok(condition.ok, text);
    return conditionHolds(condition, value as never);
  };

  test("an expression alone holds when its value is not false, null, 0, empty", () => {
    assert.deepEqual(
      [true, 1, "x", [0], { a: 1 }, false, null, 0, "", [], {}].map((v) => holds("x", v)),
      [true, true, true, true, true, false, false, false, false, false, false],
    );
  });

  test("== and != compare JSON values, key order aside", () => {
    assert.equal(holds("x.n == 3", 3), true);
    assert.equal(holds("x.n == 3", 4), false);
    assert.equal(holds('x != "done"', "running"), true);
    assert.equal(holds('x == {"b": 1, "a": [2]}', { a: [2], b: 1 }), true);
  });

  test("a bad right side is located", () => {
    const parsed = parseCondition("x == nope");
    assert.equal(parsed.ok, false);
    assert.match(!parsed.ok ? parsed.message : "", /^after ==: /);
  });
});

describe("stepping rules", () => {
  test("next stays at the level or above, stepOut leaves it, stepIn and pause stop anywhere", () => {
    const table = (["continue", "next", "stepIn", "stepOut", "pause"] as const).map((mode) =>
      [1, 2, 3].map((depth) => steppingStops({ mode, from: 2 }, depth)),
    );
    assert.deepEqual(table, [
      [false, false, false],
      [true, true, false],
      [true, true, true],
      [true, false, false],
      [true, true, true],
    ]);
  });

  test("hit conditions as VS Code writes them", () => {
    const hits = (text: string) => {
      const test = hitConditionTest(text);
      return test ? [1, 2, 3, 4, 5, 6].filter(test) : "invalid";
    };
    assert.deepEqual(hits("3"), [3, 4, 5, 6]);
    assert.deepEqual(hits(">= 3"), [3, 4, 5, 6]);
    assert.deepEqual(hits("> 3"), [4, 5, 6]);
    assert.deepEqual(hits("==3"), [3]);
    assert.deepEqual(hits("< 3"), [1, 2]);
    assert.deepEqual(hits("% 2"), [2, 4, 6]);
    assert.equal(hits("% 0"), "invalid");
    assert.equal(hits("three"), "invalid");
  });
});
