// Where the editor puts each problem: analyzePlanText maps every problem to a source range of
// the plan file (JSON with comments). Each case is an inline fixture and, for each problem,
// the exact token it must cover, found in the fixture by its surrounding text.

import assert from "node:assert/strict";
import { test } from "node:test";
import { analyzePlanText, type AnalysisPolicy } from "@rlm-plan/core/analysis";

interface Range {
  readonly offset: number;
  readonly length: number;
}

/**
 * The range of `token` inside the `occurrence`-th match of `context` in `text`: the context makes
 * the token unique, e.g. token `"a"` in context `"bind": "a"`, second occurrence.
 */
function rangeIn(text: string, context: string, token = context, occurrence = 1): Range {
  let at = -1;
  for (let i = 0; i < occurrence; i++) {
    at = text.indexOf(context, at + 1);
    assert.notEqual(at, -1, `fixture has ${occurrence} × ${context}`);
  }
  const inner = context.indexOf(token);
  assert.notEqual(inner, -1, `${token} is inside ${context}`);
  return { offset: at + inner, length: token.length };
}

interface Expected {
  /** The reason, or the kind for problems without one (capability_denied, budget_exceeded). */
  readonly problem: string;
  readonly range: Range;
  /** The token the range must cover, as a check on the fixture itself. */
  readonly token: string;
  readonly related?: readonly Range[];
}

function check(text: string, expected: readonly Expected[], policy: AnalysisPolicy = {}): void {
  const analysis = analyzePlanText(text, policy);
  assert.deepEqual(
    analysis.problems.map((p) => ({
      problem: p.reason ?? p.kind,
      range: p.range,
      token: text.slice(p.range.offset, p.range.offset + p.range.length),
      related: p.relatedRanges.map(({ offset, length }) => ({ offset, length })),
    })),
    expected.map((e) => ({ ...e, related: e.related ?? [] })),
  );
}

const UNKNOWN_OP = `{
  // a tool step with a typo in its op
  "steps": [
    {"op": "tol", "name": "echo", "args": 1, "bind": "a"},
    {"op": "final", "value": {"ref": "var", "name": "a"}}
  ]
}`;

test("an unknown op: the op's string token", () => {
  check(UNKNOWN_OP, [{ problem: "unknown_operator", token: '"tol"', range: rangeIn(UNKNOWN_OP, '"tol"') }]);
});

const UNBOUND = `{
  /* "ghost" is never bound */
  "steps": [
    {"op": "tool", "name": "echo", "args": {"ref": "var", "name": "ghost"}, "bind": "a"},
    {"op": "final", "value": [{"ref": "var", "name": "a"}, {"ref": "var", "name": "spook"}]}
  ]
}`;

test("unbound variables: each name's string token", () => {
  check(UNBOUND, [
    { problem: "unbound_variable", token: '"ghost"', range: rangeIn(UNBOUND, '"name": "ghost"', '"ghost"') },
    { problem: "unbound_variable", token: '"spook"', range: rangeIn(UNBOUND, '"spook"') },
  ]);
});

const DUPLICATE_BINDING = `{
  "steps": [
    {"op": "tool", "name": "echo", "args": 1, "bind": "a"},
    {"op": "tool", "name": "echo", "args": 2, /* again */ "bind": "a"},
    {"op": "final", "value": {"ref": "var", "name": "a"}}
  ]
}`;

test("a duplicate binding: the second bind value, related to the first", () => {
  check(DUPLICATE_BINDING, [
    {
      problem: "duplicate_binding",
      token: '"a"',
      range: rangeIn(DUPLICATE_BINDING, '"bind": "a"', '"a"', 2),
      related: [rangeIn(DUPLICATE_BINDING, '"bind": "a"', '"a"', 1)],
    },
  ]);
});

const DUPLICATE_IN_SUBPLAN = `{
  "steps": [
    {"op": "tool", "name": "echo", "args": 1, "bind": "x"},
    {"op": "rlm", "bind": "r", "plan": {"steps": [
      {"op": "tool", "name": "echo", "args": 2, "bind": "x"},
      {"op": "final", "value": 1}
    ]}},
    {"op": "final", "value": {"ref": "var", "name": "r"}}
  ]
}`;

test("a duplicate binding in a sub-plan: related to the enclosing plan's binding", () => {
  check(DUPLICATE_IN_SUBPLAN, [
    {
      problem: "duplicate_binding",
      token: '"x"',
      range: rangeIn(DUPLICATE_IN_SUBPLAN, '"bind": "x"', '"x"', 2),
      related: [rangeIn(DUPLICATE_IN_SUBPLAN, '"bind": "x"', '"x"', 1)],
    },
  ]);
});

const DUPLICATE_KEY = `{
  "steps": [
    {"op": "final", "value": 1, "value": 2}
  ]
}`;

test("a duplicate key: the second key, related to the first", () => {
  check(DUPLICATE_KEY, [
    {
      problem: "invalid_json",
      token: '"value"',
      range: rangeIn(DUPLICATE_KEY, '"value"', '"value"', 2),
      related: [rangeIn(DUPLICATE_KEY, '"value"', '"value"', 1)],
    },
  ]);
});

