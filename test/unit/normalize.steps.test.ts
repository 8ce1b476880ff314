// Normalizing plan values into the closed AST: for each operation, each missing field and each
// field of the wrong type gives the reference's reason, at the JSON path of the offending node;
// the first problem is the one the reference reports; collect-all mode reports them all.

import assert from "node:assert/strict";
import { test } from "node:test";
import { normalizePlan } from "@rlm-plan/core/plan/normalize";

/** A problem as the tests spell it: [detail, path]. Phase, kind and target are checked once per problem. */
type Expected = readonly (readonly [string, readonly (string | number)[]])[];

function check(plan: unknown, expected: Expected, collectAll = false): void {
  const result = normalizePlan(plan, { collectAll });
  for (const problem of result.problems) {
    assert.deepEqual([problem.phase, problem.kind, problem.target], ["normalize", "invalid_plan", "value"]);
    assert.equal(problem.detail?.startsWith(`${problem.reason}`), true);
  }
  assert.deepEqual(
    result.problems.map((p) => [p.detail, p.path]),
    expected,
  );
  if (expected.length === 0) assert.notEqual(result.plan, undefined);
  if (expected.length > 0 && !collectAll) assert.equal(result.problems.length, 1);
}

const FINAL = { op: "final", value: 1 };
/** A plan whose first step is `step`, followed by a final step. */
const first = (step: unknown) => ({ steps: [step, FINAL] });
const S0 = ["steps", 0] as const;
const at = (...path: (string | number)[]) => [...S0, ...path];

const VALID: Readonly<Record<string, Record<string, unknown>>> = {
  context: {
    op: "context",
    handle: { ref: "input", name: "doc" },
    action: { type: "search", pattern: "x" },
    bind: "a",
  },
  model: { op: "model", provider: "openrouter", prompt: "hi", options: { temperature: 0 }, bind: "a" },
  rlm: { op: "rlm", plan: { steps: [FINAL] }, bind: "a" },
  tool: { op: "tool", name: "echo", args: [1], bind: "a" },
  parallel: { op: "parallel", plans: [{ steps: [FINAL] }], bind: "a" },
  retry: { op: "retry", attempts: 2, plan: { steps: [FINAL] }, bind: "a" },
  checkpoint: { op: "checkpoint", label: "here" },
  final: { op: "final", value: 1 },
};

const without = (op: string, field: string) => {
  const { [field]: _dropped, ...rest } = VALID[op] as Record<string, unknown>;
  return rest;
};
const withField = (op: string, field: string, value: unknown) => ({ ...VALID[op], [field]: value });

test("every valid step normalizes without problems", () => {
  for (const step of Object.values(VALID)) check(first(step), []);
  check(first(without("model", "options")), []);
});

// Each required field of each operation, removed: missing_field(field), at the step.
const REQUIRED: Readonly<Record<string, readonly string[]>> = {
  context: ["op", "handle", "action", "bind"],
  model: ["op", "provider", "prompt", "bind"],
  rlm: ["op", "plan", "bind"],
  tool: ["op", "name", "args", "bind"],
  parallel: ["op", "plans", "bind"],
  retry: ["op", "attempts", "plan", "bind"],
  checkpoint: ["op", "label"],
  final: ["op", "value"],
};

for (const [op, fields] of Object.entries(REQUIRED)) {
  for (const field of fields) {
    test(`${op} without "${field}": missing_field(${field})`, () => {
      check(first(without(op, field)), [[`missing_field(${field})`, at()]]);
    });
  }
}

// Fields of the wrong type: the reason names the field and the value, at the field's path.
const WRONG_TYPE: readonly (readonly [string, string, unknown, string])[] = [
  ["context", "op", 5, "invalid_text_field(op,5)"],
  ["context", "bind", 1, "invalid_text_field(bind,1)"],
  ["context", "bind", ["h"], 'invalid_text_field(bind,["h"])'],
  ["context", "action", "search", "invalid_context_action(search)"],
  ["context", "action", null, "invalid_context_action(null)"],
  ["model", "provider", 7, "invalid_text_field(provider,7)"],
  ["model", "options", "fast", "invalid_dict(model_options,fast)"],
  ["model", "options", null, "invalid_dict(model_options,null)"],
  ["model", "options", [1], "invalid_dict(model_options,[1])"],
  ["model", "bind", false, "invalid_text_field(bind,false)"],
  ["rlm", "bind", {}, "invalid_text_field(bind,{})"],
  ["tool", "name", 1, "invalid_text_field(name,1)"],
  ["tool", "name", null, "invalid_text_field(name,null)"],
  ["tool", "bind", 2.5, "invalid_text_field(bind,2.5)"],
  ["parallel", "plans", {}, "invalid_list(parallel_plans,{})"],
  ["parallel", "plans", "x", "invalid_list(parallel_plans,x)"],
  ["retry", "attempts", "2", 'invalid_integer_field(attempts,"2")'],
  ["retry", "attempts", 1.5, "invalid_integer_field(attempts,1.5)"],
  ["retry", "attempts", null, "invalid_integer_field(attempts,null)"],
  ["checkpoint", "label", 3, "invalid_checkpoint_label(3)"],
  ["checkpoint", "label", { a: 1 }, 'invalid_checkpoint_label({"a":1})'],
  ["checkpoint", "label", [], "invalid_checkpoint_label([])"],
];

