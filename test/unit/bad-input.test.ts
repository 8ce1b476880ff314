// The runtime's guarantees on hostile or broken input: names that are special to JavaScript
// objects behave as any other name and pollute nothing; names that are not text, values that
// are not JSON, cycles, huge and deeply nested plans all give structured problems with the exact
// reason, never an exception or a stack overflow.

import assert from "node:assert/strict";
import { test } from "node:test";
import { analyzePlanText } from "@rlm-plan/core/analysis";
import { parsePlan, type PlanSource } from "@rlm-plan/core/plan/parse";
import { checkPlan, type PolicyOptions } from "@rlm-plan/core/run/pipeline";
import { runPlan } from "@rlm-plan/core/run/startRun";
import type { RunHost } from "@rlm-plan/core/run/host";

const PROTOTYPE_KEYS = Object.getOwnPropertyNames(Object.prototype).sort();

const SPECIAL = ["__proto__", "constructor", "prototype", "toString", "hasOwnProperty"] as const;
type Special = (typeof SPECIAL)[number];
/** How a name is written as an argument of a reason or a capability (`'__proto__'` needs quotes). */
// (Written with a computed key: a literal `__proto__:` would set the prototype instead.)
const DETAIL_ARG: Readonly<Record<Special, string>> = {
  ["__proto__"]: '"__proto__"',
  constructor: "constructor",
  prototype: "prototype",
  toString: "toString",
  hasOwnProperty: "hasOwnProperty",
};
const ATOM: Readonly<Record<Special, string>> = { ...DETAIL_ARG, ["__proto__"]: "'__proto__'" };

const ALL = ["tool(echo)", "rlm", "parallel", "retry", "checkpoint", "context(search)", "model(openrouter)"];

/** Everything a structured error says except its message. */
function withoutMessage(error: object): object {
  const { message: _message, ...rest } = error as { message?: unknown };
  return rest;
}

/** Parse and validate, first problem only, as a host does: "valid" or the error minus its message. */
function check(source: PlanSource, expected: "valid" | object, policy: PolicyOptions = { capabilities: ALL }): void {
  const result = checkPlan(source, policy);
  assert.deepEqual(result.ok ? "valid" : withoutMessage(result.error), expected);
}

const value = (plan: unknown): PlanSource => ({ kind: "value", value: plan });
const model = (text: string): PlanSource => ({ kind: "model", text });
/** A plan value built from JSON text, so "__proto__" keys are own keys, as from a real host. */
const json = (text: string): PlanSource => ({ kind: "value", value: JSON.parse(text) });