const SYNTAX_ERROR = `{
  // the comma after "final" is missing
  "steps": [
    {"op": "final" "value": 1}
  ]
}`;

test("a JSON syntax error: the token where the comma belongs", () => {
  check(SYNTAX_ERROR, [{ problem: "invalid_json", token: '"value"', range: rangeIn(SYNTAX_ERROR, '"value"') }]);
});

const UNCLOSED = `{
  "steps": [
    {"op": "final", "value": 1}
  `;

test("an unclosed document: the end of the text", () => {
  const errors = analyzePlanText(UNCLOSED).problems.map((p) => [p.reason, p.range]);
  assert.deepEqual(errors, [
    ["invalid_json", { offset: UNCLOSED.length, length: 0 }],
    ["invalid_json", { offset: UNCLOSED.length, length: 0 }],
  ]);
});

const MISSING_FINAL = `{
  "steps": [
    {"op": "tool", "name": "echo", "args": 1, "bind": "a"},
    {"op": "tool", "name": "echo", "args": 2, "bind": "b"}
  ]
}`;

test("a missing final: the last step's op", () => {
  check(MISSING_FINAL, [
    { problem: "final_must_be_unique_and_last", token: '"tool"', range: rangeIn(MISSING_FINAL, '"tool"', '"tool"', 2) },
  ]);
});

const NESTED_MISSING_FINAL = `{
  "steps": [
    {"op": "rlm", "bind": "r", "plan": {"steps": [{"op": "checkpoint", "label": "inner"}]}},
    {"op": "final", "value": {"ref": "var", "name": "r"}}
  ]
}`;

test("a nested plan without final: its last step's op", () => {
  check(NESTED_MISSING_FINAL, [
    {
      problem: "final_must_be_unique_and_last",
      token: '"checkpoint"',
      range: rangeIn(NESTED_MISSING_FINAL, '"checkpoint"'),
    },
  ]);
});

const EMPTY = `{"steps": [ ]}`;

test("an empty plan: the steps list", () => {
  check(EMPTY, [{ problem: "empty_plan", token: "[ ]", range: rangeIn(EMPTY, "[ ]") }]);
});

const MISSING_FIELD = `{
  "steps": [
    {"op": "context", "handle": 1, "action": {"type": "slice", "start": 0}, "bind": "c"},
    {"op": "final", "value": {"ref": "var", "name": "c"}}
  ]
}`;

test("a missing field: the object that lacks it; the step's name stays bound", () => {
  check(MISSING_FIELD, [
    {
      problem: "missing_field",
      token: '{"type": "slice", "start": 0}',
      range: rangeIn(MISSING_FIELD, '{"type": "slice", "start": 0}'),
    },
  ]);
});

const CAPABILITY = `{
  "description": "café ☕ and 😀 before the problem: offsets count UTF-16 units",
  "steps": [
    {"op": "tool", "name": "Count Items", "args": [], "bind": "n"},
    {"op": "final", "value": {"ref": "var", "name": "n"}}
  ]
}`;

test("a denied capability: the tool's name, after non-ASCII text", () => {
  check(
    CAPABILITY,
    [{ problem: "capability_denied", token: '"Count Items"', range: rangeIn(CAPABILITY, '"Count Items"') }],
    {
      capabilities: ["tool(echo)"],
    },
  );
  check(CAPABILITY, [], {});
});

const OVER_BUDGET = `// leading comment
{"steps": [{"op": "tool", "name": "echo", "args": 1, "bind": "n"}, {"op": "final", "value": 1}]}`;

test("an exceeded budget: the whole plan object; a bad budget field: the start of the file", () => {
  const plan = OVER_BUDGET.slice(OVER_BUDGET.indexOf("{"));
  check(OVER_BUDGET, [{ problem: "budget_exceeded", token: plan, range: rangeIn(OVER_BUDGET, plan) }], {
    budget: { max_tool_calls: 0 },
  });
  check(OVER_BUDGET, [{ problem: "unknown_budget_field", token: "", range: { offset: 0, length: 0 } }], {
    budget: { max_tool_calls: 0, bogus: 1 },
  });
});

const MANY = `{
  "steps": [
    {"op": "tol", "bind": "t"},
    {"op": "tool", "name": "echo", "args": {"ref": "var", "name": "t"}, "bind": "a"},
    {"op": "tool", "name": "echo", "args": {"ref": "var", "name": "nope"}, "bind": "a"},
    {"op": "final", "value": 1, "value": 2}
  ]
}`;

test("every problem of a file at once, each at its token", () => {
  check(MANY, [
    {
      problem: "invalid_json",
      token: '"value"',
      range: rangeIn(MANY, '"value"', '"value"', 2),
      related: [rangeIn(MANY, '"value"', '"value"', 1)],
    },
    { problem: "unknown_operator", token: '"tol"', range: rangeIn(MANY, '"tol"') },
    { problem: "unbound_variable", token: '"nope"', range: rangeIn(MANY, '"nope"') },
    {
      problem: "duplicate_binding",
      token: '"a"',
      range: rangeIn(MANY, '"bind": "a"', '"a"', 2),
      related: [rangeIn(MANY, '"bind": "a"', '"a"', 1)],
    },
  ]);
});
