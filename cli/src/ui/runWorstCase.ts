// A recorded run's static worst case in tokens and money, for its page and its HTML export: the
// plan's text and host profile as the journal recorded them, read through the session's door
// (readHostProfile, analysisPolicy) and estimated by the core's rules (analyzePlanText's money,
// as `rlm-plan estimate` has it; modelStepBounds for tokens and each model step), under the budget
// the run recorded. A figure that cannot be known comes with its reason, never as 0.

import { analyzePlanText, type AnalysisPolicy } from "@rlm-plan/core/analysis";
import type { RunDetail } from "@rlm-plan/core/journal";
import { pointer } from "@rlm-plan/core/json";
import {
  DEFAULT_CURRENCY,
  modelStepBounds,
  planTokenBound,
  roundMoney,
  type Budget,
  type CostPolicy,
} from "@rlm-plan/core/plan";
import { analysisPolicy, readHostProfile } from "@rlm-plan/core/session";
import type { RunWorstCase, StepWorstCase } from "./uiApi";

/** The run's worst case, and each model step's (by pointer). */
export function runWorstCase(run: RunDetail): {
  readonly run: RunWorstCase;
  readonly steps: ReadonlyMap<string, StepWorstCase>;
} {
  const none = (reason: string) => ({ run: unknownCase(reason), steps: new Map<string, StepWorstCase>() });
  if (run.planText === null) return none("the journal holds no text of the plan");
  let policy: AnalysisPolicy = {};
  let noPrices: string | undefined = "the run had no host profile, so no prices";
  if (run.hostDigest !== null && run.hostText === null) return none("the journal holds no text of the host profile");
  if (run.hostText !== null) {
    const read = readHostProfile(run.hostFile ?? "rlmplan.host.json", run.hostText);
    if (!read.ok) return none(`the recorded host profile does not read: ${read.errors[0]?.message ?? "invalid"}`);
    policy = analysisPolicy(read.profile);
    noPrices = undefined;
  }
  const costs: CostPolicy = policy.costs ?? { currency: DEFAULT_CURRENCY, providers: new Map() };
  // The budget the run ran under (the profile's, or --budget's): max_output_bytes bounds a prompt.
  const recorded = run.details["budget"];
  const budget = typeof recorded === "object" && recorded !== null ? recorded : policy.budget;
  const analysis = analyzePlanText(run.planText, { budget, costs });
  if (!analysis.plan || !analysis.budget || !analysis.money) return none("the recorded plan does not read as a plan");
  const bounds = modelStepBounds(analysis.plan, costs, analysis.budget as Budget);
  const tokens = planTokenBound(bounds);
  const money = analysis.money;
  // A plan that calls no model costs nothing, priced or not.
  const moneyReason =
    bounds.length === 0 ? null : (noPrices ?? (money.unpriced.length > 0 ? money.unpriced.join("; ") : null));
  const steps = new Map<string, StepWorstCase>();
  for (const bound of bounds) {
    const runs = Number(bound.runs);
    steps.set(pointer(bound.step.path), {
      runs,
      inputTokens: runs * bound.inputTokens,
      outputTokens: bound.outputTokens === undefined ? null : runs * bound.outputTokens,
      cost: noPrices === undefined && bound.cost !== undefined ? roundMoney(runs * bound.cost) : null,
      reason: noPrices ?? bound.unpriced ?? null,
    });
  }
  return {
    run: {
      currency: money.currency,
      unknown: null,
      modelSteps: bounds.length,
      inputTokens: tokens.inputTokens,
      outputTokens: tokens.outputTokens,
      tokensReason: tokens.unbounded.length > 0 ? tokens.unbounded.join("; ") : null,
      cost: moneyReason === null ? money.cost : null,
      costReason: moneyReason,
      maxCost: money.maxCost ?? null,
    },
    steps,
  };
}

function unknownCase(reason: string): RunWorstCase {
  return {
    currency: DEFAULT_CURRENCY,
    unknown: reason,
    modelSteps: 0,
    inputTokens: null,
    outputTokens: null,
    tokensReason: reason,
    cost: null,
    costReason: reason,
    maxCost: null,
  };
}
