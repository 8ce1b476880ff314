// What hover says of approvals (docs/approvals.md): on a step that a rule of the host profile
// can hold, that it can need approval, by whom, and how often at worst; on the plan, the
// worst-case number of approvals. The core's forecast (host/approvalSteps.ts), never a rule here.

import { planApprovalForecast } from "./approvalForecast";
import type { AnalyzedPlan } from "./analyzedPlan";

/** "**Needs approval** (rule 0 of `rlmplan.host.json`): 1 of alice, bob; at worst 3 times", or undefined. */
export function stepApprovalLine(plan: AnalyzedPlan, stepPath: readonly (string | number)[]): string | undefined {
  const forecast = planApprovalForecast(plan);
  const step = forecast?.steps.find(
    (s) => s.path.length === stepPath.length && s.path.every((p, i) => p === stepPath[i]),
  );
  if (!step || !plan.host) return undefined;
  const when = step.condition !== undefined ? ` when ${step.condition}` : "";
  const times = String(step.worstCase);
  return `**Needs approval**${when} (rule ${step.rule} of \`${plan.host.fileName}\`): ${step.quorum} of ${step.approvers.join(", ")}; at worst ${times} time${times === "1" ? "" : "s"}`;
}

/** "**Approvals:** at worst 4 (2 steps can need approval)", or undefined. */
export function planApprovalLine(plan: AnalyzedPlan): string | undefined {
  const forecast = planApprovalForecast(plan);
  if (!forecast || forecast.steps.length === 0) return undefined;
  const n = forecast.steps.length;
  return `**Approvals:** at worst ${String(forecast.worstCase)} (${n} step${n === 1 ? "" : "s"} can need approval)`;
}
