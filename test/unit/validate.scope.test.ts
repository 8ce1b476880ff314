// Scope rules of the validator: a variable names a binding made earlier in its plan or an
// enclosing one; a name is bound once per scope; sub-plans see the enclosing scope and their
// own bindings do not leak out; parallel branches see the parent, never each other.

import assert from "node:assert/strict";
import { test } from "node:test";
import { parsePlan } from "@rlm-plan/core/plan/parse";
import type { Plan } from "@rlm-plan/core/plan/ast";
import { validatePlan, type ValidateOptions } from "@rlm-plan/core/plan/validate";

type Path = readonly (string | number)[];
type Expected =
  | { readonly unbound: string; readonly at: Path }
  | { readonly duplicate: string; readonly at: Path; readonly first: Path };

function planOf(value: unknown): Plan {
  const parsed = parsePlan({ kind: "value", value });
  assert.deepEqual(parsed.problems, [], "the fixture normalizes");
  return parsed.plan as Plan;
}

/** The problems, as the validator reports them (messages aside). */
function check(value: unknown, expected: readonly Expected[], options: ValidateOptions = {}): void {
  const result = validatePlan(planOf(value), options);
  const actual = result.problems.map(({ message: _message, related, ...problem }) => ({
    ...problem,
    ...(related ? { related: related.map(({ message: _m, ...r }) => r) } : {}),
  }));
  const wanted = expected.map((e) =>
    "unbound" in e
      ? {
          phase: "validate",
          kind: "invalid_plan",
          reason: "unbound_variable",
          detail: `unbound_variable(${e.unbound})`,
          path: [...e.at, "name"],
          target: "value",
        }
      : {
          phase: "validate",
          kind: "invalid_plan",
          reason: "duplicate_binding",
          detail: `duplicate_binding(${e.duplicate})`,
          path: [...e.at, "bind"],
          target: "value",
          related: [{ path: [...e.first, "bind"], target: "value" }],
        },
  );
  assert.deepEqual(actual, wanted);
  assert.equal(result.ok, expected.length === 0);
}

const V = (name: string) => ({ ref: "var", name });
const tool = (bind: string, args: unknown = 1) => ({ op: "tool", name: "echo", args, bind });
const final = (value: unknown = 1) => ({ op: "final", value });
const plan = (...steps: unknown[]) => ({ steps });
const rlm = (bind: string, ...steps: unknown[]) => ({ op: "rlm", plan: plan(...steps), bind });
const retry = (bind: string, ...steps: unknown[]) => ({ op: "retry", attempts: 2, plan: plan(...steps), bind });
const parallel = (bind: string, ...branches: unknown[][]) => ({
  op: "parallel",
  plans: branches.map((steps) => plan(...steps)),
  bind,
});

