// The whole path a host takes: parse, validate, preflight, execute, reporting the first
// problem of the first phase that fails, as the reference does.

import { resolveBudget, type Budget } from "../plan/budget";
import { countNumber } from "../plan/count";
import { parsePlan, type PlanSource } from "../plan/parse";
import type { PlanProblem } from "../plan/problems";
import { validatePlan, type ValidatedPlan } from "../plan/validate";
import type { PlanError } from "./errors";
import type { RunHost } from "./host";
import { executePlan, type ExecuteOptions } from "./interpreter";
import type { RunOutcome } from "./transitions";

export interface PolicyOptions {
  /** Granted capabilities, written as the reference writes them. */
  readonly capabilities: readonly unknown[] | unknown;
  /** "default" or a partial budget object. */
  readonly budget?: unknown;
}

export type CheckResult =
  | { readonly ok: true; readonly validated: ValidatedPlan }
  | { readonly ok: false; readonly error: PlanError; readonly budget?: Budget };

/** Parse and validate, stopping at the first problem (the reference's answer). */
export function checkPlan(source: PlanSource, policy: PolicyOptions): CheckResult {
  const parsed = parsePlan(source);
  if (!parsed.plan) return { ok: false, error: problemError(parsed.problems[0]) };
  const validation = validatePlan(parsed.plan, { capabilities: policy.capabilities ?? [], budget: policy.budget });
  if (!validation.ok) {
    const error = problemError(validation.problems[0]);
    return validation.budget ? { ok: false, error, budget: validation.budget } : { ok: false, error };
  }
  return { ok: true, validated: validation.validated };
}

export async function runPlan(
  source: PlanSource,
  policy: PolicyOptions,
  host: RunHost,
  options: ExecuteOptions = {},
): Promise<RunOutcome> {
  const checked = checkPlan(source, policy);
  if (!checked.ok)
    return {
      ok: false,
      error: checked.error,
      transitions: [],
      checkpoints: [],
      budget_remaining: notStarted(checked.budget ?? resolvedBudget(policy.budget)),
    };
  return executePlan(checked.validated, host, options);
}

/** A problem as the structured error a run reports: no source positions, only plan facts. */
export function problemError(problem: PlanProblem | undefined): PlanError {
  if (!problem) return { phase: "validate", kind: "invalid_plan", message: "the plan is invalid" };
  const { phase, kind, message } = problem;
  const error: Record<string, PlanError[string]> = { phase, kind, message };
  for (const key of ["detail", "capability", "budget", "limit", "value_shape", "field"] as const) {
    const value = problem[key];
    if (value !== undefined) error[key] = value;
  }
  // A run's error is plain JSON: the nearest number (the message has the exact figure).
  if (problem.estimated !== undefined) error.estimated = countNumber(problem.estimated);
  if (problem.reason !== undefined) error.reason = problem.reason;
  if (problem.path !== undefined) error.path = [...problem.path];
  return error as PlanError;
}

function resolvedBudget(value: unknown): Budget | undefined {
  const result = resolveBudget(value);
  return result.ok ? result.budget : undefined;
}

/** Nothing ran: the whole budget remains, or zeros when the budget itself was invalid. */
function notStarted(budget: Budget | undefined): RunOutcome["budget_remaining"] {
  return {
    steps: budget?.max_steps ?? 0,
    model_calls: budget?.max_model_calls ?? 0,
    tool_calls: budget?.max_tool_calls ?? 0,
    context_ops: budget?.max_context_ops ?? 0,
    output_bytes: budget?.max_output_bytes ?? 0,
  };
}
