// Budgets in validation: "default" or a partial object over the reference's defaults; unknown
// fields (in sorted order), then each field's value; then the worst-case estimate against the
// budget in the order steps, depth, parallel, model_calls, tool_calls, context_ops.

import assert from "node:assert/strict";
import { test } from "node:test";
import { parsePlan } from "@rlm-plan/core/plan/parse";
import type { Plan } from "@rlm-plan/core/plan/ast";
import { DEFAULT_BUDGET } from "@rlm-plan/core/plan/budget";
import { validatePlan } from "@rlm-plan/core/plan/validate";

type Expected =
  /** The budget in force when validation succeeds. */
  | { readonly budget: object }
  /** invalid_plan problems as [detail, field]: the field is absent for a budget that is not an object. */
  | { readonly invalid: readonly (readonly [string, string?])[] }
  /** budget_exceeded problems as [budget, estimated, limit]. */
  | { readonly exceeded: readonly (readonly [string, number, number])[] };

/** The budget field that limits each estimate figure. */
const BUDGET_FIELD: Readonly<Record<string, string>> = {
  steps: "max_steps",
  depth: "max_depth",
  parallel: "max_parallel",
  model_calls: "max_model_calls",
  tool_calls: "max_tool_calls",
  context_ops: "max_context_ops",
};

function planOf(value: unknown): Plan {
  const parsed = parsePlan({ kind: "value", value });
  assert.deepEqual(parsed.problems, [], "the fixture normalizes");
  return parsed.plan as Plan;
}

