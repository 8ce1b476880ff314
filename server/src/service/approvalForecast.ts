// The plan's approval forecast under its host profile (docs/approvals.md): the core's
// (host/approvalSteps.ts), with the profile's prices and the plan's budget, for hover and the
// plan graph alike.

import { DEFAULT_BUDGET } from "@rlm-plan/core";
import { approvalForecast, type ApprovalForecast } from "@rlm-plan/core/session";
import type { AnalyzedPlan } from "./analyzedPlan";

/** Undefined without a profile with rules, or without a plan. */
export function planApprovalForecast(plan: AnalyzedPlan): ApprovalForecast | undefined {
  const rules = plan.host?.approvals ?? [];
  const parsed = plan.analysis.plan;
  const costs = plan.host?.policy.costs;
  const money = costs ? { costs, budget: plan.analysis.budget ?? DEFAULT_BUDGET } : undefined;
  return rules.length > 0 && parsed ? approvalForecast(parsed, rules, money) : undefined;
}