const cases: readonly (readonly [string, unknown, readonly Expected[]])[] = [
  ["names bound earlier are in scope", plan(tool("a"), tool("b", V("a")), final([V("a"), V("b")])), []],
  ["an unbound name in the final value", plan(tool("a"), final(V("c"))), [{ unbound: "c", at: ["steps", 1, "value"] }]],
  [
    "a step cannot see its own binding",
    plan(tool("x", V("x")), final(V("x"))),
    [{ unbound: "x", at: ["steps", 0, "args"] }],
  ],
  [
    "a later binding is not in scope earlier",
    plan(tool("a", V("b")), tool("b"), final()),
    [{ unbound: "b", at: ["steps", 0, "args"] }],
  ],
  [
    "an unbound name deep in an expression",
    plan(tool("a"), final({ k: [1, { ref: "field", value: V("ghost"), key: "f" }] })),
    [{ unbound: "ghost", at: ["steps", 1, "value", "k", 1, "value"] }],
  ],
  [
    "an unbound context handle",
    plan({ op: "context", handle: V("doc"), action: { type: "peek", selector: "metadata" }, bind: "m" }, final(V("m"))),
    [{ unbound: "doc", at: ["steps", 0, "handle"] }],
  ],
  [
    "an unbound model prompt",
    plan({ op: "model", provider: "p", prompt: V("q"), bind: "m" }, final(V("m"))),
    [{ unbound: "q", at: ["steps", 0, "prompt"] }],
  ],
  [
    "inputs are not variables: never scope-checked",
    plan(tool("a", { ref: "input", name: "anything" }), final(V("a"))),
    [],
  ],
  [
    "checkpoint labels are not bindings",
    plan({ op: "checkpoint", label: "x" }, final(V("x"))),
    [{ unbound: "x", at: ["steps", 1, "value"] }],
  ],
  [
    "a name bound twice in one plan",
    plan(tool("a"), tool("a"), final()),
    [{ duplicate: "a", at: ["steps", 1], first: ["steps", 0] }],
  ],
  [
    "a duplicate points at the first binding, not the latest step",
    plan(tool("a"), tool("b"), tool("c"), tool("a"), final()),
    [{ duplicate: "a", at: ["steps", 3], first: ["steps", 0] }],
  ],
  [
    "a sub-plan may not rebind a name of the enclosing scope",
    plan(tool("a"), rlm("r", tool("a"), final(V("a"))), final()),
    [{ duplicate: "a", at: ["steps", 1, "plan", "steps", 0], first: ["steps", 0] }],
  ],
  [
    "a retry plan may not rebind a name of the enclosing scope",
    plan(tool("a"), retry("r", tool("a"), final()), final()),
    [{ duplicate: "a", at: ["steps", 1, "plan", "steps", 0], first: ["steps", 0] }],
  ],
  [
    "a parallel branch may not rebind a name of the enclosing scope",
    plan(tool("a"), parallel("p", [final()], [tool("a"), final()]), final()),
    [{ duplicate: "a", at: ["steps", 1, "plans", 1, "steps", 0], first: ["steps", 0] }],
  ],
  [
    "a grandchild may not rebind a grandparent's name",
    plan(tool("a"), rlm("r", rlm("s", tool("a"), final()), final()), final()),
    [{ duplicate: "a", at: ["steps", 1, "plan", "steps", 0, "plan", "steps", 0], first: ["steps", 0] }],
  ],
  [
    "an rlm step's own binding may not repeat an earlier one",
    plan(tool("r"), rlm("r", final()), final()),
    [{ duplicate: "r", at: ["steps", 1], first: ["steps", 0] }],
  ],
  [
    "bindings of a sub-plan do not leak out",
    plan(rlm("r", tool("inner"), final(V("inner"))), final(V("inner"))),
    [{ unbound: "inner", at: ["steps", 1, "value"] }],
  ],
  [
    "bindings of a retry plan do not leak out",
    plan(retry("r", tool("inner"), final()), final(V("inner"))),
    [{ unbound: "inner", at: ["steps", 1, "value"] }],
  ],
  [
    "bindings of a parallel branch do not leak out",
    plan(parallel("p", [tool("inner"), final()]), final(V("inner"))),
    [{ unbound: "inner", at: ["steps", 1, "value"] }],
  ],
  [
    "a name bound in a sub-plan may be bound again later in the parent",
    plan(rlm("r", tool("inner"), final(V("inner"))), tool("inner"), final([V("r"), V("inner")])),
    [],
  ],
  [
    "a sub-plan cannot see its own step's binding",
    plan(rlm("r", final(V("r"))), final(V("r"))),
    [{ unbound: "r", at: ["steps", 0, "plan", "steps", 0, "value"] }],
  ],
  ["an rlm plan sees the enclosing scope", plan(tool("a"), rlm("r", final(V("a"))), final(V("r"))), []],
  [
    "a retry plan sees the enclosing scope",
    plan(tool("a"), retry("r", tool("b", V("a")), final(V("b"))), final(V("r"))),
    [],
  ],
  [
    "a grandchild sees its grandparent's bindings",
    plan(tool("a"), rlm("r", rlm("s", final(V("a"))), final(V("s"))), final(V("r"))),
    [],
  ],
  [
    "each parallel branch sees the parent scope",
    plan(tool("a"), parallel("p", [final(V("a"))], [final(V("a"))]), final(V("p"))),
    [],
  ],
  [
    "a parallel branch cannot see a sibling's bindings",
    plan(parallel("p", [tool("b1"), final(V("b1"))], [final(V("b1"))]), final(V("p"))),
    [{ unbound: "b1", at: ["steps", 0, "plans", 1, "steps", 0, "value"] }],
  ],
  [
    "the same name in two branches and as the parallel binding",
    plan(parallel("b", [tool("b"), final(V("b"))], [tool("b"), final(V("b"))]), final(V("b"))),
    [],
  ],
  [
    "the parallel binding is not visible inside its branches",
    plan(parallel("p", [final(V("p"))]), final(V("p"))),
    [{ unbound: "p", at: ["steps", 0, "plans", 0, "steps", 0, "value"] }],
  ],
  [
    "the first problem in step order wins",
    plan(tool("x"), tool("x"), tool("y", V("ghost")), final()),
    [{ duplicate: "x", at: ["steps", 1], first: ["steps", 0] }],
  ],
  [
    "an unbound name in step 1 is reported before a duplicate in step 2",
    plan(tool("x", V("ghost")), tool("x"), final()),
    [{ unbound: "ghost", at: ["steps", 0, "args"] }],
  ],
];

