// A plan's worst case in money before it runs, for `estimate`, hover and the max_cost check:
// the count walk's multiplicities (estimateMoney) times each model call's worst cost (modelCost).
// The same bounds, step by step and in tokens, for what a run spent against them (`rlm-plan ui`).

import type { Expr, ModelStep, Plan, Step } from "./ast";
import type { Budget } from "./budget";
import type { Count } from "./count";
import { estimateMoney, worstCaseRuns, type MoneyEstimate } from "./estimate";
import {
  MESSAGE_OVERHEAD_TOKENS,
  outputTokenBound,
  unboundedReason,
  unpricedReason,
  worstCallCost,
  type CostPolicy,
} from "./modelCost";
import { utf8Length } from "../json";

export type { MoneyEstimate } from "./estimate";

/** The worst case of `plan` (or of one step's sub-plan) under the host's prices and `budget`. */
export function planMoney(plan: Plan, costs: CostPolicy, budget: Budget): MoneyEstimate {
  return estimateMoney(plan, (step) => {
    const bound = callBound(step, costs, budget);
    return bound.cost === undefined ? { unpriced: bound.unpriced as string } : { cost: bound.cost };
  });
}

/** One call of a model step at worst: its token bounds and their cost, or why a figure is missing. */
export interface CallBound {
  readonly inputTokens: number;
  /** The step's or its provider's max_tokens; undefined when neither sets one. */
  readonly outputTokens: number | undefined;
  readonly cost: number | undefined;
  /** Why `cost` has no figure (no price, or no max_tokens). */
  readonly unpriced: string | undefined;
}

/** A model step of a plan with how often it may run at worst (the count walk's) and one call's bound. */
export interface ModelStepBound extends CallBound {
  readonly step: ModelStep;
  readonly runs: Count;
}

/** The one rule for a model call's worst case before the run: what planMoney sums and the run views show. */
function callBound(step: ModelStep, costs: CostPolicy, budget: Budget): CallBound {
  const costing = costs.providers.get(step.provider);
  const outputTokens = outputTokenBound(step.options, costing);
  const inputTokens = staticInputBound(step, budget);
  const cost = worstCallCost(costing, inputTokens, outputTokens);
  return {
    inputTokens,
    outputTokens,
    cost,
    unpriced: cost === undefined ? unpricedReason(step.provider, costing, outputTokens) : undefined,
  };
}

/** Every model step of `plan` with its worst case, in walk order: planMoney's terms one by one. */
export function modelStepBounds(plan: Plan, costs: CostPolicy, budget: Budget): ModelStepBound[] {
  return [...worstCaseRuns(plan, (step) => step.op === "model")].map(([step, runs]) => ({
    step: step as ModelStep,
    runs,
    ...callBound(step as ModelStep, costs, budget),
  }));
}

/** A plan's worst case in tokens: its model steps' bounds times their runs; output null when some step has no max_tokens. */
export interface TokenEstimate {
  readonly inputTokens: number;
  readonly outputTokens: number | null;
  /** Why the output has no bound, one reason each. */
  readonly unbounded: readonly string[];
}

/** The token sums of modelStepBounds' terms (the money's sum is planMoney's). */
export function planTokenBound(bounds: readonly ModelStepBound[]): TokenEstimate {
  let inputTokens = 0;
  let outputTokens = 0;
  const unbounded: string[] = [];
  for (const bound of bounds) {
    inputTokens += Number(bound.runs) * bound.inputTokens;
    if (bound.outputTokens !== undefined) outputTokens += Number(bound.runs) * bound.outputTokens;
    else {
      const reason = unboundedReason(bound.step.provider);
      if (!unbounded.includes(reason)) unbounded.push(reason);
    }
  }
  return { inputTokens, outputTokens: unbounded.length > 0 ? null : outputTokens, unbounded };
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
