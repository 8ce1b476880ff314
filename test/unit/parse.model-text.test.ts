// Finding and decoding the one JSON object in a model's reply: fences, prose, broken JSON and
// hostile text. Each case is a reply and either the plan it must decode to (compared with the
// same plan handed over as a value) or the exact problems it must produce.

import assert from "node:assert/strict";
import { test } from "node:test";
import { parsePlan } from "@rlm-plan/core/plan/parse";

type Expected = { readonly plan: unknown } | { readonly problems: readonly object[] };

/** Problems without their human-readable messages: everything else is compared exactly. */
function withoutMessages(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(withoutMessages);
  if (typeof value !== "object" || value === null) return value;
  return Object.fromEntries(
    Object.entries(value)
      .filter(([key]) => key !== "message")
      .map(([key, v]) => [key, withoutMessages(v)]),
  );
}

function check(text: string, expected: Expected): void {
  const result = parsePlan({ kind: "model", text });
  if ("plan" in expected) {
    const reference = parsePlan({ kind: "value", value: expected.plan });
    assert.deepEqual(reference.problems, [], "the expected plan is itself valid");
    assert.deepEqual(withoutMessages(result.problems), []);
    assert.deepEqual(result.plan, reference.plan);
  } else {
    assert.equal(result.plan, undefined);
    assert.deepEqual(withoutMessages(result.problems), expected.problems);
  }
}

const finalPlan = (value: unknown) => ({ steps: [{ op: "final", value }] });
const P1 = '{"steps":[{"op":"final","value":1}]}';
const P2 = '{"steps":[{"op":"final","value":2}]}';

const NO_JSON_OBJECT = { phase: "parse", kind: "invalid_plan", reason: "no_json_object", detail: "no_json_object" };

