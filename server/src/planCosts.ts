// Worst-case figures the editor shows, composed from the runtime estimator's per-step numbers:
// a child plan's total, and the whole run's worst case at the moment a step finishes (for the
// last time): everything before it in every enclosing plan, earlier branches, earlier retry
// attempts, and the step itself. No cost rule is restated here, only sums of the runtime's.

import {
  addEstimates,
  childPlans,
  scaleEstimate,
  type Estimate,
  type Plan,
  type PlanEstimates,
  type Step,
} from "@rlm-plan/shared-runtime";
import type { StepLink } from "./stepLookup";

export const ZERO_ESTIMATE: Estimate = {
  steps: 0,
  depth: 1,
  parallel_width: 0,
  model_calls: 0,
  tool_calls: 0,
  context_ops: 0,
};

/** A plan's worst case (its last step's running total), at the depth it runs at. */
export function planTotal(plan: Plan, estimates: PlanEstimates, depth: number): Estimate {
  const last = plan.steps[plan.steps.length - 1];
  const recorded = last ? estimates.steps.get(last)?.runningTotal : undefined;
  return recorded ?? { ...ZERO_ESTIMATE, depth };
}

/** A container step's own cost, before its children: one step one level down. */
function containerCost(step: Step, depth: number): Estimate {
  return {
    ...ZERO_ESTIMATE,
    steps: 1,
    depth: depth + 1,
    parallel_width: step.op === "parallel" ? step.plans.length : 0,
  };
}

/**
 * The run's worst case up to and including `chain`'s last step. `chain` is the path of steps
 * from a root-plan step down to the step, each one in a child plan of the one before.
 */
export function runningTotalThrough(chain: readonly StepLink[], estimates: PlanEstimates): Estimate | undefined {
  let total: Estimate = ZERO_ESTIMATE;
  for (let k = 0; k < chain.length; k++) {
    const { plan, index, step } = chain[k] as StepLink;
    const recorded = estimates.steps.get(step);
    if (!recorded) return undefined;
    if (k === chain.length - 1) return addEstimates(total, recorded.runningTotal);
    const previous = index > 0 ? estimates.steps.get(plan.steps[index - 1] as Step) : undefined;
    if (previous) total = addEstimates(total, previous.runningTotal);
    total = addEstimates(total, containerCost(step, recorded.depth));
    const next = chain[k + 1] as StepLink;
    const children = childPlans(step);
    if (children[next.branch] !== next.plan) return undefined;
    const childDepth = recorded.depth + 1;
    if (step.op === "parallel") {
      for (const earlier of children.slice(0, next.branch))
        total = addEstimates(total, planTotal(earlier, estimates, childDepth));
    } else if (step.op === "retry" && step.attempts > 1) {
      total = addEstimates(total, scaleEstimate(planTotal(step.plan, estimates, childDepth), step.attempts - 1));
    }
  }
  return undefined;
}
