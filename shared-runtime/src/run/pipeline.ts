// The static half of a run: parse and validate to the first problem (the reference's answer),
// that problem as a structured error and its place in the file, and the budget a run that never
// started reports. startRun.ts is the whole path.

import { resolveBudget, type Budget } from "../plan/budget";
import { countNumber } from "../plan/count";
import { parsePlan, type PlanSource } from "../plan/parse";
import type { PlanProblem } from "../plan/problems";
import { validatePlan, type ValidatedPlan } from "../plan/validate";
import { analyzePlanText } from "../analysis";
import type { SourceRange } from "../text/planDocument";
import type { PlanError } from "./errors";
import type { RunTyping } from "../plan/types/certainTypeErrors";
import type { ToolSignature } from "../plan/toolKnowledge";
import type { RunOutcome } from "./transitions";

export interface PolicyOptions {
  /** Granted capabilities, written as the reference writes them. */
  readonly capabilities: readonly unknown[] | unknown;
  /** "default" or a partial budget object. */
  readonly budget?: unknown;
  /**
   * What the run's preflight types the plan by (a host profile's tools, inputs and providers;
   * MCP tools as the preflight listed them): a certain type problem is refused before the first
   * step. Left out, nothing is typed.
   */
  readonly typing?: (listing: ToolListing | undefined) => RunTyping;
}

/** MCP tools as a preflight listed them (runContract's McpListing, named here without importing it). */
export interface ToolListing {
  readonly tools: ReadonlyMap<string, ToolSignature>;
  readonly failures: ReadonlyMap<string, string>;
}

export type CheckResult =
  | { readonly ok: true; readonly validated: ValidatedPlan }
  | {
      readonly ok: false;
      readonly error: PlanError;
      /** The plan's budget, when validation got that far. */
      readonly budget?: Budget;
      /** The policy's budget, when it resolves. */
      readonly policyBudget?: Budget;
    };

/** Parse and validate, stopping at the first problem (the reference's answer). */
export function checkPlan(source: PlanSource, policy: PolicyOptions): CheckResult {
  const parsed = parsePlan(source);
  const policyBudget = resolvedBudget(policy.budget);
  const failed = (error: PlanError, budget?: Budget): CheckResult => ({
    ok: false,
    error,
    ...(budget ? { budget } : {}),
    ...(policyBudget ? { policyBudget } : {}),
  });
  if (!parsed.plan) return failed(problemError(parsed.problems[0]));
  const validation = validatePlan(parsed.plan, { capabilities: policy.capabilities ?? [], budget: policy.budget });
  if (!validation.ok) {
    return failed(problemError(validation.problems[0]), validation.budget);
  }
  return { ok: true, validated: validation.validated };
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

/**
 * Where a static problem is in a plan file: the editor's analysis holds the same problem,
 * located (syntax errors have no JSON path, so the analysis is the one source of ranges).
 */
export function planLocation(source: PlanSource, error: PlanError, policy: PolicyOptions): SourceRange | undefined {
  if (source.kind !== "document") return undefined;
  const analysis = analyzePlanText(
    source.text,
    { capabilities: policy.capabilities, budget: policy.budget },
    source.document,
  );
  const match = analysis.problems.find((p) => p.kind === error.kind && p.message === error.message);
  return match?.range;
}

/** Nothing ran: the whole budget remains, or zeros when the budget itself was invalid. */
export function notStarted(budget: Budget | undefined): RunOutcome["budget_remaining"] {
  return {
    steps: budget?.max_steps ?? 0,
    model_calls: budget?.max_model_calls ?? 0,
    tool_calls: budget?.max_tool_calls ?? 0,
    context_ops: budget?.max_context_ops ?? 0,
    output_bytes: budget?.max_output_bytes ?? 0,
  };
}
