// Structural rules of the validator besides scope: plan shape (non-empty, one final and last),
// the allow-lists and value ranges of context actions, retry and parallel rules, and
// capabilities, each with the reference's reason and the order the reference checks them in.

import assert from "node:assert/strict";
import { test } from "node:test";
import { parsePlan } from "@rlm-plan/core/plan/parse";
import type { Plan } from "@rlm-plan/core/plan/ast";
import { validatePlan, type ValidateOptions } from "@rlm-plan/core/plan/validate";

type Path = readonly (string | number)[];
/** `[detail, path]` for invalid_plan problems, `{capability, at}` for capability_denied. */
type Expected = readonly [string, Path] | { readonly denied: string; readonly at: Path };

function planOf(value: unknown): Plan {
  const parsed = parsePlan({ kind: "value", value });
  assert.deepEqual(parsed.problems, [], "the fixture normalizes");
  return parsed.plan as Plan;
}

function check(value: unknown, expected: readonly Expected[], options: ValidateOptions = {}): void {
  const result = validatePlan(planOf(value), options);
  const actual = result.problems.map(({ message: _message, ...problem }) => problem);
  const wanted = expected.map((e) =>
    "denied" in e
      ? {
          phase: "validate",
          kind: "capability_denied",
          capability: e.denied,
          path: e.at,
          target: "value",
          hostDependent: true,
        }
      : {
          phase: "validate",
          kind: "invalid_plan",
          reason: e[0].replace(/\(.*$/s, ""),
          detail: e[0],
          path: e[1],
          target: "value",
        },
  );
  assert.deepEqual(actual, wanted);
  assert.equal(result.ok, expected.length === 0);
}

const V = (name: string) => ({ ref: "var", name });
const tool = (bind: string, name = "echo") => ({ op: "tool", name, args: 1, bind });
const final = (value: unknown = 1) => ({ op: "final", value });
const plan = (...steps: unknown[]) => ({ steps });
const context = (action: unknown, bind = "c") => ({
  op: "context",
  handle: { ref: "input", name: "doc" },
  action,
  bind,
});
const withFinal = (...steps: unknown[]) => plan(...steps, final());
const S = (...path: (string | number)[]) => ["steps", ...path];

// Plan shape.
const SHAPE: readonly (readonly [string, unknown, readonly Expected[]])[] = [
  ["an empty plan", plan(), [["empty_plan", S()]]],
  ["an empty sub-plan", withFinal({ op: "rlm", plan: plan(), bind: "r" }), [["empty_plan", S(0, "plan", "steps")]]],
  [
    "an empty parallel branch",
    withFinal({ op: "parallel", plans: [plan()], bind: "p" }),
    [["empty_plan", S(0, "plans", 0, "steps")]],
  ],
  ["a plan with only a final step", plan(final()), []],
  [
    "a plan without final: at the last step's op",
    plan(tool("a"), tool("b")),
    [["final_must_be_unique_and_last", S(1, "op")]],
  ],
  ["final first, then another step", plan(final(), tool("a")), [["final_must_be_unique_and_last", S(0, "op")]]],
  [
    "final in the middle",
    plan(tool("a"), final(), tool("b"), final()),
    [["final_must_be_unique_and_last", S(1, "op")]],
  ],
  ["two finals", plan(final(1), final(2)), [["final_must_be_unique_and_last", S(0, "op")]]],
  [
    "a nested plan without final",
    withFinal({ op: "rlm", plan: plan(tool("x")), bind: "r" }),
    [["final_must_be_unique_and_last", S(0, "plan", "steps", 0, "op")]],
  ],
  [
    "a retry plan with two finals",
    withFinal({ op: "retry", attempts: 1, plan: plan(final(), final()), bind: "r" }),
    [["final_must_be_unique_and_last", S(0, "plan", "steps", 0, "op")]],
  ],
  [
    "the second branch without final",
    withFinal({ op: "parallel", plans: [plan(final()), plan(tool("b"))], bind: "p" }),
    [["final_must_be_unique_and_last", S(0, "plans", 1, "steps", 0, "op")]],
  ],
  [
    "a plan's shape is checked before its steps",
    plan(tool("a", "echo"), { op: "tool", name: "echo", args: V("ghost"), bind: "b" }),
    [["final_must_be_unique_and_last", S(1, "op")]],
  ],
  [
    "an unbound variable in step 1 before a nested missing final in step 2",
    withFinal(
      tool("a"),
      { op: "tool", name: "e", args: V("ghost"), bind: "b" },
      { op: "rlm", plan: plan(tool("x")), bind: "r" },
    ),
    [["unbound_variable(ghost)", S(1, "args", "name")]],
  ],
];

// Context actions: allow-lists and value ranges.
const A = (...path: (string | number)[]) => S(0, "action", ...path);
const ACTIONS: readonly (readonly [string, unknown, readonly Expected[]])[] = [
  ...["identity", "lowercase", "uppercase", "length"].map(
    (transform) => [`map ${transform} is allowed`, withFinal(context({ type: "map", transform })), []] as const,
  ),
  [
    "map transforms are case sensitive",
    withFinal(context({ type: "map", transform: "LOWERCASE" })),
    [['invalid_map_transform("LOWERCASE")', A("transform")]],
  ],
  [
    "map trim is not allowed",
    withFinal(context({ type: "map", transform: "trim" })),
    [["invalid_map_transform(trim)", A("transform")]],
  ],
  [
    "map call(shell) is not allowed",
    withFinal(context({ type: "map", transform: "call(shell)" })),
    [['invalid_map_transform("call(shell)")', A("transform")]],
  ],
  ...["count", "byte_count"].map(
    (reducer) => [`reduce ${reducer} is allowed`, withFinal(context({ type: "reduce", reducer })), []] as const,
  ),
  [
    "reduce sum is not allowed",
    withFinal(context({ type: "reduce", reducer: "sum" })),
    [["invalid_reducer(sum)", A("reducer")]],
  ],
  [
    "reduce empty is not allowed",
    withFinal(context({ type: "reduce", reducer: "" })),
    [['invalid_reducer("")', A("reducer")]],
  ],
  ["slice from 0 for 0", withFinal(context({ type: "slice", start: 0, length: 0 })), []],
  [
    "slice with a negative start",
    withFinal(context({ type: "slice", start: -1, length: 2 })),
    [["invalid_nonnegative_integer(slice_start,-1)", A("start")]],
  ],
  [
    "slice with a negative length",
    withFinal(context({ type: "slice", start: 0, length: -2 })),
    [["invalid_nonnegative_integer(slice_length,-2)", A("length")]],
  ],
  [
    "slice: start is checked before length",
    withFinal(context({ type: "slice", start: -1, length: -1 })),
    [["invalid_nonnegative_integer(slice_start,-1)", A("start")]],
  ],
  ["peek metadata", withFinal(context({ type: "peek", selector: "metadata" })), []],
  ["peek head 0", withFinal(context({ type: "peek", selector: { type: "head", count: 0 } })), []],
  ["peek item 0", withFinal(context({ type: "peek", selector: { type: "item", index: 0 } })), []],
  [
    "peek head -1",
    withFinal(context({ type: "peek", selector: { type: "head", count: -1 } })),
    [["invalid_nonnegative_integer(peek_count,-1)", A("selector", "count")]],
  ],
  [
    "peek tail -3",
    withFinal(context({ type: "peek", selector: { type: "tail", count: -3 } })),
    [["invalid_nonnegative_integer(peek_count,-3)", A("selector", "count")]],
  ],
  [
    "peek item -1",
    withFinal(context({ type: "peek", selector: { type: "item", index: -1 } })),
    [["invalid_nonnegative_integer(item_index,-1)", A("selector", "index")]],
  ],
  [
    "search with an empty pattern",
    withFinal(context({ type: "search", pattern: "" })),
    [['invalid_search_pattern("")', A("pattern")]],
  ],
  ["search with a pattern", withFinal(context({ type: "search", pattern: "needle" })), []],
  ["partition size 1", withFinal(context({ type: "partition", strategy: { type: "fixed", size: 1 } })), []],
  [
    "partition size 0",
    withFinal(context({ type: "partition", strategy: { type: "fixed", size: 0 } })),
    [["invalid_positive_integer(partition_size,0)", A("strategy", "size")]],
  ],
  [
    "partition lines -2",
    withFinal(context({ type: "partition", strategy: { type: "lines", size: -2 } })),
    [["invalid_positive_integer(partition_size,-2)", A("strategy", "size")]],
  ],
];

// Retry and parallel.
const retry = (attempts: number) => ({ op: "retry", attempts, plan: plan(final()), bind: "r" });
const CONTROL: readonly (readonly [string, unknown, readonly Expected[]])[] = [
  ["retry 1 attempt", withFinal(retry(1)), []],
  ["retry 0 attempts", withFinal(retry(0)), [["invalid_positive_integer(retry_attempts,0)", S(0, "attempts")]]],
  ["retry -1 attempts", withFinal(retry(-1)), [["invalid_positive_integer(retry_attempts,-1)", S(0, "attempts")]]],
  [
    "retry attempts are checked before the retry's plan",
    withFinal({ op: "retry", attempts: 0, plan: plan(tool("x")), bind: "r" }),
    [["invalid_positive_integer(retry_attempts,0)", S(0, "attempts")]],
  ],
  [
    "an empty parallel",
    withFinal({ op: "parallel", plans: [], bind: "p" }),
    [["invalid_parallel_plans", S(0, "plans")]],
  ],
  ["a parallel with one branch", withFinal({ op: "parallel", plans: [plan(final())], bind: "p" }), []],
];

for (const [name, value, expected] of [...SHAPE, ...ACTIONS, ...CONTROL]) {
  test(name, () => check(value, expected));
}

// Capabilities: each step needs the one the reference names; final needs none.
const ALL_GRANTED = [
  "context(search)",
  "context(slice)",
  "context(peek)",
  "context(partition)",
  "context(map)",
  "context(reduce)",
  "model(openrouter)",
  "tool(echo)",
  "tool('Count Items')",
  "rlm",
  "parallel",
  "retry",
  "checkpoint",
];

const NEEDS: readonly (readonly [string, unknown, string, Path])[] = [
  ["context search", context({ type: "search", pattern: "x" }), "context(search)", S(0, "action", "type")],
  ["context slice", context({ type: "slice", start: 0, length: 1 }), "context(slice)", S(0, "action", "type")],
  ["context peek", context({ type: "peek", selector: "metadata" }), "context(peek)", S(0, "action", "type")],
  [
    "context partition",
    context({ type: "partition", strategy: { type: "lines", size: 1 } }),
    "context(partition)",
    S(0, "action", "type"),
  ],
  ["context map", context({ type: "map", transform: "identity" }), "context(map)", S(0, "action", "type")],
  ["context reduce", context({ type: "reduce", reducer: "count" }), "context(reduce)", S(0, "action", "type")],
  ["model", { op: "model", provider: "openrouter", prompt: "p", bind: "m" }, "model(openrouter)", S(0, "provider")],
  ["tool", tool("t", "echo"), "tool(echo)", S(0, "name")],
  [
    "a tool whose name needs quotes",
    { op: "tool", name: "Count Items", args: [], bind: "n" },
    "tool('Count Items')",
    S(0, "name"),
  ],
  ["rlm", { op: "rlm", plan: plan(final()), bind: "r" }, "rlm", S(0, "op")],
  ["parallel", { op: "parallel", plans: [plan(final())], bind: "p" }, "parallel", S(0, "op")],
  ["retry", retry(1), "retry", S(0, "op")],
  ["checkpoint", { op: "checkpoint", label: "here" }, "checkpoint", S(0, "op")],
];

for (const [name, step, capability, at] of NEEDS) {
  test(`${name} needs ${capability}`, () => {
    check(withFinal(step), [{ denied: capability, at }], { capabilities: ALL_GRANTED.filter((c) => c !== capability) });
    check(withFinal(step), [], { capabilities: [capability] });
  });
}

const CAPABILITIES: readonly (readonly [string, unknown, unknown, readonly Expected[]])[] = [
  ["final needs no capability", plan(final()), [], []],
  [
    "everything granted",
    withFinal(...NEEDS.map(([, step], i) => ({ ...(step as object), bind: `b${i}` }))),
    ALL_GRANTED,
    [],
  ],
  [
    "no capabilities given: nothing is checked",
    withFinal(...NEEDS.map(([, step], i) => ({ ...(step as object), bind: `b${i}` }))),
    undefined,
    [],
  ],
  [
    "the quoted and unquoted spellings grant the same tool",
    withFinal({ op: "tool", name: "Count Items", args: [], bind: "n" }),
    ["tool(Count Items)"],
    [],
  ],
  [
    "a tool name with a quote",
    withFinal({ op: "tool", name: "it's", args: [], bind: "n" }),
    [],
    [{ denied: "tool('it\\'s')", at: S(0, "name") }],
  ],
  [
    "an upper-case tool name",
    withFinal(tool("n", "Echo")),
    ["tool(echo)"],
    [{ denied: "tool('Echo')", at: S(0, "name") }],
  ],
  [
    "tool names are exact",
    withFinal(tool("n", "echo2")),
    ["tool(echo)"],
    [{ denied: "tool(echo2)", at: S(0, "name") }],
  ],
  [
    "a bare context grant is not context(search)",
    withFinal(context({ type: "search", pattern: "x" })),
    ["context"],
    [{ denied: "context(search)", at: A("type") }],
  ],
  [
    "non-text grants grant nothing",
    withFinal(tool("n")),
    [1, null, { tool: "echo" }],
    [{ denied: "tool(echo)", at: S(0, "name") }],
  ],
  [
    "a nested step's capability, reported at the nested step",
    withFinal({ op: "rlm", plan: plan(tool("x"), final()), bind: "r" }),
    ["rlm"],
    [{ denied: "tool(echo)", at: S(0, "plan", "steps", 0, "name") }],
  ],
  [
    "rlm's own capability before its sub-plan's problems",
    withFinal({ op: "rlm", plan: plan(tool("x")), bind: "r" }),
    [],
    [{ denied: "rlm", at: S(0, "op") }],
  ],
  [
    "a denied capability in step 1 before a nested missing final in step 2",
    withFinal(tool("a"), { op: "rlm", plan: plan(tool("x")), bind: "r" }),
    ["rlm"],
    [{ denied: "tool(echo)", at: S(0, "name") }],
  ],
  [
    "an unbound argument before the tool's capability",
    withFinal({ op: "tool", name: "echo", args: V("ghost"), bind: "a" }),
    [],
    [["unbound_variable(ghost)", S(0, "args", "name")]],
  ],
  [
    "an invalid action before the context capability",
    withFinal(context({ type: "search", pattern: "" })),
    [],
    [['invalid_search_pattern("")', A("pattern")]],
  ],
  [
    "retry attempts before the retry capability",
    withFinal(retry(0)),
    [],
    [["invalid_positive_integer(retry_attempts,0)", S(0, "attempts")]],
  ],
  [
    "the parallel capability before an empty parallel",
    withFinal({ op: "parallel", plans: [], bind: "p" }),
    [],
    [{ denied: "parallel", at: S(0, "op") }],
  ],
  [
    "the capability before a duplicate binding",
    plan(tool("a"), tool("a", "other"), final()),
    ["tool(echo)"],
    [{ denied: "tool(other)", at: S(1, "name") }],
  ],
];

for (const [name, value, capabilities, expected] of CAPABILITIES) {
  test(name, () => check(value, expected, { capabilities }));
}

test("capabilities that are not a list: invalid_capabilities, before anything else", () => {
  const result = validatePlan(planOf(plan()), { capabilities: "all", budget: { bogus: 1 } });
  assert.deepEqual(
    result.problems.map(({ message: _message, ...problem }) => problem),
    [
      {
        phase: "validate",
        kind: "invalid_plan",
        reason: "invalid_capabilities",
        detail: "invalid_capabilities(all)",
        hostDependent: true,
      },
    ],
  );
});

test("collect-all: every rule problem, in walk order", () => {
  check(
    plan(
      context({ type: "map", transform: "trim" }, "a"),
      context({ type: "slice", start: -1, length: -1 }, "b"),
      { op: "retry", attempts: 0, plan: plan(), bind: "r" },
      { op: "parallel", plans: [], bind: "p" },
      tool("t", "Count Items"),
      final(),
      tool("late"),
    ),
    [
      ["final_must_be_unique_and_last", S(5, "op")],
      ["invalid_map_transform(trim)", S(0, "action", "transform")],
      { denied: "context(map)", at: S(0, "action", "type") },
      ["invalid_nonnegative_integer(slice_start,-1)", S(1, "action", "start")],
      ["invalid_nonnegative_integer(slice_length,-1)", S(1, "action", "length")],
      ["invalid_positive_integer(retry_attempts,0)", S(2, "attempts")],
      ["empty_plan", S(2, "plan", "steps")],
      ["invalid_parallel_plans", S(3, "plans")],
      { denied: "tool('Count Items')", at: S(4, "name") },
    ],
    { capabilities: ["context(slice)", "retry", "parallel", "tool(echo)"], collectAll: true },
  );
});
