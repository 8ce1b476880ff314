// Code lenses above the plan: "▶ Run plan" (the client's own run command when it has one, else
// the server's RunInEditorCommand, with the document URI) and the whole plan's worst case against the budget in force,
// "steps 12/64 · tools 5/16 · depth 2/4". Counters the plan never uses are left out; a figure
// over its limit is marked.

import { DEFAULT_BUDGET, type Budget, type Estimate } from "@rlm-plan/shared-runtime";
import type { CodeLens } from "vscode-languageserver";
import type { AnalyzedPlan } from "./analyzedPlan";
import { lspRange } from "./diagnostics";
import { RunInEditorCommand, RunPlanClientCommand } from "./protocol";

/** The figures a lens shows, in order; `always` ones show even when zero. */
const LENS_FIGURES: readonly {
  readonly label: string;
  readonly figure: keyof Estimate;
  readonly limit: keyof Budget;
  readonly always: boolean;
}[] = [
  { label: "steps", figure: "steps", limit: "max_steps", always: true },
  { label: "models", figure: "model_calls", limit: "max_model_calls", always: false },
  { label: "tools", figure: "tool_calls", limit: "max_tool_calls", always: false },
  { label: "context ops", figure: "context_ops", limit: "max_context_ops", always: false },
  { label: "width", figure: "parallel_width", limit: "max_parallel", always: false },
  { label: "depth", figure: "depth", limit: "max_depth", always: true },
];

export function codeLenses(plan: AnalyzedPlan, clientRunsPlans = false): CodeLens[] {
  const root = plan.tree;
  if (root?.type !== "object") return [];
  const range = lspRange(plan.document, { offset: root.offset, length: 1 });
  const lenses: CodeLens[] = [
    {
      range,
      command: {
        title: "▶ Run plan",
        command: clientRunsPlans ? RunPlanClientCommand.command : RunInEditorCommand.command,
        arguments: [plan.document.uri],
      },
    },
  ];
  const worstCase = worstCaseTitle(plan);
  if (worstCase) lenses.push({ range, command: { title: worstCase, command: "" } });
  return lenses;
}

/** Only for a plan that was read completely: a partial plan's estimate would understate it. */
function worstCaseTitle(plan: AnalyzedPlan): string | undefined {
  const estimate = plan.analysis.estimates?.total;
  const unreadable = plan.analysis.problems.some((p) => p.phase === "parse" || p.phase === "normalize");
  if (!estimate || unreadable) return undefined;
  const budget = plan.analysis.budget ?? (plan.host ? undefined : DEFAULT_BUDGET);
  return LENS_FIGURES.filter(({ figure, always }) => always || estimate[figure] > 0)
    .map(({ label, figure, limit }) => {
      const used = estimate[figure];
      if (!budget) return `${label} ${used}`;
      const max = budget[limit];
      return `${label} ${used}/${max}${used > max ? " ⚠" : ""}`;
    })
    .join(" · ");
}