for (const [name, value, expected] of cases) {
  test(name, () => check(value, expected));
}

test("collect-all: every scope problem, in walk order", () => {
  check(
    plan(
      tool("a"),
      tool("a"),
      tool("b", V("zz")),
      rlm("r", tool("a"), tool("in"), final(V("b"))),
      parallel("p", [tool("x"), final()], [final(V("x"))]),
      final([V("in"), V("q")]),
    ),
    [
      { duplicate: "a", at: ["steps", 1], first: ["steps", 0] },
      { unbound: "zz", at: ["steps", 2, "args"] },
      { duplicate: "a", at: ["steps", 3, "plan", "steps", 0], first: ["steps", 0] },
      { unbound: "x", at: ["steps", 4, "plans", 1, "steps", 0, "value"] },
      { unbound: "in", at: ["steps", 5, "value", 0] },
      { unbound: "q", at: ["steps", 5, "value", 1] },
    ],
    { collectAll: true },
  );
});

/** Editor mode: the plan as collect-all normalization recovers it, its validate problems. */
function checkEditor(value: unknown, expected: readonly Expected[]): void {
  const parsed = parsePlan({ kind: "value", value }, { collectAll: true });
  assert.ok(parsed.problems.length > 0, "the fixture has a step that does not normalize");
  const result = validatePlan(parsed.plan as Plan, { collectAll: true, model: true });
  const actual = result.problems.map((p) => [p.reason, p.path]);
  const wanted = expected.map((e) =>
    "unbound" in e ? ["unbound_variable", [...e.at, "name"]] : ["duplicate_binding", [...e.at, "bind"]],
  );
  assert.deepEqual(actual, wanted);
}

const brokenTool = (bind: string) => ({ op: "tool", name: 1, args: 1, bind });

test("a step that did not normalize binds its name from its place on (editor mode)", () => {
  checkEditor(plan(tool("a", V("lost")), brokenTool("lost"), final([V("a"), V("lost"), V("other")])), [
    { unbound: "lost", at: ["steps", 0, "args"] },
    { unbound: "other", at: ["steps", 2, "value", 2] },
  ]);
});

test("a broken step's name inside a nested rlm does not leak to the enclosing plan (issue 8)", () => {
  // The validator, hover and rename agree: the outer reference names nothing.
  checkEditor(plan(rlm("r", brokenTool("x"), final(V("x"))), final(V("x"))), [
    { unbound: "x", at: ["steps", 1, "value"] },
  ]);
});

test("a broken step's name is not visible in a sibling parallel branch (editor mode)", () => {
  checkEditor(plan(parallel("p", [brokenTool("x"), final(V("x"))], [final(V("x"))]), final(V("p"))), [
    { unbound: "x", at: ["steps", 0, "plans", 1, "steps", 0, "value"] },
  ]);
});

test("100 nested sub-plans each see every enclosing binding", () => {
  let inner: unknown = plan(final(Array.from({ length: 100 }, (_, i) => V(`v${i}`))));
  for (let i = 99; i >= 0; i--)
    inner = plan(tool(`v${i}`), { op: "rlm", plan: inner, bind: `r${i}` }, final(V(`r${i}`)));
  check(inner, [], { budget: { max_depth: 1000, max_steps: 1000, max_tool_calls: 1000 } });
});
