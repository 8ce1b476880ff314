// The graph's one adapter onto the runtime's semantic model (PlanModel): which step binds each
// variable a step reads, and what each step and nested plan costs in the worst case. The graph
// restates no scope walk or cost rule; it only reads the model's references, bindings,
// `costAt`, `planTotal` and `rows`.

import type { JsonPath } from "../json";
import type { Plan } from "../plan/ast";
import type { Estimate } from "../plan/estimate";
import type { PlanModel } from "../plan/semanticModel";
import { stepPositions } from "../plan/stepChain";

/** A variable read by a step, resolved to the step that binds it. */
export interface DataUse {
  readonly name: string;
  /** The binding step's path. */
  readonly from: JsonPath;
  /** The reading step's path. */
  readonly to: JsonPath;
}

/**
 * Every resolved variable read, once per reading step and name, in the model's walk order.
 * Unresolved names (and names in steps that did not normalize) are problems, not edges.
 */
export function dataUses(model: PlanModel): DataUse[] {
  const uses: DataUse[] = [];
  const seen = new Set<string>();
  for (const reference of model.references) {
    const binding = reference.binding;
    const to = stepPathOf(reference.path);
    if (!binding || !reference.checked || !to) continue;
    const key = `${to.join("/")}\u0000${reference.name}`;
    if (seen.has(key)) continue;
    seen.add(key);
    uses.push({ name: reference.name, from: binding.stepPath, to });
  }
  return uses;
}

/** The path of the innermost step a path is in (the runtime's reading of `steps/N`); undefined outside every step. */
export function stepPathOf(path: JsonPath): JsonPath | undefined {
  return stepPositions(path).at(-1)?.stepPath;
}

/** A step's worst case: its depth, its subtree, and the run's total when it ends (for the last time). */
export interface StepCost {
  readonly depth: number;
  readonly subtree: Estimate;
  readonly runningTotal: Estimate;
}

/** The model's figures for the step at `stepPath`; undefined when the model has no run total for it. */
export function stepCost(model: PlanModel, stepPath: JsonPath): StepCost | undefined {
  const cost = model.costAt(stepPath);
  return cost?.runSoFar && { depth: cost.depth, subtree: cost.subtree, runningTotal: cost.runSoFar };
}

/** One run of a plan (its last step's running total), at the depth it runs at. */
export function planCost(model: PlanModel, plan: Plan, depth: number): Estimate {
  return model.planTotal(plan, depth);
}

/** The budget names (`steps`, `model_calls`, ...) an estimate goes over, in the reference's check order. */
export function overBudget(model: PlanModel, estimate: Estimate): string[] {
  return (model.rows(estimate) ?? []).filter((row) => row.over).map((row) => row.name);
}