const cases: readonly (readonly [string, string, Expected])[] = [
  ["a plan alone", P1, { plan: finalPlan(1) }],
  ["a plan with surrounding whitespace", `\n\n   ${P1}\t\n`, { plan: finalPlan(1) }],
  ["a plan in a ```json fence", "```json\n" + P1 + "\n```", { plan: finalPlan(1) }],
  [
    "a plan in a ```json fence inside prose",
    "Here you go:\n```json\n" + P1 + "\n```\nGood luck.",
    { plan: finalPlan(1) },
  ],
  ["a plan in a plain ``` fence", "```\n" + P1 + "\n```", { plan: finalPlan(1) }],
  ["a plan in a ```jsonc fence", "```jsonc\n" + P1 + "\n```", { plan: finalPlan(1) }],
  ["a plan after prose", "Here is the plan:\n" + P1, { plan: finalPlan(1) }],
  ["a plan before prose", P1 + "\nThat is all.", { plan: finalPlan(1) }],
  ["a plan between prose", "Plan: " + P1 + " -- done", { plan: finalPlan(1) }],
  ["a pretty-printed plan", JSON.stringify(finalPlan({ a: [1, 2] }), null, 2), { plan: finalPlan({ a: [1, 2] }) }],
  ["two objects: the first wins", P1 + " and also " + P2, { plan: finalPlan(1) }],
  ["two fenced objects: the first wins", "```json\n" + P1 + "\n```\n```json\n" + P2 + "\n```", { plan: finalPlan(1) }],
  [
    "two objects, the first not a plan: the first still wins",
    '{"note": "thinking"} ' + P1,
    {
      problems: [
        {
          phase: "normalize",
          kind: "invalid_plan",
          reason: "missing_field",
          detail: "missing_field(steps)",
          path: [],
          target: "value",
        },
      ],
    },
  ],
  ["braces in prose before the JSON", "Use {curly} braces, like {this one}. " + P1, { plan: finalPlan(1) }],
  ["a non-JSON object in prose before the JSON", "I set {a: 1} first. " + P1, { plan: finalPlan(1) }],
  [
    "braces and quotes inside JSON strings",
    '{"steps":[{"op":"final","value":"} { \\"}\\" {"}]}',
    { plan: finalPlan('} { "}" {') },
  ],
  ["an unbalanced { before the plan", "Here { is the plan: " + P1, { plan: finalPlan(1) }],
  ["an unbalanced { after the plan", P1 + " and then {", { plan: finalPlan(1) }],
  ["a plan object inside a JSON list", "[" + P1 + "]", { plan: finalPlan(1) }],
  ["only an opening brace", "{", { problems: [NO_JSON_OBJECT] }],
  ["empty text", "", { problems: [NO_JSON_OBJECT] }],
  ["whitespace only", " \n\t ", { problems: [NO_JSON_OBJECT] }],
  ["prose without braces", "I cannot make a plan for that.", { problems: [NO_JSON_OBJECT] }],
  ["a list of numbers", "[1,2,3]", { problems: [NO_JSON_OBJECT] }],
  [
    "quotes in prose outside braces do not hide an object",
    'a "quote {"steps":[{"op":"final","value":1}]}',
    { plan: finalPlan(1) },
  ],
  [
    "a missing comma: invalid_json at the token where the comma belongs",
    '{"steps":[{"op":"final" "value":1}]}',
    {
      problems: [
        {
          phase: "parse",
          kind: "invalid_plan",
          reason: "invalid_json",
          detail: 'invalid_json("invalid JSON: comma expected")',
          offset: 24,
          length: 7,
        },
      ],
    },
  ],
  [
    "a missing comma after prose: the offset counts the prose",
    'prose {"steps":[{"op":"final" "value":1}]}',
    {
      problems: [
        {
          phase: "parse",
          kind: "invalid_plan",
          reason: "invalid_json",
          detail: 'invalid_json("invalid JSON: comma expected")',
          offset: 30,
          length: 7,
        },
      ],
    },
  ],
  [
    "a missing comma in a fence: the offset counts the fence",
    '```json\n{"steps":[{"op":"final" "value":1}]}\n```',
    {
      problems: [
        {
          phase: "parse",
          kind: "invalid_plan",
          reason: "invalid_json",
          detail: 'invalid_json("invalid JSON: comma expected")',
          offset: 32,
          length: 7,
        },
      ],
    },
  ],
  [
    "single-quoted keys",
    "{'steps': []}",
    {
      problems: [
        {
          phase: "parse",
          kind: "invalid_plan",
          reason: "invalid_json",
          detail: 'invalid_json("invalid JSON: invalid symbol")',
          offset: 1,
          length: 7,
        },
      ],
    },
  ],
  [
    "a duplicate key: invalid_json(duplicate_key(K)) at the second key, related to the first",
    '{"steps":[{"op":"final","value":1,"value":2}]}',
    {
      problems: [
        {
          phase: "parse",
          kind: "invalid_plan",
          reason: "invalid_json",
          detail: "invalid_json(duplicate_key(value))",
          offset: 34,
          length: 7,
          related: [{ path: ["steps", 0, "value"], target: "key" }],
        },
      ],
    },
  ],
  [
    "a duplicate key spelled with an escape",
    '{"steps":[{"op":"final","value":1,"\\u0076alue":2}]}',
    {
      problems: [
        {
          phase: "parse",
          kind: "invalid_plan",
          reason: "invalid_json",
          detail: "invalid_json(duplicate_key(value))",
          offset: 34,
          length: 12,
          related: [{ path: ["steps", 0, "value"], target: "key" }],
        },
      ],
    },
  ],
  [
    "a duplicate top-level key after prose",
    'Plan: {"steps":[],"steps":[]}',
    {
      problems: [
        {
          phase: "parse",
          kind: "invalid_plan",
          reason: "invalid_json",
          detail: "invalid_json(duplicate_key(steps))",
          offset: 18,
          length: 7,
          related: [{ path: ["steps"], target: "key" }],
        },
      ],
    },
  ],
  [
    "the same key in two different objects is not a duplicate",
    '{"steps":[{"op":"final","value":{"op":1}}],"value":2}',
    { plan: { steps: [{ op: "final", value: { op: 1 } }], value: 2 } },
  ],
  [
    "1e400 overflows: the normalizer reports invalid_number",
    '{"steps":[{"op":"final","value":1e400}]}',
    {
      problems: [
        {
          phase: "normalize",
          kind: "invalid_plan",
          reason: "invalid_number",
          detail: 'invalid_number("Infinity")',
          path: ["steps", 0, "value"],
          target: "value",
        },
      ],
    },
  ],
  [
    "-1e400 inside a list",
    '{"steps":[{"op":"final","value":[0,-1e400]}]}',
    {
      problems: [
        {
          phase: "normalize",
          kind: "invalid_plan",
          reason: "invalid_number",
          detail: 'invalid_number("-Infinity")',
          path: ["steps", 0, "value", 1],
          target: "value",
        },
      ],
    },
  ],
];

for (const [name, text, expected] of cases) {
  test(name, () => check(text, expected));
}

// Hostile replies: each must come back quickly with a structured answer.

test("100,000 opening braces: no_json_object", () => {
  check("{".repeat(100_000), { problems: [NO_JSON_OBJECT] });
});

