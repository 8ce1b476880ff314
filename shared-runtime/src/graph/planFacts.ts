// The graph's one adapter onto plan facts: which step binds each variable a step reads, and
// what each step costs in the worst case (its subtree and the whole run's total when it ends).
// Everything the graph knows of scopes and costs comes through here, so switching to the
// runtime's semantic model (bindings, references, cost rows) is a change to this file only.

import { addEstimates, scaleEstimate, type Estimate, type PlanEstimates } from "../plan/estimate";
import { stepBinding, type Expr, type Plan, type Step } from "../plan/ast";

/** A variable read by a step, resolved to the step that binds it. */
export interface DataUse {
  readonly name: string;
  readonly from: Step;
  readonly to: Step;
}

/**
 * Every resolved variable read, in the validator's scope order: a step's own expressions see
 * the bindings before it (its enclosing plans' included), sub-plans see their owner's scope and
 * their own bindings never leak out. Unresolved names are the validator's problems, not edges.
 */
export function dataUses(root: Plan): DataUse[] {
  const uses: DataUse[] = [];
  const walkPlan = (plan: Plan, outer: ReadonlyMap<string, Step>): void => {
    const scope = new Map(outer);
    for (const step of plan.steps) {
      const seen = new Set<string>();
      for (const expr of stepExpressions(step))
        for (const name of variablesIn(expr)) {
          const from = scope.get(name);
          if (from && !seen.has(name)) {
            seen.add(name);
            uses.push({ name, from, to: step });
          }
        }
      for (const child of step.op === "parallel" ? step.plans : "plan" in step ? [step.plan] : [])
        walkPlan(child, scope);
      const bind = stepBinding(step);
      if (bind !== undefined) scope.set(bind, step);
    }
  };
  walkPlan(root, new Map());
  return uses;
}

function stepExpressions(step: Step): readonly Expr[] {
  switch (step.op) {
    case "context":
      return [step.handle];
    case "model":
      return [step.prompt];
    case "tool":
      return [step.args];
    case "final":
      return [step.value];
    default:
      return [];
  }
}

function* variablesIn(expr: Expr): Generator<string> {
  switch (expr.kind) {
    case "var":
      yield expr.name;
      return;
    case "field":
      yield* variablesIn(expr.base);
      return;
    case "list":
      for (const item of expr.items) yield* variablesIn(item);
      return;
    case "object":
      for (const [, value] of expr.entries) yield* variablesIn(value);
      return;
    default:
      return;
  }
}

/** A step's worst case: its depth, its subtree, and the run's total when it ends (for the last time). */
export interface StepCost {
  readonly depth: number;
  readonly subtree: Estimate;
  readonly runningTotal: Estimate;
}

export interface PlanCosts {
  readonly total: Estimate;
  step(step: Step): StepCost | undefined;
  /** The run's worst case just before a child plan's first step (what is spent on the way in). */
  before(plan: Plan): Estimate | undefined;
  /** A child plan's own worst case (its last step's running total within the plan). */
  planTotal(plan: Plan, depth: number): Estimate;
}

const ZERO: Estimate = { steps: 0, depth: 1, parallel_width: 0, model_calls: 0, tool_calls: 0, context_ops: 0 };

/**
 * Costs composed from the estimator's per-step figures only (no cost rule restated): the run's
 * total at a step is everything before it in every enclosing plan, the container steps on the
 * way in, earlier parallel branches, earlier retry attempts, and the step's own running total.
 */
export function planCosts(root: Plan, estimates: PlanEstimates): PlanCosts {
  const running = new Map<Step, Estimate>();
  const entry = new Map<Plan, Estimate>();
  const planTotal = (plan: Plan, depth: number): Estimate => {
    const last = plan.steps[plan.steps.length - 1];
    return (last && estimates.steps.get(last)?.runningTotal) || { ...ZERO, depth };
  };
  const walkPlan = (plan: Plan, prefix: Estimate): void => {
    entry.set(plan, prefix);
    let before = prefix;
    for (const step of plan.steps) {
      const recorded = estimates.steps.get(step);
      if (!recorded) continue;
      running.set(step, addEstimates(prefix, recorded.runningTotal));
      const childDepth = recorded.depth + 1;
      let inside = addEstimates(before, {
        ...ZERO,
        steps: 1,
        depth: childDepth,
        parallel_width: step.op === "parallel" ? step.plans.length : 0,
      });
      if (step.op === "parallel") {
        for (const branch of step.plans) {
          walkPlan(branch, inside);
          inside = addEstimates(inside, planTotal(branch, childDepth));
        }
      } else if (step.op === "rlm" || step.op === "retry") {
        const attempts = step.op === "retry" ? step.attempts : 1;
        if (attempts > 1) inside = addEstimates(inside, scaleEstimate(planTotal(step.plan, childDepth), attempts - 1));
        walkPlan(step.plan, inside);
      }
      before = addEstimates(prefix, recorded.runningTotal);
    }
  };
  walkPlan(root, ZERO);
  return {
    total: estimates.total,
    step(step) {
      const recorded = estimates.steps.get(step);
      const total = running.get(step);
      return recorded && total && { depth: recorded.depth, subtree: recorded.subtree, runningTotal: total };
    },
    before: (plan) => entry.get(plan),
    planTotal,
  };
}