for (const [op, field, value, detail] of WRONG_TYPE) {
  test(`${op} with "${field}": ${JSON.stringify(value)} gives ${detail}`, () => {
    check(first(withField(op, field, value)), [[detail, at(field)]]);
  });
}

// Sub-plans that are not plans: invalid_plan at the sub-plan's path.
const BAD_PLANS: readonly (readonly [string, unknown, Expected])[] = [
  ["rlm plan is a string", withField("rlm", "plan", "x"), [["invalid_plan(x)", at("plan")]]],
  ["rlm plan is a list", withField("rlm", "plan", [FINAL]), [['invalid_plan([{"op":"final","value":1}])', at("plan")]]],
  ["rlm plan without steps", withField("rlm", "plan", {}), [["missing_field(steps)", at("plan")]]],
  [
    "rlm plan steps not a list",
    withField("rlm", "plan", { steps: {} }),
    [["invalid_list(steps,{})", at("plan", "steps")]],
  ],
  ["retry plan is null", withField("retry", "plan", null), [["invalid_plan(null)", at("plan")]]],
  [
    "parallel branch is a number",
    withField("parallel", "plans", [{ steps: [FINAL] }, 1]),
    [["invalid_plan(1)", at("plans", 1)]],
  ],
  [
    "a bad step deep inside a sub-plan",
    withField("rlm", "plan", { steps: [{ op: "eval", code: "x" }, FINAL] }),
    [["unknown_operator(eval)", at("plan", "steps", 0, "op")]],
  ],
];

for (const [name, step, expected] of BAD_PLANS) {
  test(name, () => check(first(step), expected));
}

// Plans and steps that are not objects, and unknown operations.
const PLAN_SHAPES: readonly (readonly [string, unknown, Expected])[] = [
  ["a plan without steps", {}, [["missing_field(steps)", []]]],
  ["steps named in another case", { Steps: [FINAL] }, [["missing_field(steps)", []]]],
  ["steps is an object", { steps: {} }, [["invalid_list(steps,{})", ["steps"]]]],
  ["steps is a string", { steps: "final" }, [["invalid_list(steps,final)", ["steps"]]]],
  ["a plan that is a list", [FINAL], [['invalid_plan([{"op":"final","value":1}])', []]]],
  ["a step that is a string", { steps: ["final"] }, [["invalid_step(final)", at()]]],
  ["a step that is a number", { steps: [3] }, [["invalid_step(3)", at()]]],
  ["a step that is null", { steps: [null] }, [["invalid_step(null)", at()]]],
  ["a step that is a list", { steps: [[FINAL]] }, [['invalid_step([{"op":"final","value":1}])', at()]]],
  ["unknown operator eval", first({ op: "eval", code: "1" }), [["unknown_operator(eval)", at("op")]]],
  ["unknown operator shell", first({ op: "shell" }), [["unknown_operator(shell)", at("op")]]],
  ["operators are case sensitive", first({ op: "FINAL", value: 1 }), [['unknown_operator("FINAL")', at("op")]]],
  ["operators are not trimmed", first({ op: " final", value: 1 }), [['unknown_operator(" final")', at("op")]]],
  [
    "a typo in an operator",
    first({ op: "tol", name: "echo", args: 1, bind: "a" }),
    [["unknown_operator(tol)", at("op")]],
  ],
];

for (const [name, plan, expected] of PLAN_SHAPES) {
  test(name, () => check(plan, expected));
}

// Context actions, selectors and partition strategies.
const ctx = (action: unknown) => first({ ...VALID.context, action });
const A = (...path: (string | number)[]) => at("action", ...path);

