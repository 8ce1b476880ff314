// The one walk over a plan's steps and the one walk over an expression: every analysis that
// looks at each step (the semantic model's `steps()`, a run's needs and preflight, a
// debugger's lines, test files' step names) and every reader of the inputs an expression names
// goes through here. Iterative, with explicit stacks: a plan nested thousands deep, or a literal
// list of a million items, must not overflow the call stack. `childPlans` and `stepExpressions`
// (below) stay inside the plan layer; the core's front door exports the walks built on them.

import type { JsonPath } from "../json";
import type { Expr, Plan, Step } from "./ast";

/** A step as the walk meets it. */
export interface WalkedPlanStep {
  readonly step: Step;
  /** Nested plans the step is inside: 0 for the root plan's steps. */
  readonly depth: number;
  /** The plan the step is in, and the step's place in its `steps`. */
  readonly plan: Plan;
  readonly index: number;
}

/**
 * Every step of `plan`, nested plans included, in source order: a step, then its sub-plans'
 * steps (branches in order), then the step after it. The order the runtime visits steps in.
 */
export function* planSteps(plan: Plan): Generator<WalkedPlanStep> {
  const cursors: { plan: Plan; next: number; depth: number }[] = [{ plan, next: 0, depth: 0 }];
  while (cursors.length > 0) {
    const cursor = cursors[cursors.length - 1] as (typeof cursors)[number];
    const index = cursor.next++;
    const step = cursor.plan.steps[index];
    if (!step) {
      cursors.pop();
      continue;
    }
    yield { step, depth: cursor.depth, plan: cursor.plan, index };
    const children = childPlans(step);
    for (let i = children.length - 1; i >= 0; i--)
      cursors.push({ plan: children[i] as Plan, next: 0, depth: cursor.depth + 1 });
  }
}

/** How many steps `plans` hold, nested plans included. */
export function countPlanSteps(plans: readonly Plan[]): number {
  let count = 0;
  for (const plan of plans) for (const _ of planSteps(plan)) count++;
  return count;
}

/** An expression of a step, with the field it is in (`handle`, `prompt`, `args`, `value`). */
export interface StepExpression {
  readonly field: string;
  readonly expr: Expr;
}

/** The expressions a step evaluates itself (not its sub-plans'), in the AST tables' field order. */
export function expressionsOf(step: Step): StepExpression[] {
  return stepExpressions(step).map(([field, expr]) => ({ field, expr }));
}

/** An input reference met in an expression. */
export interface InputReference {
  readonly name: string;
  /** The path of the reference's "name" key. */
  readonly path: JsonPath;
  /** True when the reference is the whole handle of a context step: the input is read as a context. */
  readonly asContext: boolean;
}

/** The input references in the step's own expressions, in source order. */
export function stepInputs(step: Step): InputReference[] {
  const found: InputReference[] = [];
  for (const [field, expr] of stepExpressions(step)) {
    const handle = step.op === "context" && field === "handle";
    for (const e of expressionNodes(expr))
      if (e.kind === "input") found.push({ name: e.name, path: [...e.path, "name"], asContext: handle && e === expr });
  }
  return found;
}

/**
 * `expr` and every expression inside it, outermost first, in source order (a field read, then
 * its base; a list's items; an object's values): the one descent through an expression.
 */
export function* expressionNodes(expr: Expr): Generator<Expr> {
  // Pushed last to first one at a time: a literal list may hold a million items (no spread).
  const pending: Expr[] = [expr];
  for (let e = pending.pop(); e; e = pending.pop()) {
    yield e;
    pushChildren(e, pending);
  }
}

/**
 * `expressionNodes` for the editor's analysis, which visits every expression of every step on
 * each keystroke: the same nodes in the same order, without a generator, and without a stack for
 * an expression with nothing inside (most are a reference or a literal).
 */
export function forEachExpressionNode(expr: Expr, visit: (e: Expr) => void): void {
  if (expr.kind !== "field" && expr.kind !== "list" && expr.kind !== "object") {
    visit(expr);
    return;
  }
  const pending: Expr[] = [expr];
  for (let e = pending.pop(); e; e = pending.pop()) {
    visit(e);
    pushChildren(e, pending);
  }
}

function pushChildren(e: Expr, pending: Expr[]): void {
  if (e.kind === "field") pending.push(e.base);
  else if (e.kind === "list") for (let k = e.items.length - 1; k >= 0; k--) pending.push(e.items[k] as Expr);
  else if (e.kind === "object")
    for (let k = e.entries.length - 1; k >= 0; k--) pending.push((e.entries[k] as readonly [string, Expr])[1]);
}

/** Child plans of a step, in the order the runtime visits them. */
export function childPlans(step: Step): readonly Plan[] {
  switch (step.op) {
    case "rlm":
    case "retry":
      return [step.plan];
    case "parallel":
      return step.plans;
    default:
      return [];
  }
}

/** A normalized step's expressions with the field each is in, in STEP_FIELDS order. */
export function stepExpressions(step: Step): readonly (readonly [field: string, expr: Expr])[] {
  const expr = ownExpression(step);
  return expr ? [[OWN_EXPRESSION_FIELD[step.op as keyof typeof OWN_EXPRESSION_FIELD], expr]] : [];
}

/** The field of the one expression a step of each operation evaluates itself. */
const OWN_EXPRESSION_FIELD = { context: "handle", model: "prompt", tool: "args", final: "value" } as const;

/**
 * The expression a step evaluates itself, or undefined: no operation has more than one (the
 * table above), so a walk over every step's expressions needs no list per step.
 */
export function ownExpression(step: Step): Expr | undefined {
  switch (step.op) {
    case "context":
      return step.handle;
    case "model":
      return step.prompt;
    case "tool":
      return step.args;
    case "final":
      return step.value;
    default:
      return undefined;
  }
}