test("100,000 balanced braces: too_deep at the brace past the nesting limit", () => {
  check("{".repeat(100_000) + "}".repeat(100_000), {
    problems: [
      {
        phase: "parse",
        kind: "invalid_plan",
        reason: "too_deep",
        detail: "too_deep",
        offset: 1000,
        length: 1,
      },
    ],
  });
});

test("a 5 MB reply of prose before the plan", () => {
  check("x".repeat(5 * 1024 * 1024) + "\n" + P1, { plan: finalPlan(1) });
});

test("a 5 MB reply that is one plan with a 5 MB string", () => {
  const big = "a".repeat(5 * 1024 * 1024);
  check(JSON.stringify(finalPlan(big)), { plan: finalPlan(big) });
});

// The final value's lists open at offset 32; the root object, "steps" and the step are levels 1-3,
// so the 1001st level (one more than MAX_JSON_DEPTH) is the 998th list, at 32 + 997.
const DEEP_PREFIX = '{"steps":[{"op":"final","value":';
const TOO_DEEP_AT_1029 = {
  problems: [{ phase: "parse", kind: "invalid_plan", reason: "too_deep", detail: "too_deep", offset: 1029, length: 1 }],
};

test("10,000 nested lists: too_deep at the 1001st level, no crash", () => {
  check(DEEP_PREFIX + "[".repeat(10_000) + "]".repeat(10_000) + "}]}", TOO_DEEP_AT_1029);
});

test("10,000 nested objects after prose: too_deep, offset counts the prose", () => {
  const text = "Plan: " + '{"a":'.repeat(10_000) + "1" + "}".repeat(10_000);
  check(text, {
    problems: [
      { phase: "parse", kind: "invalid_plan", reason: "too_deep", detail: "too_deep", offset: 6 + 5 * 1000, length: 1 },
    ],
  });
});

test("exactly 1000 levels of JSON is accepted", () => {
  const result = parsePlan({ kind: "model", text: DEEP_PREFIX + "[".repeat(997) + "]".repeat(997) + "}]}" });
  assert.deepEqual(result.problems, []);
  // Walked by hand: deepStrictEqual itself recurses too deep for a 997-level AST.
  const final = result.plan?.steps[0];
  assert.equal(final?.op, "final");
  let expr = final.op === "final" ? final.value : undefined;
  let levels = 0;
  while (expr?.kind === "list") {
    levels++;
    if (expr.items.length === 0) break;
    assert.equal(expr.items.length, 1);
    expr = expr.items[0];
  }
  assert.equal(levels, 997);
  assert.deepEqual(expr, { kind: "list", items: [] });
});

test("1001 levels of JSON is too_deep", () => {
  check(DEEP_PREFIX + "[".repeat(998) + "]".repeat(998) + "}]}", TOO_DEEP_AT_1029);
});

// Model text is decoded as JSON and nothing else.

const probe = globalThis as { rlmPlanEvaluated?: unknown };

test("code in a reply is never run: a ```js fence is skipped, strings stay strings", () => {
  delete probe.rlmPlanEvaluated;
  const reply =
    "```js\nglobalThis.rlmPlanEvaluated = 1;\n```\n" +
    '{"steps":[{"op":"final","value":"globalThis.rlmPlanEvaluated = 2"}]}';
  check(reply, { plan: finalPlan("globalThis.rlmPlanEvaluated = 2") });
  assert.equal(probe.rlmPlanEvaluated, undefined);
});

test("code in place of a JSON value is invalid_json and is never run", () => {
  delete probe.rlmPlanEvaluated;
  const result = parsePlan({
    kind: "model",
    text: '{"steps":[{"op":"final","value":(function(){globalThis.rlmPlanEvaluated=3})()}]}',
  });
  assert.equal(result.plan, undefined);
  assert.deepEqual(
    result.problems.map((p) => [p.phase, p.kind, p.reason]),
    [["parse", "invalid_plan", "invalid_json"]],
  );
  assert.equal(probe.rlmPlanEvaluated, undefined);
});

test("an unexpected token: the offset points at the token, not at the end of the text", () => {
  const text = '{"steps":[{"op":"final","value":(1)}]}';
  const [problem] = parsePlan({ kind: "model", text }).problems;
  assert.deepEqual([problem?.reason, problem?.offset, problem?.length], ["invalid_json", 32, 3]);
  assert.equal(text.slice(32, 35), "(1)");
});

test("a reply cut off in the middle is invalid_json, not a problem of an inner object", () => {
  const result = parsePlan({ kind: "model", text: '{"steps":[{"op":"final","value":1}' });
  assert.deepEqual(
    result.problems.map((p) => [p.phase, p.kind, p.reason]),
    [["parse", "invalid_plan", "invalid_json"]],
  );
});