const ACTIONS: readonly (readonly [string, unknown, Expected])[] = [
  ["an action without type", ctx({ pattern: "x" }), [["missing_field(type)", A()]]],
  ["an action type that is a number", ctx({ type: 5 }), [["invalid_text_field(type,5)", A("type")]]],
  ["an unknown action", ctx({ type: "grep", pattern: "x" }), [["unknown_context_action(grep)", A("type")]]],
  ["search without pattern", ctx({ type: "search" }), [["missing_field(pattern)", A()]]],
  ["search pattern a number", ctx({ type: "search", pattern: 5 }), [["invalid_search_pattern(5)", A("pattern")]]],
  ["slice without start", ctx({ type: "slice", length: 1 }), [["missing_field(start)", A()]]],
  ["slice without length", ctx({ type: "slice", start: 0 }), [["missing_field(length)", A()]]],
  [
    "slice start a fraction",
    ctx({ type: "slice", start: 0.5, length: 1 }),
    [["invalid_integer_field(start,0.5)", A("start")]],
  ],
  [
    "slice length a string",
    ctx({ type: "slice", start: 0, length: "3" }),
    [['invalid_integer_field(length,"3")', A("length")]],
  ],
  ["peek without selector", ctx({ type: "peek" }), [["missing_field(selector)", A()]]],
  [
    "peek selector an unknown word",
    ctx({ type: "peek", selector: "meta" }),
    [["invalid_selector(meta)", A("selector")]],
  ],
  ["peek selector a number", ctx({ type: "peek", selector: 5 }), [["invalid_selector(5)", A("selector")]]],
  [
    "peek selector without type",
    ctx({ type: "peek", selector: { count: 1 } }),
    [["missing_field(type)", A("selector")]],
  ],
  [
    "peek selector of unknown type",
    ctx({ type: "peek", selector: { type: "middle" } }),
    [["unknown_selector(middle)", A("selector", "type")]],
  ],
  [
    "metadata written as an object is an unknown selector",
    ctx({ type: "peek", selector: { type: "metadata" } }),
    [["unknown_selector(metadata)", A("selector", "type")]],
  ],
  ["head without count", ctx({ type: "peek", selector: { type: "head" } }), [["missing_field(count)", A("selector")]]],
  [
    "tail count a string",
    ctx({ type: "peek", selector: { type: "tail", count: "3" } }),
    [['invalid_integer_field(count,"3")', A("selector", "count")]],
  ],
  ["item without index", ctx({ type: "peek", selector: { type: "item" } }), [["missing_field(index)", A("selector")]]],
  ["partition without strategy", ctx({ type: "partition" }), [["missing_field(strategy)", A()]]],
  [
    "partition strategy a string",
    ctx({ type: "partition", strategy: "lines" }),
    [["invalid_partition_strategy(lines)", A("strategy")]],
  ],
  [
    "partition strategy without size",
    ctx({ type: "partition", strategy: { type: "lines" } }),
    [["missing_field(size)", A("strategy")]],
  ],
  [
    "partition strategy without type",
    ctx({ type: "partition", strategy: { size: 2 } }),
    [["missing_field(type)", A("strategy")]],
  ],
  [
    "partition strategy of unknown type",
    ctx({ type: "partition", strategy: { type: "words", size: 2 } }),
    [["unknown_partition_strategy(words)", A("strategy", "type")]],
  ],
  [
    "partition size a fraction",
    ctx({ type: "partition", strategy: { type: "fixed", size: 2.5 } }),
    [["invalid_integer_field(size,2.5)", A("strategy", "size")]],
  ],
  ["map without transform", ctx({ type: "map" }), [["missing_field(transform)", A()]]],
  ["map transform a number", ctx({ type: "map", transform: 1 }), [["invalid_text_field(transform,1)", A("transform")]]],
  ["reduce without reducer", ctx({ type: "reduce" }), [["missing_field(reducer)", A()]]],
  [
    "reduce reducer an object",
    ctx({ type: "reduce", reducer: { f: "sum" } }),
    [['invalid_text_field(reducer,{"f":"sum"})', A("reducer")]],
  ],
];

for (const [name, plan, expected] of ACTIONS) {
  test(name, () => check(plan, expected));
}

// References inside expressions.
const finalOf = (value: unknown) => ({ steps: [{ op: "final", value }] });
const V = (...path: (string | number)[]) => ["steps", 0, "value", ...path];