const normalizeError = (detail: string, path: readonly (string | number)[]) => ({
  phase: "normalize",
  kind: "invalid_plan",
  detail,
  reason: detail.replace(/\(.*$/s, ""),
  path,
});
const validateError = (detail: string, path: readonly (string | number)[]) => ({
  ...normalizeError(detail, path),
  phase: "validate",
});

/** An object with exactly these own properties and no prototype ("__proto__" stays a key). */
function bare(entries: readonly (readonly [string, unknown])[]): object {
  const object = Object.create(null) as object;
  for (const [key, v] of entries)
    Object.defineProperty(object, key, { value: v, enumerable: true, writable: true, configurable: true });
  return object;
}

/** Own enumerable keys and values only, every object rebuilt without a prototype: what JSON sees. */
function canonical(v: unknown): unknown {
  if (Array.isArray(v)) return v.map(canonical);
  if (typeof v !== "object" || v === null) return v;
  return bare(Object.keys(v).map((key) => [key, canonical((v as Record<string, unknown>)[key])]));
}

const echoHost = (extra: Partial<RunHost> = {}): RunHost => ({
  tools: new Map([["echo", (args) => args]]),
  inputs: JSON.parse('{"x": {"a": 1}}'),
  ...extra,
});

/** Runs the plan and compares the whole outcome except timings and messages. */
async function checkRun(source: PlanSource, policy: PolicyOptions, host: RunHost, expected: object): Promise<void> {
  const outcome = await runPlan(source, policy, host);
  const comparable = {
    ...outcome,
    transitions: outcome.transitions.map(({ elapsed_ms: _e, duration_ms: _d, remaining: _r, ...t }) => t),
    ...(outcome.ok ? {} : { error: withoutMessage(outcome.error) }),
  };
  assert.deepEqual(canonical(comparable), canonical(expected));
}

const steps = (...list: unknown[]) => ({ steps: list });
const V = (name: unknown) => ({ ref: "var", name });
const final = (v: unknown = 1) => ({ op: "final", value: v });

// Names special to JavaScript objects, in every place a plan names something.
for (const name of SPECIAL) {
  const arg = DETAIL_ARG[name];
  const quotedKey = JSON.stringify(name);

  test(`${name} as a binding name: bound, read back, returned`, async () => {
    const plan = steps({ op: "tool", name: "echo", args: { ref: "input", name: "x" }, bind: name }, final(V(name)));
    check(value(plan), "valid");
    await checkRun(value(plan), { capabilities: ["tool(echo)"] }, echoHost(), {
      ok: true,
      value: { a: 1 },
      vars: bare([[name, { a: 1 }]]),
      transitions: [
        { sequence: 1, operation: "tool(echo)", bind: name, status: "ok" },
        { sequence: 2, operation: "final", bind: null, status: "ok" },
      ],
      checkpoints: [],
      budget_remaining: { steps: 62, model_calls: 8, tool_calls: 15, context_ops: 32, output_bytes: 65536 - 7 - 7 },
    });
  });

  test(`${name} bound twice: duplicate_binding(${arg})`, () => {
    const tool = { op: "tool", name: "echo", args: 1, bind: name };
    check(value(steps(tool, tool, final())), validateError(`duplicate_binding(${arg})`, ["steps", 1, "bind"]));
  });

  test(`${name} as a variable never bound: unbound_variable(${arg})`, () => {
    check(value(steps(final(V(name)))), validateError(`unbound_variable(${arg})`, ["steps", 0, "value", "name"]));
    check(
      model(`{"steps":[{"op":"final","value":{"ref":"var","name":${quotedKey}}}]}`),
      validateError(`unbound_variable(${arg})`, ["steps", 0, "value", "name"]),
    );
  });

  test(`${name} as an input name: present or missing_input, never inherited`, async () => {
    const plan = value(steps(final({ ref: "input", name })));
    await checkRun(
      plan,
      { capabilities: [] },
      { inputs: JSON.parse(`{${quotedKey}: "v"}`) },
      {
        ok: true,
        value: "v",
        vars: bare([]),
        transitions: [{ sequence: 1, operation: "final", bind: null, status: "ok" }],
        checkpoints: [],
        budget_remaining: { steps: 63, model_calls: 8, tool_calls: 16, context_ops: 32, output_bytes: 65536 - 3 },
      },
    );
    await checkRun(
      plan,
      { capabilities: [] },
      { inputs: {} },
      {
        ok: false,
        error: { phase: "execute", kind: "missing_input", input: name, path: ["steps", 0] },
        transitions: [],
        checkpoints: [],
        budget_remaining: { steps: 63, model_calls: 8, tool_calls: 16, context_ops: 32, output_bytes: 65536 },
      },
    );
  });

  test(`${name} as an object-literal key: an own key of the value, the prototype untouched`, async () => {
    const plan = json(
      `{"steps":[{"op":"final","value":{${quotedKey}: {"ref":"input","name":"x"}, "polluted": true}}]}`,
    );
    await checkRun(plan, { capabilities: [] }, echoHost(), {
      ok: true,
      value: bare([
        [name, { a: 1 }],
        ["polluted", true],
      ]),
      vars: bare([]),
      transitions: [{ sequence: 1, operation: "final", bind: null, status: "ok" }],
      checkpoints: [],
      budget_remaining: {
        steps: 63,
        model_calls: 8,
        tool_calls: 16,
        context_ops: 32,
        output_bytes: 65536 - `{${quotedKey}:{"a":1},"polluted":true}`.length,
      },
    });
  });

  test(`${name} as a field key: an own field or missing_field`, async () => {
    const plan = value(steps(final({ ref: "field", value: { ref: "input", name: "obj" }, key: name })));
    const run = (inputs: unknown) => runPlan(plan, { capabilities: [] }, { inputs });
    const found = await run(JSON.parse(`{"obj": {${quotedKey}: 7}}`));
    assert.deepEqual([found.ok, found.ok && found.value], [true, 7]);
    const missing = await run({ obj: {} });
    assert.deepEqual(missing.ok ? undefined : withoutMessage(missing.error), {
      phase: "execute",
      kind: "missing_field",
      field: name,
      path: ["steps", 0],
    });
  });

  test(`${name} as a tool name: capability tool(${ATOM[name]}), registered or not`, async () => {
    const plan = value(steps({ op: "tool", name, args: 2, bind: "a" }, final(V("a"))));
    check(plan, {
      phase: "validate",
      kind: "capability_denied",
      capability: `tool(${ATOM[name]})`,
      path: ["steps", 0, "name"],
    });
    const granted = { capabilities: [`tool(${ATOM[name]})`] };
    check(plan, "valid", granted);
    const unregistered = await runPlan(plan, granted, echoHost());
    assert.deepEqual(unregistered.ok ? undefined : withoutMessage(unregistered.error), {
      phase: "preflight",
      kind: "unknown_tool",
      value: name,
      path: ["steps", 0, "name"],
    });
    const registered = await runPlan(plan, granted, { tools: new Map([[name, (args) => [args]]]) });
    assert.deepEqual([registered.ok, registered.ok && registered.value], [true, [2]]);
  });

  test(`${name} as a provider name: capability model(${ATOM[name]}), then preflight`, async () => {
    const plan = value(steps({ op: "model", provider: name, prompt: "p", bind: "m" }, final(V("m"))));
    check(plan, {
      phase: "validate",
      kind: "capability_denied",
      capability: `model(${ATOM[name]})`,
      path: ["steps", 0, "provider"],
    });
    const outcome = await runPlan(plan, { capabilities: [`model(${ATOM[name]})`] }, {});
    assert.deepEqual(outcome.ok ? undefined : withoutMessage(outcome.error), {
      phase: "preflight",
      kind: "unknown_provider",
      value: name,
      path: ["steps", 0, "provider"],
    });
  });

  test(`${name} as an op, action, selector, reference, transform, reducer or budget field: unknown`, () => {
    const ctx = (action: unknown) => steps({ op: "context", handle: 1, action, bind: "c" }, final());
    check(value(steps({ op: name })), normalizeError(`unknown_operator(${arg})`, ["steps", 0, "op"]));
    check(value(ctx({ type: name })), normalizeError(`unknown_context_action(${arg})`, ["steps", 0, "action", "type"]));
    check(
      value(ctx({ type: "peek", selector: { type: name } })),
      normalizeError(`unknown_selector(${arg})`, ["steps", 0, "action", "selector", "type"]),
    );
    check(
      value(steps(final({ ref: name }))),
      normalizeError(`unknown_reference(${arg})`, ["steps", 0, "value", "ref"]),
    );
    check(
      value(ctx({ type: "map", transform: name })),
      validateError(`invalid_map_transform(${arg})`, ["steps", 0, "action", "transform"]),
      {
        capabilities: ["context(map)"],
      },
    );
    check(
      value(ctx({ type: "reduce", reducer: name })),
      validateError(`invalid_reducer(${arg})`, ["steps", 0, "action", "reducer"]),
      {
        capabilities: ["context(reduce)"],
      },
    );
    const budget = JSON.parse(`{${quotedKey}: 1}`);
    check(
      value(steps(final())),
      {
        phase: "validate",
        kind: "invalid_plan",
        detail: `unknown_budget_field(${arg})`,
        reason: "unknown_budget_field",
        field: name,
      },
      { capabilities: [], budget },
    );
  });

  test(`${name} as a JSON key in plan text: ignored (and warned about) like any other unknown key`, () => {
    const text = `{"steps":[{"op":"final","value":1,${quotedKey}:{"op":"tool"}}],${quotedKey}:{"steps":[],"polluted":true}}`;
    check(model(text), "valid");
    check(model("```json\n" + text + "\n```"), "valid");
    assert.deepEqual(parsePlan({ kind: "document", text }).problems, []);
    // The editor warns about the keys, as about any key the runtime ignores; nothing else.
    assert.deepEqual(
      analyzePlanText(text).problems.map((p) => [p.kind, p.severity, p.path]),
      [
        ["unknown_key", "warning", [name]],
        ["unknown_key", "warning", ["steps", 0, name]],
      ],
    );
  });

  test(`${name} as a capability: grants nothing else`, () => {
    check(
      value(steps({ op: "tool", name: "echo", args: 1, bind: "a" }, final())),
      {
        phase: "validate",
        kind: "capability_denied",
        capability: "tool(echo)",
        path: ["steps", 0, "name"],
      },
      { capabilities: [name, `tool(${name}`, `${name}(echo)`] },
    );
  });
}

test('a plan value {"__proto__": {"steps": ...}} is not a plan', () => {
  const inner = '{"steps":[{"op":"final","value":1}]}';
  check(json(`{"__proto__": ${inner}}`), normalizeError("missing_field(steps)", []));
  check(model(`{"__proto__": ${inner}}`), normalizeError("missing_field(steps)", []));
  // Written as a JavaScript literal, "__proto__" sets the prototype: not a plain object.
  check(value({ __proto__: JSON.parse(inner) }), { phase: "parse", kind: "unsupported_input", value_shape: "object" });
});

test("a plan value without a prototype is a plan like any other", () => {
  const plan = Object.assign(Object.create(null) as object, {
    steps: [Object.assign(Object.create(null) as object, final())],
  });
  check(value(plan), "valid");
});

// Names that are not text.
const NOT_TEXT: readonly (readonly [string, unknown, string, readonly (string | number)[]])[] = [
  [
    "a number as a binding",
    steps({ op: "tool", name: "echo", args: 1, bind: 5 }, final()),
    "invalid_text_field(bind,5)",
    ["steps", 0, "bind"],
  ],
  [
    "null as a binding",
    steps({ op: "tool", name: "echo", args: 1, bind: null }, final()),
    "invalid_text_field(bind,null)",
    ["steps", 0, "bind"],
  ],
  [
    "an object as a binding",
    steps({ op: "tool", name: "echo", args: 1, bind: { n: 1 } }, final()),
    'invalid_text_field(bind,{"n":1})',
    ["steps", 0, "bind"],
  ],
  [
    "a list as a binding",
    steps({ op: "rlm", plan: steps(final()), bind: ["r"] }, final()),
    'invalid_text_field(bind,["r"])',
    ["steps", 0, "bind"],
  ],
  ["a number as a variable name", steps(final(V(1))), "invalid_text_field(name,1)", ["steps", 0, "value", "name"]],
  ["null as a variable name", steps(final(V(null))), "invalid_text_field(name,null)", ["steps", 0, "value", "name"]],
  ["an object as a variable name", steps(final(V({}))), "invalid_text_field(name,{})", ["steps", 0, "value", "name"]],
  [
    "a list as an input name",
    steps(final({ ref: "input", name: [1] })),
    "invalid_text_field(name,[1])",
    ["steps", 0, "value", "name"],
  ],
  [
    "a number as a tool name",
    steps({ op: "tool", name: 0, args: 1, bind: "a" }, final()),
    "invalid_text_field(name,0)",
    ["steps", 0, "name"],
  ],
  [
    "null as a tool name",
    steps({ op: "tool", name: null, args: 1, bind: "a" }, final()),
    "invalid_text_field(name,null)",
    ["steps", 0, "name"],
  ],
  [
    "an object as a provider",
    steps({ op: "model", provider: { a: 1 }, prompt: "p", bind: "m" }, final()),
    'invalid_text_field(provider,{"a":1})',
    ["steps", 0, "provider"],
  ],
  [
    "null as a field key",
    steps(final({ ref: "field", value: {}, key: null })),
    "invalid_text_field(key,null)",
    ["steps", 0, "value", "key"],
  ],
  ["a number as an op", steps({ op: 1 }), "invalid_text_field(op,1)", ["steps", 0, "op"]],
  ["a number as a ref", steps(final({ ref: 2 })), "invalid_reference(2)", ["steps", 0, "value", "ref"]],
];

for (const [name, plan, detail, path] of NOT_TEXT) {
  test(`${name}: ${detail}`, () => check(value(plan), normalizeError(detail, path)));
}

// Values a host may hold that are not JSON.
const cycleObject = (): unknown => {
  const plan: { steps: unknown[] } = { steps: [] };
  plan.steps.push({ op: "final", value: plan });
  return plan;
};
const cycleList = (): unknown => {
  const list: unknown[] = [];
  list.push(list);
  return steps(list);
};
const cycleBinding = (): unknown => {
  const name: { self?: unknown } = {};
  name.self = name;
  return steps({ op: "tool", name: "echo", args: 1, bind: name }, final());
};
const cycleRlm = (): unknown => {
  const plan: { steps: unknown[] } = { steps: [] };
  plan.steps.push({ op: "rlm", plan, bind: "r" });
  return plan;
};
const repeat = <T>(n: number, items: readonly T[]): T[] => Array.from({ length: n }, () => items).flat();

const NOT_JSON: readonly (readonly [string, () => unknown, object])[] = [
  ["NaN", () => steps(final(NaN)), normalizeError('invalid_number("NaN")', ["steps", 0, "value"])],
  [
    "Infinity",
    () => steps(final({ a: Infinity })),
    normalizeError('invalid_number("Infinity")', ["steps", 0, "value", "a"]),
  ],
  [
    "-Infinity in a list",
    () => steps(final([1, -Infinity])),
    normalizeError('invalid_number("-Infinity")', ["steps", 0, "value", 1]),
  ],
  [
    "NaN as retry attempts",
    () => steps({ op: "retry", attempts: NaN, plan: steps(final()), bind: "r" }, final()),
    normalizeError("invalid_integer_field(attempts,nan)", ["steps", 0, "attempts"]),
  ],
  [
    "undefined as a field value: the field is missing",
    () => steps({ op: "final", value: undefined }),
    normalizeError("missing_field(value)", ["steps", 0]),
  ],
  [
    "undefined inside a list",
    () => steps(final([1, undefined])),
    normalizeError("invalid_value(undefined)", ["steps", 0, "value", 1]),
  ],
  ["undefined as a step", () => steps(undefined), normalizeError("invalid_step(_)", ["steps", 0])],
  [
    "a function as a value",
    () => steps(final(() => 1)),
    normalizeError("invalid_value(function)", ["steps", 0, "value"]),
  ],
  ["a function as a step", () => steps(() => final()), normalizeError("invalid_step(_)", ["steps", 0])],
  [
    "a function as a binding",
    () => steps({ op: "tool", name: "echo", args: 1, bind: () => "a" }, final()),
    normalizeError("invalid_text_field(bind,_)", ["steps", 0, "bind"]),
  ],
  [
    "a Date as a value",
    () => steps(final(new Date(0))),
    normalizeError('invalid_value("a non-JSON object")', ["steps", 0, "value"]),
  ],
  [
    "a Date as a step",
    () => steps(new Date(0)),
    normalizeError('invalid_step("1970-01-01T00:00:00.000Z")', ["steps", 0]),
  ],
  [
    "a Map as a value",
    () => steps(final(new Map([["a", 1]]))),
    normalizeError('invalid_value("a non-JSON object")', ["steps", 0, "value"]),
  ],
  ["a Map as the steps", () => ({ steps: new Map() }), normalizeError("invalid_list(steps,{})", ["steps"])],
  [
    "a class instance as a step",
    () =>
      steps(
        new (class Step {
          op = "final";
          value = 1;
        })(),
      ),
    normalizeError('invalid_step({"op":"final","value":1})', ["steps", 0]),
  ],
  ["a BigInt as a value", () => steps(final(10n)), normalizeError("invalid_value(bigint)", ["steps", 0, "value"])],
  [
    "a Symbol as a value",
    () => steps(final(Symbol("s"))),
    normalizeError("invalid_value(symbol)", ["steps", 0, "value"]),
  ],
  ["a plan that is a Date", () => new Date(0), { phase: "parse", kind: "unsupported_input", value_shape: "object" }],
  ["a plan that is a Map", () => new Map(), { phase: "parse", kind: "unsupported_input", value_shape: "object" }],
  ["a plan that is a list", () => [final()], { phase: "parse", kind: "unsupported_input", value_shape: "list" }],
  ["a plan that is null", () => null, { phase: "parse", kind: "unsupported_input", value_shape: "null" }],
  [
    "a plan that is undefined",
    () => undefined,
    { phase: "parse", kind: "unsupported_input", value_shape: "undefined" },
  ],
  ["a plan that is a number", () => 5, { phase: "parse", kind: "unsupported_input", value_shape: "number" }],
  [
    "a plan that is a function",
    () => () => steps(final()),
    { phase: "parse", kind: "unsupported_input", value_shape: "function" },
  ],
  ["a cycle through a list", cycleList, normalizeError("invalid_step(_)", ["steps", 0])],
  ["a cycle through a binding", cycleBinding, normalizeError("invalid_text_field(bind,_)", ["steps", 0, "bind"])],
  [
    "a plan that contains itself as a value: too_deep",
    cycleObject,
    normalizeError("too_deep", ["steps", 0, "value", ...repeat(332, ["steps", 0, "value"]), "steps", 0, "op"]),
  ],
  [
    "a plan that contains itself as a sub-plan: too_deep",
    cycleRlm,
    normalizeError("too_deep", [...repeat(500, ["steps", 0, "plan"]), "steps", 0]),
  ],
];

for (const [name, make, expected] of NOT_JSON) {
  test(`not JSON: ${name}`, () => check(value(make()), expected));
}

test("not JSON: a hole in a list is reported like undefined, not skipped", () => {
  // eslint-disable-next-line no-sparse-arrays
  check(value(steps(final([1, , 2]))), normalizeError("invalid_value(undefined)", ["steps", 0, "value", 1]));
});

test("not JSON: a hole among parallel branches is reported like undefined, not skipped", () => {
  check(
    // eslint-disable-next-line no-sparse-arrays
    value(steps({ op: "parallel", plans: [, steps(final())], bind: "p" }, final())),
    normalizeError("invalid_plan(_)", ["steps", 0, "plans", 0]),
  );
});

// Huge and deep plans.
test("100,000 steps validate, with the exact estimate", () => {
  const many = steps(...Array.from({ length: 99_999 }, (_, i) => ({ op: "checkpoint", label: `c${i}` })), final());
  check(value(many), {
    phase: "validate",
    kind: "budget_exceeded",
    budget: "steps",
    estimated: 100_000,
    limit: 64,
    field: "max_steps",
    path: [],
  });
  const result = checkPlan(value(many), { capabilities: ["checkpoint"], budget: { max_steps: 100_000 } });
  assert.deepEqual(result.ok && result.validated.estimate, {
    steps: 100_000,
    depth: 1,
    parallel_width: 0,
    model_calls: 0,
    tool_calls: 0,
    context_ops: 0,
  });
});

test("100,000 bindings in one scope, the last one duplicated", () => {
  const tools = Array.from({ length: 99_999 }, (_, i) => ({ op: "tool", name: "echo", args: i, bind: `x${i}` }));
  const budget = { max_steps: 100_001, max_tool_calls: 100_000 };
  check(value(steps(...tools, final(V("x99998")))), "valid", { capabilities: ["tool(echo)"], budget });
  check(
    value(steps(...tools, { op: "tool", name: "echo", args: 0, bind: "x0" }, final())),
    validateError("duplicate_binding(x0)", ["steps", 99_999, "bind"]),
    {
      capabilities: ["tool(echo)"],
      budget,
    },
  );
});

test("100,000 steps as model text, and a 100,000-item literal", () => {
  const text = JSON.stringify(
    steps(
      ...Array.from({ length: 99_999 }, () => ({ op: "checkpoint", label: "c" })),
      final(Array.from({ length: 100_000 }, (_, i) => i)),
    ),
  );
  check(model(text), "valid", { capabilities: ["checkpoint"], budget: { max_steps: 100_000 } });
});

test("collect-all over 100,000 broken steps lists every problem", () => {
  const result = parsePlan(value(steps(...repeat(100_000, [{ op: "nope" }]))), { collectAll: true });
  assert.equal(result.problems.length, 100_000);
  assert.deepEqual(result.problems[99_999]?.path, ["steps", 99_999, "op"]);
  assert.deepEqual(new Set(result.problems.map((p) => p.detail)), new Set(["unknown_operator(nope)"]));
});

/** `levels` rlm steps, each wrapping the next plan; the innermost plan returns 1. */
function nestedRlm(levels: number): unknown {
  let plan: unknown = steps(final(1));
  for (let i = 0; i < levels; i++) plan = steps({ op: "rlm", plan, bind: "r" }, final(V("r")));
  return plan;
}

/** The same plan as JSON text, built as text: JSON.stringify would recurse 30,000 levels. */
function nestedRlmText(levels: number): string {
  return (
    '{"steps":[{"op":"rlm","plan":'.repeat(levels) +
    '{"steps":[{"op":"final","value":1}]}' +
    ',"bind":"r"},{"op":"final","value":{"ref":"var","name":"r"}}]}'.repeat(levels)
  );
}

/** Offset of the n-th `{` or `[` in a text without strings that contain brackets. */
function nthOpen(text: string, n: number): number {
  let seen = 0;
  for (let i = 0; i < text.length; i++) {
    if (text[i] === "{" || text[i] === "[") seen++;
    if (seen === n) return i;
  }
  return -1;
}

test("10,000 nested rlm plans as a value: too_deep at the 1001st level of the walk", () => {
  check(value(nestedRlm(10_000)), normalizeError("too_deep", [...repeat(500, ["steps", 0, "plan"]), "steps", 0]));
});

test("10,000 nested rlm plans as text: too_deep at the 1001st bracket", () => {
  const text = nestedRlmText(10_000);
  assert.deepEqual(JSON.parse(nestedRlmText(3)), nestedRlm(3));
  const tooDeep = { phase: "parse", kind: "invalid_plan", detail: "too_deep", reason: "too_deep" };
  check(model(text), tooDeep);
  const [modelProblem] = parsePlan(model(text)).problems;
  assert.deepEqual([modelProblem?.offset, modelProblem?.length], [nthOpen(text, 1001), 1]);
  const [documentProblem] = parsePlan({ kind: "document", text }).problems;
  assert.deepEqual(
    [documentProblem?.reason, documentProblem?.offset, documentProblem?.length],
    ["too_deep", nthOpen(text, 1001), 1],
  );
  const commented = "// deep\n" + text;
  const analysis = analyzePlanText(commented);
  assert.deepEqual(
    analysis.problems.map((p) => [p.reason, p.range]),
    [["too_deep", { offset: nthOpen(commented, 1001), length: 1 }]],
  );
});

test("499 nested rlm plans, the deepest that normalizes: validated, estimated and run", async () => {
  const plan = value(nestedRlm(499));
  const policy = { capabilities: ["rlm"], budget: { max_depth: 500, max_steps: 1000 } };
  const result = checkPlan(plan, policy);
  assert.deepEqual(result.ok && result.validated.estimate, {
    steps: 999,
    depth: 500,
    parallel_width: 0,
    model_calls: 0,
    tool_calls: 0,
    context_ops: 0,
  });
  const outcome = await runPlan(plan, policy, {});
  assert.deepEqual(
    [outcome.ok, outcome.ok && outcome.value, outcome.budget_remaining.steps, outcome.transitions.length],
    [true, 1, 1, 999],
  );
});

test("500 nested rlm plans do not normalize: too_deep", () => {
  check(value(nestedRlm(500)), normalizeError("too_deep", [...repeat(500, ["steps", 0, "plan"]), "steps", 0]));
});

test("nothing above polluted Object.prototype", () => {
  assert.equal(({} as { polluted?: unknown }).polluted, undefined);
  assert.deepEqual(Object.getOwnPropertyNames(Object.prototype).sort(), PROTOTYPE_KEYS);
  assert.equal(Object.getPrototypeOf({}), Object.prototype);
});
