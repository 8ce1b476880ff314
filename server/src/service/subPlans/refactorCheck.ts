// A refactoring is proved on its result, by the same analysis the editor and `check` run: the
// new text is analysed under the same host profile, and the refactoring is refused when that
// makes a problem the plan did not have (a capability not granted, a name bound twice, a budget
// passed) or changes what the plan may call (its model, tool and context-operation worst case
// and its parallel width). Only the steps and depth a sub-plan adds or removes may change.

import type { LocatedProblem } from "@rlm-plan/core";
import type { Estimate } from "@rlm-plan/core/plan";
import { TextDocument } from "vscode-languageserver-textdocument";
import { analyzePlan, type AnalyzedPlan } from "../analyzedPlan";
import { diagnosticMessage } from "../diagnostics";

/** The figures a refactoring keeps equal. */
const KEPT: readonly (keyof Estimate)[] = ["model_calls", "tool_calls", "context_ops", "parallel_width"];

export type Checked = { readonly after: AnalyzedPlan } | { readonly refused: string };

/**
 * `newText` analysed in `plan`'s place; refused when it has an error `plan` did not, or (unless
 * `sameWorstCase` is false: a delete, a retry) changes what the plan may call.
 */
export function checkRefactoring(plan: AnalyzedPlan, newText: string, options = { sameWorstCase: true }): Checked {
  const before = plan.document;
  const document = TextDocument.create(before.uri, before.languageId, before.version + 1, newText);
  const after = analyzePlan(document, plan.hostStatus);
  const had = countErrors(plan);
  const now = countErrors(after);
  for (const problem of after.problems) {
    const key = errorKey(problem);
    if (key !== undefined && (now.get(key) ?? 0) > (had.get(key) ?? 0))
      return { refused: `it would make a problem: ${diagnosticMessage(after, problem)}` };
  }
  if (!options.sameWorstCase) return { after };
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

/**
 * An error by code and message (a warning or hint is none): a problem the plan had stays the same
 * when its steps move, and one made worse (a depth of 6 where it was 5) reads differently.
 */
function errorKey(problem: LocatedProblem): string | undefined {
  return problem.severity ? undefined : `${problem.reason ?? problem.kind}: ${problem.message}`;
}

/** How many of each error a plan has. */
function countErrors(plan: AnalyzedPlan): Map<string, number> {
  const counts = new Map<string, number>();
  for (const problem of plan.problems) {
    const key = errorKey(problem);
    if (key !== undefined) counts.set(key, (counts.get(key) ?? 0) + 1);
  }
  return counts;
}