const REFERENCES: readonly (readonly [string, unknown, Expected])[] = [
  ["ref not text", finalOf({ ref: 1 }), [["invalid_reference(1)", V("ref")]]],
  [
    "ref null is an unknown reference, as in the reference",
    finalOf({ ref: null }),
    [["unknown_reference(null)", V("ref")]],
  ],
  ["an unknown reference", finalOf({ ref: "call", name: "x" }), [["unknown_reference(call)", V("ref")]]],
  ["an input without name", finalOf({ ref: "input" }), [["missing_field(name)", V()]]],
  ["a var name that is a number", finalOf({ ref: "var", name: 3 }), [["invalid_text_field(name,3)", V("name")]]],
  ["a field without value", finalOf({ ref: "field", key: "k" }), [["missing_field(value)", V()]]],
  ["a field without key", finalOf({ ref: "field", value: {} }), [["missing_field(key)", V()]]],
  [
    "a field key that is a number",
    finalOf({ ref: "field", value: {}, key: 1 }),
    [["invalid_text_field(key,1)", V("key")]],
  ],
  ["a bad reference inside a list", finalOf([1, { ref: "call" }]), [["unknown_reference(call)", V(1, "ref")]]],
  ["a bad reference inside an object", finalOf({ k: { ref: "call" } }), [["unknown_reference(call)", V("k", "ref")]]],
  [
    "a bad reference inside a field's value",
    finalOf({ ref: "field", value: { ref: "eval" }, key: "k" }),
    [["unknown_reference(eval)", V("value", "ref")]],
  ],
];

for (const [name, plan, expected] of REFERENCES) {
  test(name, () => check(plan, expected));
}

// Which problem comes first: the reference's order of checks.
const ORDER: readonly (readonly [string, unknown, Expected])[] = [
  [
    "context missing handle and bind reports handle",
    first({ op: "context", action: VALID.context?.action }),
    [["missing_field(handle)", at()]],
  ],
  ["context missing everything reports handle", first({ op: "context" }), [["missing_field(handle)", at()]]],
  [
    "context: an action problem before a bind problem",
    first({ op: "context", handle: 1, action: { type: "grep" }, bind: 5 }),
    [["unknown_context_action(grep)", A("type")]],
  ],
  [
    "context: a handle problem before an action problem",
    first({ op: "context", handle: { ref: "nope" }, action: "x", bind: "a" }),
    [["unknown_reference(nope)", at("handle", "ref")]],
  ],
  [
    "model: provider before prompt",
    first({ op: "model", provider: 5, bind: "a" }),
    [["invalid_text_field(provider,5)", at("provider")]],
  ],
  [
    "model: prompt before options",
    first({ op: "model", provider: "p", options: "x", bind: "a" }),
    [["missing_field(prompt)", at()]],
  ],
  [
    "model: options before bind",
    first({ op: "model", provider: "p", prompt: "x", options: 1 }),
    [["invalid_dict(model_options,1)", at("options")]],
  ],
  [
    "tool: name before missing bind",
    first({ op: "tool", name: [], args: 1 }),
    [["invalid_text_field(name,[])", at("name")]],
  ],
  ["tool: args before bind", first({ op: "tool", name: "t", bind: 1 }), [["missing_field(args)", at()]]],
  [
    "retry: attempts before plan",
    first({ op: "retry", attempts: "x", bind: "a" }),
    [["invalid_integer_field(attempts,x)", at("attempts")]],
  ],
  [
    "rlm: the sub-plan before the bind",
    first({ op: "rlm", plan: { steps: [{ op: "nope" }] }, bind: 3 }),
    [["unknown_operator(nope)", at("plan", "steps", 0, "op")]],
  ],
  [
    "parallel: branches in order, before the bind",
    first({ op: "parallel", plans: [{ steps: [FINAL] }, {}, 1], bind: 3 }),
    [["missing_field(steps)", at("plans", 1)]],
  ],
  [
    "partition: the type's text before the size",
    ctx({ type: "partition", strategy: { type: 5 } }),
    [["invalid_text_field(type,5)", A("strategy", "type")]],
  ],
  [
    "partition: a missing size before an unknown type",
    ctx({ type: "partition", strategy: { type: "words" } }),
    [["missing_field(size)", A("strategy")]],
  ],
  [
    "slice: start before length",
    ctx({ type: "slice", start: "a", length: "b" }),
    [["invalid_integer_field(start,a)", A("start")]],
  ],
  [
    "field: the value before the key",
    finalOf({ ref: "field", value: { ref: 1 }, key: 2 }),
    [["invalid_reference(1)", V("value", "ref")]],
  ],
  [
    "object expressions: keys in sorted order",
    finalOf({ b: { ref: "second" }, a: { ref: "first" } }),
    [["unknown_reference(first)", V("a", "ref")]],
  ],
  [
    "lists: items in order",
    finalOf([{ ref: "first" }, { ref: "second" }]),
    [["unknown_reference(first)", V(0, "ref")]],
  ],
  [
    "steps in order",
    { steps: [{ op: "tool", name: "t", args: 1 }, { op: "eval" }, FINAL] },
    [["missing_field(bind)", at()]],
  ],
  [
    "the op before anything else",
    first({ op: "eval", handle: { ref: "bad" }, bind: 1 }),
    [["unknown_operator(eval)", at("op")]],
  ],
];

