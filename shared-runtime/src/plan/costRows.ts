// The one comparison of a worst case with a budget: a row per limited figure, in the
// reference's check order. The validator's budget_exceeded problems, hover, code lens, inlay
// hints, `rlm-plan estimate` and `propose`, and the host-profile template all read these rows.

import { exceedsBudget, type Budget, type BudgetField } from "./budget";
import { ESTIMATE_LIMITS, type Count, type Estimate } from "./estimate";

export interface CostRow {
  /** The reference's name of the budget: steps, depth, parallel, model_calls, ... */
  readonly name: (typeof ESTIMATE_LIMITS)[number]["name"];
  readonly figure: keyof Estimate;
  readonly field: BudgetField;
  /** "steps", "parallel width", "context operations", ... */
  readonly label: string;
  /** Exact: a bigint beyond 2^53. */
  readonly estimate: Count;
  readonly limit: number;
  /** The worst case goes over the limit. */
  readonly over: boolean;
}

export function costRows(estimate: Estimate, budget: Budget): CostRow[] {
  return ESTIMATE_LIMITS.map(({ name, figure, field, label }) => {
    const used = estimate[figure];
    const limit = budget[field];
    return { name, figure, field, label, estimate: used, limit, over: exceedsBudget(used, limit) };
  });
}
