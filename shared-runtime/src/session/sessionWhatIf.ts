// A plan session's what-if: its plan now against the same file at a git base, under the session's
// host profile (which decides where each tool leads, what a model call costs and which steps can
// need approval). `check --against` asks it per plan; the language server, which keeps its own
// analyses, asks the same parts (whatIfDelta(), whatIfHost(), gitBase.ts).

import type { AnalysisPolicy } from "../analysis";
import { readBaseVersionSync } from "../host/gitBase";
import { toolServerOf } from "../host/mcp/spec";
import { approvalForecast, approvalStepText } from "../host/approvalSteps";
import type { HostProfile } from "../host/profile";
import { resolveBudget } from "../plan/budget";
import { planMoney } from "../plan/planMoney";
import { planReachOfText, whatIfDelta, type ReachHost, type WhatIfDelta } from "../plan/whatIf";
import type { PlanSession } from "./planSession";

export {
  baseEntry,
  baseRefProblem,
  readBlob,
  resolveBaseCommit,
  type BaseEntry,
  type BaseVersion,
} from "../host/gitBase";
export { toolServerOf } from "../host/mcp/spec";

/** The delta, or why there is none (the base could not be read, or the plan now holds no plan). */
export type SessionWhatIf =
  { readonly ok: true; readonly delta: WhatIfDelta } | { readonly ok: false; readonly message: string };

/**
 * What a what-if reads of the host profile under `policy` (the analysis policy built from it):
 * where tools lead; the worst case in money by the one money rule, only when the profile prices a
 * provider (and its budget, which bounds computed prompts, is valid); the steps that can need
 * approval by the one forecast, only when it has rules.
 */
export function whatIfHost(profile: HostProfile, policy: AnalysisPolicy): ReachHost {
  const costs = policy.costs;
  const budget = resolveBudget(policy.budget);
  const priced = costs !== undefined && [...costs.providers.values()].some((costing) => costing.price !== undefined);
  const rules = profile.approvals ?? [];
  return {
    serverOf: toolServerOf(profile),
    ...(priced && budget.ok
      ? { money: (plan) => ({ ...planMoney(plan, costs, budget.budget), currency: costs.currency }) }
      : {}),
    ...(rules.length > 0
      ? {
          approvals: (plan) => {
            const forecast = approvalForecast(plan, rules);
            return {
              steps: forecast.steps.map((step) => `${approvalStepText(step)} ${step.capability}`),
              worstCase: forecast.worstCase,
            };
          },
        }
      : {}),
  };
}

/** The session's plan against its file at `commit` (a full id from resolveBaseCommit()). */
export function sessionWhatIf(session: PlanSession, commit: string): SessionWhatIf {
  if (session.file === undefined || session.text === undefined)
    return { ok: false, message: "this session has no plan file" };
  const host = session.profile ? whatIfHost(session.profile, session.policy) : undefined;
  const head = planReachOfText(session.text, host);
  if (!head) return { ok: false, message: "the plan cannot be read, so it is not compared" };
  const base = readBaseVersionSync(commit, session.file);
  if (base.kind === "error") return { ok: false, message: `cannot read the base version: ${base.message}` };
  if (base.kind === "absent") return { ok: true, delta: whatIfDelta("new", head) };
  return { ok: true, delta: whatIfDelta(planReachOfText(base.text, host) ?? "unreadable", head) };
}
