// A model's reply read as a proposed plan: the one JSON object in it (decoded as JSON only),
// pretty-printed, then validated against the host's policy, with every problem placed at a line
// and column of the reply (nothing decodable) or of the pretty-printed plan.

import { analyzePlanText } from "../analysis";
import { lineColumn } from "../text/lineColumn";
import type { Budget } from "../plan/budget";
import type { Estimate } from "../plan/estimate";
import { locatePlanInReply, parsePlan } from "../plan/parse";
import type { PlanProblem } from "../plan/problems";
import { validatePlan, type ValidatedPlan } from "../plan/validate";
import type { PolicyOptions } from "../run/pipeline";

export interface ProposalProblem {
  /** 1-based, in the text named by the proposal's `where`. */
  readonly line: number;
  readonly column: number;
  readonly phase: string;
  readonly kind: string;
  /** The reason (unbound_variable, ...) or else the kind (capability_denied, ...). */
  readonly code: string;
  readonly message: string;
  /** For budget_exceeded: which limit (steps, depth, model_calls, ...). */
  readonly budget?: string;
}

export type Proposal =
  | { readonly ok: true; readonly planText: string; readonly validated: ValidatedPlan }
  | {
      readonly ok: false;
      /** "reply": no JSON object could be read, problems are placed in the reply. */
      readonly where: "reply" | "plan";
      readonly planText: string | undefined;
      readonly problems: readonly ProposalProblem[];
      readonly estimate: Estimate | undefined;
      readonly budget: Budget | undefined;
    };

export function readProposal(reply: string, policy: PolicyOptions): Proposal {
  const parsed = parsePlan({ kind: "model", text: reply });
  const located = locatePlanInReply(reply);
  const object = located.ok ? located.value : undefined;
  if (object === undefined) {
    const problems = parsed.problems.map((problem) => placed(reply, problem.offset ?? 0, problem));
    return { ok: false, where: "reply", planText: undefined, problems, estimate: undefined, budget: undefined };
  }
  const planText = `${JSON.stringify(object, null, 2)}\n`;
  const checked = { capabilities: policy.capabilities ?? [], budget: policy.budget };
  if (parsed.plan) {
    const validation = validatePlan(parsed.plan, checked);
    if (validation.ok) return { ok: true, planText, validated: validation.validated };
  }
  const analysis = analyzePlanText(planText, checked);
  const problems = analysis.problems
    .map((problem) => placed(planText, problem.range.offset, problem))
    .sort((a, b) => a.line - b.line || a.column - b.column);
  return {
    ok: false,
    where: "plan",
    planText,
    problems:
      problems.length > 0
        ? problems
        : [
            {
              line: 1,
              column: 1,
              phase: "validate",
              kind: "invalid_plan",
              code: "invalid_plan",
              message: "the plan is invalid",
            },
          ],
    estimate: analysis.estimates?.total,
    budget: analysis.budget,
  };
}

function placed(text: string, offset: number, problem: PlanProblem): ProposalProblem {
  const { line, character } = lineColumn(text, offset);
  return {
    line: line + 1,
    column: character + 1,
    phase: problem.phase,
    kind: problem.kind,
    code: problem.reason ?? problem.kind,
    message: problem.message,
    ...(problem.budget !== undefined ? { budget: problem.budget } : {}),
  };
}