function check(value: unknown, budget: unknown, expected: Expected, collectAll = false): void {
  const result = validatePlan(planOf(value), { budget, collectAll });
  const problems = result.problems.map(({ message: _message, ...problem }) => problem);
  if ("budget" in expected) {
    assert.deepEqual(problems, []);
    assert.equal(result.ok, true);
    if (result.ok) assert.deepEqual(result.validated.budget, { ...DEFAULT_BUDGET, ...expected.budget });
  } else if ("invalid" in expected) {
    assert.deepEqual(
      problems,
      expected.invalid.map(([detail, field]) => ({
        phase: "validate",
        kind: "invalid_plan",
        reason: detail.replace(/\(.*$/s, ""),
        detail,
        hostDependent: true,
        ...(field === undefined ? {} : { field }),
      })),
    );
  } else {
    assert.deepEqual(
      problems,
      expected.exceeded.map(([name, estimated, limit]) => ({
        phase: "validate",
        kind: "budget_exceeded",
        budget: name,
        estimated,
        limit,
        field: BUDGET_FIELD[name],
        path: [],
        target: "value",
        hostDependent: true,
      })),
    );
  }
}

const V = (name: string) => ({ ref: "var", name });
const final = (value: unknown = 1) => ({ op: "final", value });
const plan = (...steps: unknown[]) => ({ steps });
const tool = (bind: string) => ({ op: "tool", name: "echo", args: 1, bind });
/** A tool step and a final: estimate steps 2, depth 1, tool_calls 1. */
const SMALL = plan(tool("a"), final(V("a")));

test("the default budget is the reference's", () => {
  assert.deepEqual(DEFAULT_BUDGET, {
    max_steps: 64,
    max_depth: 4,
    max_parallel: 8,
    max_model_calls: 8,
    max_tool_calls: 16,
    max_context_ops: 32,
    max_output_bytes: 65536,
    time_limit: 10.0,
  });
});

const BUDGETS: readonly (readonly [string, unknown, Expected])[] = [
  ["no budget: the default", undefined, { budget: {} }],
  ['"default"', "default", { budget: {} }],
  ["an empty object: the default", {}, { budget: {} }],
  [
    "a partial object overlays the default",
    { max_steps: 5, time_limit: 0.5 },
    { budget: { max_steps: 5, time_limit: 0.5 } },
  ],
  [
    "zero calls are allowed when the plan makes none",
    { max_model_calls: 0, max_context_ops: 0 },
    { budget: { max_model_calls: 0, max_context_ops: 0 } },
  ],
  ["an integer time limit", { time_limit: 3 }, { budget: { time_limit: 3 } }],
  ["a budget that is text", "unlimited", { invalid: [["invalid_budget(unlimited)"]] }],
  ["a budget that is null", null, { invalid: [["invalid_budget(null)"]] }],
  ["a budget that is a number", 10, { invalid: [["invalid_budget(10)"]] }],
  ["a budget that is a list", [], { invalid: [["invalid_budget([])"]] }],
  ["an unknown field", { bogus: 1 }, { invalid: [["unknown_budget_field(bogus)", "bogus"]] }],
  [
    "two unknown fields: the first in sorted order",
    { zeta: 1, alpha: 2 },
    { invalid: [["unknown_budget_field(alpha)", "alpha"]] },
  ],
  [
    "an unknown field beside a valid one",
    { max_steps: 5, bogus: 1 },
    { invalid: [["unknown_budget_field(bogus)", "bogus"]] },
  ],
  [
    "an unknown field before an invalid value",
    { max_steps: 0, other: 1 },
    { invalid: [["unknown_budget_field(other)", "other"]] },
  ],
  [
    "field names are case sensitive",
    { MAX_STEPS: 5 },
    { invalid: [['unknown_budget_field("MAX_STEPS")', "MAX_STEPS"]] },
  ],
  [
    "two invalid values: max_depth before max_tool_calls",
    { max_tool_calls: -1, max_depth: 0 },
    { invalid: [["invalid_positive_integer(max_depth,0)", "max_depth"]] },
  ],
  [
    "two invalid values: max_context_ops before time_limit",
    { time_limit: 0, max_context_ops: -1 },
    { invalid: [["invalid_nonnegative_integer(max_context_ops,-1)", "max_context_ops"]] },
  ],
];

// Each field's value checks: positive integers, non-negative integers, a positive number of seconds.
const POSITIVE = ["max_steps", "max_depth", "max_parallel", "max_output_bytes"];
const NONNEGATIVE = ["max_model_calls", "max_tool_calls", "max_context_ops"];
const VALUES: (readonly [string, unknown, Expected])[] = [];
for (const field of POSITIVE) {
  for (const [value, text] of [
    [0, "0"],
    [-1, "-1"],
    [2.5, "2.5"],
    ["5", '"5"'],
    [null, "null"],
  ] as const) {
    VALUES.push([
      `${field} ${text}`,
      { [field]: value },
      { invalid: [[`invalid_positive_integer(${field},${text})`, field]] },
    ]);
  }
  VALUES.push([
    `${field} 1`,
    { [field]: 1 },
    field === "max_steps" ? { exceeded: [["steps", 2, 1]] } : { budget: { [field]: 1 } },
  ]);
}
for (const field of NONNEGATIVE) {
  for (const [value, text] of [
    [-1, "-1"],
    [1.5, "1.5"],
    ["1", '"1"'],
    [true, "true"],
  ] as const) {
    VALUES.push([
      `${field} ${text}`,
      { [field]: value },
      { invalid: [[`invalid_nonnegative_integer(${field},${text})`, field]] },
    ]);
  }
}
VALUES.push(["max_model_calls 0", { max_model_calls: 0 }, { budget: { max_model_calls: 0 } }]);
for (const [value, text] of [
  [0, "0"],
  [-1, "-1"],
  ["10", '"10"'],
  [null, "null"],
] as const) {
  VALUES.push([
    `time_limit ${text}`,
    { time_limit: value },
    { invalid: [[`invalid_budget_field(time_limit,${text})`, "time_limit"]] },
  ]);
}

for (const [name, budget, expected] of [...BUDGETS, ...VALUES]) {
  test(`budget: ${name}`, () => check(SMALL, budget, expected));
}

test("collect-all: every unknown field, sorted", () => {
  check(
    SMALL,
    { zeta: 1, max_steps: 0, alpha: 2, beta: 3 },
    {
      invalid: [
        ["unknown_budget_field(alpha)", "alpha"],
        ["unknown_budget_field(beta)", "beta"],
        ["unknown_budget_field(zeta)", "zeta"],
      ],
    },
    true,
  );
});

test("collect-all: every invalid value, in the reference's field order", () => {
  check(
    SMALL,
    {
      time_limit: -1,
      max_context_ops: -5,
      max_output_bytes: 0,
      max_tool_calls: 1.5,
      max_model_calls: -1,
      max_parallel: 0,
      max_depth: 0,
      max_steps: 0,
    },
    {
      invalid: [
        ["invalid_positive_integer(max_steps,0)", "max_steps"],
        ["invalid_positive_integer(max_depth,0)", "max_depth"],
        ["invalid_positive_integer(max_parallel,0)", "max_parallel"],
        ["invalid_nonnegative_integer(max_model_calls,-1)", "max_model_calls"],
        ["invalid_nonnegative_integer(max_tool_calls,1.5)", "max_tool_calls"],
        ["invalid_nonnegative_integer(max_context_ops,-5)", "max_context_ops"],
        ["invalid_positive_integer(max_output_bytes,0)", "max_output_bytes"],
        ["invalid_budget_field(time_limit,-1)", "time_limit"],
      ],
    },
    true,
  );
});

// The estimate against the budget.
const retry = (attempts: number, ...steps: unknown[]) => ({ op: "retry", attempts, plan: plan(...steps), bind: "r" });
const rlm = (bind: string, ...steps: unknown[]) => ({ op: "rlm", plan: plan(...steps), bind });
const parallel = (bind: string, width: number) => ({
  op: "parallel",
  plans: Array.from({ length: width }, (_, i) => plan(final(i))),
  bind,
});
const many = (n: number, step: (i: number) => unknown) =>
  plan(...Array.from({ length: n }, (_, i) => step(i)), final());
const context = (bind: string) => ({ op: "context", handle: 1, action: { type: "reduce", reducer: "count" }, bind });
const model = (bind: string) => ({ op: "model", provider: "openrouter", prompt: "p", bind });

/** The reference's mixed plan: steps 23, depth 3, width 2, and 3 of each call. */
const MIXED = plan(
  retry(
    3,
    {
      op: "parallel",
      plans: [plan(tool("a"), context("b"), model("c"), final()), plan(final(2))],
      bind: "p",
    },
    final(V("p")),
  ),
  final(V("r")),
);
const MINIMAL = {
  max_steps: 1,
  max_depth: 1,
  max_parallel: 1,
  max_model_calls: 0,
  max_tool_calls: 0,
  max_context_ops: 0,
};

const ESTIMATES: readonly (readonly [string, unknown, unknown, Expected])[] = [
  [
    "the reference's runaway retry: 12 steps > 5",
    plan(retry(5, tool("n"), final(V("n"))), final(V("r"))),
    { max_steps: 5 },
    { exceeded: [["steps", 12, 5]] },
  ],
  [
    "one below the estimate",
    plan(retry(5, tool("n"), final(V("n"))), final(V("r"))),
    { max_steps: 11 },
    { exceeded: [["steps", 12, 11]] },
  ],
  [
    "exactly the estimate",
    plan(retry(5, tool("n"), final(V("n"))), final(V("r"))),
    { max_steps: 12 },
    { budget: { max_steps: 12 } },
  ],
  ["64 steps fit the default", many(63, (i) => ({ op: "checkpoint", label: `c${i}` })), "default", { budget: {} }],
  [
    "65 steps do not",
    many(64, (i) => ({ op: "checkpoint", label: `c${i}` })),
    "default",
    { exceeded: [["steps", 65, 64]] },
  ],
  [
    "a single rlm already has depth 2",
    plan(rlm("r", final()), final(V("r"))),
    { max_depth: 1 },
    { exceeded: [["depth", 2, 1]] },
  ],
  [
    "depth 5 > default 4",
    plan(rlm("d", rlm("c", rlm("b", rlm("a", final(5)), final(V("a"))), final(V("b"))), final(V("c"))), final(V("d"))),
    "default",
    { exceeded: [["depth", 5, 4]] },
  ],
  [
    "sibling parallels: the widest counts",
    plan(parallel("a", 2), parallel("b", 3), final()),
    { max_parallel: 2 },
    { exceeded: [["parallel", 3, 2]] },
  ],
  ["9 branches > default 8", plan(parallel("a", 9), final()), "default", { exceeded: [["parallel", 9, 8]] }],
  ["9 model calls > default 8", many(9, (i) => model(`m${i}`)), "default", { exceeded: [["model_calls", 9, 8]] }],
  ["17 tool calls > default 16", many(17, (i) => tool(`t${i}`)), "default", { exceeded: [["tool_calls", 17, 16]] }],
  [
    "retry multiplies tool calls",
    plan(retry(3, tool("a"), tool("b"), final()), final()),
    { max_tool_calls: 5 },
    { exceeded: [["tool_calls", 6, 5]] },
  ],
  ["zero tool calls allowed, the plan needs one", SMALL, { max_tool_calls: 0 }, { exceeded: [["tool_calls", 1, 0]] }],
  [
    "33 context operations > default 32",
    many(33, (i) => context(`c${i}`)),
    "default",
    { exceeded: [["context_ops", 33, 32]] },
  ],
  ["everything exceeded: steps first", MIXED, MINIMAL, { exceeded: [["steps", 23, 1]] }],
  ["steps fit: depth next", MIXED, { ...MINIMAL, max_steps: 23 }, { exceeded: [["depth", 3, 1]] }],
  ["depth fits: parallel next", MIXED, { ...MINIMAL, max_steps: 23, max_depth: 3 }, { exceeded: [["parallel", 2, 1]] }],
  [
    "width fits: model calls next",
    MIXED,
    { ...MINIMAL, max_steps: 23, max_depth: 3, max_parallel: 2 },
    { exceeded: [["model_calls", 3, 0]] },
  ],
  [
    "model calls fit: tool calls next",
    MIXED,
    { ...MINIMAL, max_steps: 23, max_depth: 3, max_parallel: 2, max_model_calls: 3 },
    { exceeded: [["tool_calls", 3, 0]] },
  ],
  [
    "tool calls fit: context operations last",
    MIXED,
    { ...MINIMAL, max_steps: 23, max_depth: 3, max_parallel: 2, max_model_calls: 3, max_tool_calls: 3 },
    { exceeded: [["context_ops", 3, 0]] },
  ],
  ["the mixed plan fits the default", MIXED, "default", { budget: {} }],
];

for (const [name, value, budget, expected] of ESTIMATES) {
  test(`estimate vs budget: ${name}`, () => check(value, budget, expected));
}

test("collect-all: every exceeded figure, in order", () => {
  check(
    MIXED,
    MINIMAL,
    {
      exceeded: [
        ["steps", 23, 1],
        ["depth", 3, 1],
        ["parallel", 2, 1],
        ["model_calls", 3, 0],
        ["tool_calls", 3, 0],
        ["context_ops", 3, 0],
      ],
    },
    true,
  );
});

test("budget problems come before the plan's own problems; the estimate is not checked then", () => {
  const result = validatePlan(planOf(plan(tool("a"))), { budget: { max_steps: 0 }, collectAll: true });
  assert.deepEqual(
    result.problems.map((p) => p.detail ?? p.kind),
    ["invalid_positive_integer(max_steps,0)", "final_must_be_unique_and_last"],
  );
});

test("a plan's problems come before the estimate", () => {
  const result = validatePlan(planOf(plan(tool("a"), tool("a"), final())), {
    budget: { max_steps: 1 },
    collectAll: true,
  });
  assert.deepEqual(
    result.problems.map((p) => p.detail ?? p.budget),
    ["duplicate_binding(a)", "steps"],
  );
});
