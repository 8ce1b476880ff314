// Code lenses above the plan: "▶ Run plan" (the client's own run command when it has one, else
// the server's RunInEditorCommand, with the document URI) and the whole plan's worst case against the budget in force,
// "steps 12/64 · tools 5/16 · depth 2/4". Counters the plan never uses are left out; a figure
// over its limit is marked.

import { DEFAULT_BUDGET, type Estimate } from "@rlm-plan/core";
import type { CodeLens } from "vscode-languageserver-protocol";
import type { AnalyzedPlan } from "./analyzedPlan";
import { lspRange, planStart } from "./diagnostics";
import { modelOf } from "./planNames";
import { RunInEditorCommand, RunPlanClientCommand } from "../protocol";

/** The figures a lens shows, in order, with its short labels; `always` ones show even when zero. */
const LENS_FIGURES: readonly { readonly label: string; readonly figure: keyof Estimate; readonly always: boolean }[] = [
  { label: "steps", figure: "steps", always: true },
  { label: "models", figure: "model_calls", always: false },
  { label: "tools", figure: "tool_calls", always: false },
  { label: "context ops", figure: "context_ops", always: false },
  { label: "width", figure: "parallel_width", always: false },
  { label: "depth", figure: "depth", always: true },
];

export function codeLenses(plan: AnalyzedPlan, clientRunsPlans = false): CodeLens[] {
  // A lens needs only the plan's opening brace: no tree is parsed for it.
  const start = planStart(plan.document.getText());
  if (!start) return [];
  const range = lspRange(plan.document, start);
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
  const model = modelOf(plan);
  const unreadable = plan.analysis.problems.some((p) => p.phase === "parse" || p.phase === "normalize");
  if (!model || unreadable) return undefined;
  const estimate = model.total;
  const rows = model.rows(estimate, model.budget ?? (plan.host ? undefined : DEFAULT_BUDGET));
  return LENS_FIGURES.filter(({ figure, always }) => always || estimate[figure] > 0)
    .map(({ label, figure }) => {
      const row = rows?.find((r) => r.figure === figure);
      return row ? `${label} ${row.estimate}/${row.limit}${row.over ? " ⚠" : ""}` : `${label} ${estimate[figure]}`;
    })
    .join(" · ");
}
