// A plan's worst case in money before it runs, for `estimate`, hover and the max_cost check:
// the count walk's multiplicities (estimateMoney) times each model call's worst cost (modelCost).

import type { Expr, ModelStep, Plan, Step } from "./ast";
import type { Budget } from "./budget";
import { estimateMoney, type MoneyEstimate } from "./estimate";
import { MESSAGE_OVERHEAD_TOKENS, outputTokenBound, unpricedReason, worstCallCost, type CostPolicy } from "./modelCost";
import { utf8Length } from "../json";

export type { MoneyEstimate } from "./estimate";

/** The worst case of `plan` (or of one step's sub-plan) under the host's prices and `budget`. */
export function planMoney(plan: Plan, costs: CostPolicy, budget: Budget): MoneyEstimate {
  return estimateMoney(plan, (step) => {
    const costing = costs.providers.get(step.provider);
    const maxTokens = outputTokenBound(step.options, costing);
    const cost = worstCallCost(costing, staticInputBound(step, budget), maxTokens);
    return cost === undefined ? { unpriced: unpricedReason(step.provider, costing, maxTokens) as string } : { cost };
  });
}

/** The worst case of one step and everything under it (what hover shows beside its counts). */
export function stepMoney(step: Step, costs: CostPolicy, budget: Budget): MoneyEstimate {
  return planMoney({ steps: [step], path: step.path.slice(0, -2) }, costs, budget);
}

/**
 * A model step's input tokens before the run: a literal prompt's own bytes; any other prompt is
 * a value the run bound, whose JSON text the output budget (max_output_bytes) bounds.
 */
export function staticInputBound(step: ModelStep, budget: Budget): number {
  return promptBytes(step.prompt, budget) + MESSAGE_OVERHEAD_TOKENS;
}

function promptBytes(prompt: Expr, budget: Budget): number {
  if (prompt.kind === "literal" && typeof prompt.value === "string") return utf8Length(prompt.value);
  return budget.max_output_bytes;
}