for (const [name, plan, expected] of ORDER) {
  test(`first problem: ${name}`, () => check(plan, expected));
}

// Collect-all mode: every problem, in the order of the walk; the plan keeps what normalized.
const COLLECT_ALL: readonly (readonly [string, unknown, Expected])[] = [
  [
    "every field of one step",
    first({ op: "tool", name: 5, args: { ref: "var" }, bind: null }),
    [
      ["invalid_text_field(name,5)", at("name")],
      ["missing_field(name)", at("args")],
      ["invalid_text_field(bind,null)", at("bind")],
    ],
  ],
  [
    "every field of a context step",
    first({ op: "context", action: { type: "slice", start: "a", length: 1.5 }, bind: 3 }),
    [
      ["missing_field(handle)", at()],
      ["invalid_integer_field(start,a)", A("start")],
      ["invalid_integer_field(length,1.5)", A("length")],
      ["invalid_text_field(bind,3)", at("bind")],
    ],
  ],
  [
    "every step of every plan",
    {
      steps: [
        { op: "eval", bind: "e" },
        { op: "rlm", plan: { steps: [{ op: "tool", name: "t", args: 1 }, { op: "final" }] }, bind: "r" },
        { op: "parallel", plans: [{}, { steps: "x" }], bind: "p" },
        { op: "final", value: [{ ref: "nope" }, { b: { ref: 2 }, a: { ref: 1 } }] },
      ],
    },
    [
      ["unknown_operator(eval)", at("op")],
      ["missing_field(bind)", ["steps", 1, "plan", "steps", 0]],
      ["missing_field(value)", ["steps", 1, "plan", "steps", 1]],
      ["missing_field(steps)", ["steps", 2, "plans", 0]],
      ["invalid_list(steps,x)", ["steps", 2, "plans", 1, "steps"]],
      ["unknown_reference(nope)", ["steps", 3, "value", 0, "ref"]],
      ["invalid_reference(1)", ["steps", 3, "value", 1, "a", "ref"]],
      ["invalid_reference(2)", ["steps", 3, "value", 1, "b", "ref"]],
    ],
  ],
];

for (const [name, plan, expected] of COLLECT_ALL) {
  test(`collect-all: ${name}`, () => check(plan, expected, true));
}

test("collect-all: the plan keeps the steps that normalized, and the names of those that did not", () => {
  const result = normalizePlan(
    {
      steps: [
        { op: "tool", name: "t", args: 1, bind: "good" },
        { op: "eval", bind: "lost" },
        { op: "tool", name: 1, args: 1, bind: "broken" },
        { op: "checkpoint", label: 1 },
        FINAL,
      ],
    },
    { collectAll: true },
  );
  assert.deepEqual(
    result.plan?.steps.map((s) => [s.op, s.path]),
    [
      ["tool", ["steps", 0]],
      ["final", ["steps", 4]],
    ],
  );
  // Steps that did not normalize stay in their plan, as written, for the editor's scopes.
  assert.deepEqual(
    result.plan?.opaque?.map((o) => [o.index, o.path, o.value.bind]),
    [
      [1, ["steps", 1], "lost"],
      [2, ["steps", 2], "broken"],
      [3, ["steps", 3], undefined],
    ],
  );
  assert.deepEqual(
    result.problems.map((p) => p.detail),
    ["unknown_operator(eval)", "invalid_text_field(name,1)", "invalid_checkpoint_label(1)"],
  );
});

test("first-problem mode stops: no plan, and only the first problem", () => {
  const result = normalizePlan({ steps: [{ op: "eval", bind: "x" }, { op: "nope" }] });
  assert.equal(result.plan, undefined);
  assert.deepEqual(
    result.problems.map((p) => p.detail),
    ["unknown_operator(eval)"],
  );
});
