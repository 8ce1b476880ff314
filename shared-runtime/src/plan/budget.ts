// Plan budgets: the reference's defaults, partial overlays, and the checks on their values.

import { ownValue } from "../json";
import type { Count } from "./count";
import { describe, isPlainObject } from "./normalize";
import { detailText, type PlanProblem } from "./problems";

export interface Budget {
  readonly max_steps: number;
  readonly max_depth: number;
  readonly max_parallel: number;
  readonly max_model_calls: number;
  readonly max_tool_calls: number;
  readonly max_context_ops: number;
  readonly max_output_bytes: number;
  /** Wall time for the whole run, in seconds. */
  readonly time_limit: number;
}

export type BudgetField = keyof Budget;

export const DEFAULT_BUDGET: Budget = Object.freeze({
  max_steps: 64,
  max_depth: 4,
  max_parallel: 8,
  max_model_calls: 8,
  max_tool_calls: 16,
  max_context_ops: 32,
  max_output_bytes: 65536,
  time_limit: 10.0,
});

/** Field order of the reference's value checks; also the order editors list them in. */
export const BUDGET_FIELDS: readonly BudgetField[] = [
  "max_steps",
  "max_depth",
  "max_parallel",
  "max_model_calls",
  "max_tool_calls",
  "max_context_ops",
  "max_output_bytes",
  "time_limit",
];

const POSITIVE: ReadonlySet<BudgetField> = new Set(["max_steps", "max_depth", "max_parallel", "max_output_bytes"]);

/** Whether a worst-case figure is over its budget field; exact for counts beyond 2^53. */
export function exceedsBudget(used: Count, limit: number): boolean {
  // A comparison of a bigint with a number is exact in JavaScript.
  return used > limit;
}

export type BudgetResult =
  { readonly ok: true; readonly budget: Budget } | { readonly ok: false; readonly problems: readonly PlanProblem[] };

/**
 * Resolves "default" or a partial object over the defaults. Problems come in the reference's
 * order: unknown fields (sorted by name), then each field's value in BUDGET_FIELDS order.
 */
export function resolveBudget(value: unknown): BudgetResult {
  if (value === "default" || value === undefined) return { ok: true, budget: DEFAULT_BUDGET };
  if (!isPlainObject(value)) {
    return {
      ok: false,
      problems: [
        budgetProblem(
          "invalid_budget",
          [value],
          `a budget is "default" or an object of budget fields, got ${describe(value)}`,
        ),
      ],
    };
  }
  const problems: PlanProblem[] = [];
  const known = new Set<string>(BUDGET_FIELDS);
  for (const key of Object.keys(value).sort()) {
    if (!known.has(key)) {
      problems.push(
        budgetProblem(
          "unknown_budget_field",
          [key],
          `unknown budget field ${JSON.stringify(key)}: use ${BUDGET_FIELDS.join(", ")}`,
          key,
        ),
      );
    }
  }
  if (problems.length > 0) return { ok: false, problems };
  const budget: Record<string, number> = { ...DEFAULT_BUDGET };
  for (const field of BUDGET_FIELDS) {
    const v = ownValue(value, field);
    if (v === undefined) continue;
    const problem = checkBudgetValue(field, v);
    if (problem) problems.push(problem);
    else budget[field] = v as number;
  }
  return problems.length > 0 ? { ok: false, problems } : { ok: true, budget: budget as unknown as Budget };
}

function checkBudgetValue(field: BudgetField, value: unknown): PlanProblem | undefined {
  if (field === "time_limit") {
    if (typeof value === "number" && Number.isFinite(value) && value > 0) return undefined;
    return budgetProblem(
      "invalid_budget_field",
      [field, value],
      `time_limit must be a positive number of seconds, got ${describe(value)}`,
      field,
    );
  }
  const integer = typeof value === "number" && Number.isInteger(value);
  if (POSITIVE.has(field)) {
    if (integer && value > 0) return undefined;
    return budgetProblem(
      "invalid_positive_integer",
      [field, value],
      `${field} must be a positive integer, got ${describe(value)}`,
      field,
    );
  }
  if (integer && value >= 0) return undefined;
  return budgetProblem(
    "invalid_nonnegative_integer",
    [field, value],
    `${field} must be an integer of 0 or more, got ${describe(value)}`,
    field,
  );
}

function budgetProblem(reason: string, args: readonly unknown[], message: string, field?: string): PlanProblem {
  return {
    phase: "validate",
    kind: "invalid_plan",
    reason,
    detail: detailText(reason, ...args),
    message,
    hostDependent: true,
    ...(field === undefined ? {} : { field }),
  };
}
