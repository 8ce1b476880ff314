// A refactoring is proved on its result, by the same analysis the editor and `check` run: the
// new text is analysed under the same host profile, and the refactoring is refused when that
// makes a problem the plan did not have (a capability not granted, a name bound twice, a budget
// passed) or changes what the plan may call (its model, tool and context-operation worst case
// and its parallel width). Only the steps and depth a sub-plan adds or removes may change.

import type { Estimate } from "@rlm-plan/core/plan";
import { TextDocument } from "vscode-languageserver-textdocument";
import { analyzePlan, type AnalyzedPlan } from "../analyzedPlan";
import { diagnosticMessage } from "../diagnostics";

/** The figures a refactoring keeps equal. */
const KEPT: readonly (keyof Estimate)[] = ["model_calls", "tool_calls", "context_ops", "parallel_width"];

export type Checked = { readonly after: AnalyzedPlan } | { readonly refused: string };

export function checkRefactoring(plan: AnalyzedPlan, newText: string): Checked {
  const before = plan.document;
  const document = TextDocument.create(before.uri, before.languageId, before.version + 1, newText);
  const after = analyzePlan(document, plan.hostStatus);
  const had = countByCode(plan);
  const now = countByCode(after);
  for (const problem of after.problems) {
    if (problem.severity) continue;
    const code = problem.reason ?? problem.kind;
    if ((now.get(code) ?? 0) > (had.get(code) ?? 0))
      return { refused: `it would make a problem: ${diagnosticMessage(after, problem)}` };
  }
  const old = plan.analysis.estimates?.total;
  const next = after.analysis.estimates?.total;
  if (!old || !next) return { refused: "the plan's worst case could not be computed" };
  for (const field of KEPT) {
    if (String(old[field]) !== String(next[field]))
      return {
        refused: `it would change the worst case's ${field} from ${String(old[field])} to ${String(next[field])}`,
      };
  }
  return { after };
}

/** How many errors (not warnings or hints) of each code a plan has. */
function countByCode(plan: AnalyzedPlan): Map<string, number> {
  const counts = new Map<string, number>();
  for (const problem of plan.problems) {
    if (problem.severity) continue;
    const code = problem.reason ?? problem.kind;
    counts.set(code, (counts.get(code) ?? 0) + 1);
  }
  return counts;
}
