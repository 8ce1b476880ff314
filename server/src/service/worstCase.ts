// A plan's worst case against the budget in force, as figures and rows: the one answer the code
// lens's title and the client's `rlmPlan/worstCase` request (the VS Code status bar) are built
// from, so no client parses the lens's text.

import { DEFAULT_BUDGET, type Count, type Estimate } from "@rlm-plan/core";
import type { AnalyzedPlan } from "./analyzedPlan";
import { modelOf } from "./planNames";
import type { WireCount, WorstCaseRequest } from "../protocol";

/** The figures a lens shows, in order, with its short labels; `always` ones show even when zero. */
const LENS_FIGURES: readonly { readonly label: string; readonly figure: keyof Estimate; readonly always: boolean }[] = [
  { label: "steps", figure: "steps", always: true },
  { label: "models", figure: "model_calls", always: false },
  { label: "tools", figure: "tool_calls", always: false },
  { label: "context ops", figure: "context_ops", always: false },
  { label: "width", figure: "parallel_width", always: false },
  { label: "depth", figure: "depth", always: true },
];

/** The sign the lens puts after a figure over its limit. */
export const OVER_LIMIT_MARK = "⚠";

/** Only for a plan that was read completely: a partial plan's estimate would understate it. */
export function worstCase(plan: AnalyzedPlan, hostProfile: string | null): WorstCaseRequest.Result | null {
  const model = modelOf(plan);
  const unreadable = plan.analysis.problems.some((p) => p.phase === "parse" || p.phase === "normalize");
  if (!model || unreadable) return null;
  const estimate = model.total;
  const budget = model.budget ?? (plan.host ? undefined : DEFAULT_BUDGET);
  const costRows = model.rows(estimate, budget) ?? [];
  const rows = costRows.map(({ field, label, estimate: used, limit, over }) => ({
    field,
    label,
    estimate: wireCount(used),
    limit,
    over,
  }));
  const figures = LENS_FIGURES.filter(({ figure, always }) => always || estimate[figure] > 0).map(
    ({ label, figure }) => {
      const row = costRows.find((r) => r.figure === figure);
      return {
        label,
        figure,
        estimate: wireCount(estimate[figure]),
        limit: row?.limit ?? null,
        over: row?.over ?? false,
      };
    },
  );
  const title = figures
    .map(({ label, estimate: used, limit, over }) =>
      limit === null ? `${label} ${used}` : `${label} ${used}/${limit}${over ? ` ${OVER_LIMIT_MARK}` : ""}`,
    )
    .join(" · ");
  return {
    uri: plan.document.uri,
    title,
    over: figures.some((f) => f.over),
    figures,
    rows,
    budget: budget === undefined ? "none" : plan.host ? "host" : "default",
    hostProfile,
  };
}

function wireCount(count: Count): WireCount {
  return typeof count === "bigint" ? count.toString() : count;
}
