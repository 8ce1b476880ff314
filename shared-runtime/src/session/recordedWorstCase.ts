// A recorded run's static worst case in tokens and money, and the steps its approval rules can
// hold, for the run browser's run page and the HTML export: the plan's text and host profile as
// the journal recorded them, read as a session reads them (readHostProfile, analysisPolicy) and
// estimated by the core's rules (the analysis's money, as `rlm-plan estimate` has it;
// modelStepBounds for tokens and each model step; approvalForecast, as `check` and the graph have
// it), under the budget the run recorded. A figure that cannot be known comes with its reason,
// never as 0.

import { analyzePlanText, type AnalysisPolicy } from "../analysis";
import type { RunDetail } from "../journal/queries";
import { pointer } from "../json";
import type { Budget } from "../plan/budget";
import { DEFAULT_CURRENCY, roundMoney, type CostPolicy } from "../plan/modelCost";
import { modelStepBounds, planTokenBound } from "../plan/planMoney";
import { approvalForecast, type ApprovalForecast } from "../host/approvalSteps";
import { analysisPolicy } from "./analysisPolicy";
import { readHostProfile } from "./hostProfiles";

/** A model step's static worst case: its calls at worst times one call's bounds. */
export interface StepWorstCase {
  /** How many calls it may make at worst (a retry's attempts, ...). */
  readonly runs: number;
  readonly inputTokens: number;
  /** null: no max_tokens bounds its output (see reason). */
  readonly outputTokens: number | null;
  /** In the run's currency; null when unknown (see reason). */
  readonly cost: number | null;
  readonly reason: string | null;
}

/**
 * A run's static worst case in tokens and money, from its plan and host profile as recorded: a
 * null figure is unknown, and its reason says why; never 0 for unknown.
 */
export interface RunWorstCase {
  readonly currency: string;
  /** Why there is no worst case at all (no plan text recorded, ...); null when there is one. */
  readonly unknown: string | null;
  /** How many model steps the plan has (0: it calls no model, tokens and money are 0). */
  readonly modelSteps: number;
  readonly inputTokens: number | null;
  readonly outputTokens: number | null;
  readonly tokensReason: string | null;
  readonly cost: number | null;
  readonly costReason: string | null;
  /** The host profile's budget.max_cost, if it has one. */
  readonly maxCost: number | null;
}

/** The run's worst case, and each model step's (by pointer). */
export function recordedWorstCase(run: RunDetail): {
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

/**
 * The steps of the run's plan that approval rules of its recorded host profile can hold (the
 * marks of its graph); undefined without a recorded plan, profile or rule.
 */
export function recordedApprovalForecast(run: RunDetail): ApprovalForecast | undefined {
  if (run.planText === null || run.hostText === null) return undefined;
  const read = readHostProfile(run.hostFile ?? "rlmplan.host.json", run.hostText);
  const rules = read.ok ? read.profile.approvals : undefined;
  if (!read.ok || !rules || rules.length === 0) return undefined;
  const policy = analysisPolicy(read.profile);
  const recorded = run.details["budget"];
  const budget = typeof recorded === "object" && recorded !== null ? recorded : policy.budget;
  const analysis = analyzePlanText(run.planText, { budget, costs: policy.costs });
  if (!analysis.plan) return undefined;
  const money =
    policy.costs && analysis.budget ? { costs: policy.costs, budget: analysis.budget as Budget } : undefined;
  return approvalForecast(analysis.plan, rules, money);
}
