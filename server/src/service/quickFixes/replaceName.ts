// Quick fix: a misspelt name (an operation, action, selector, strategy, transform, reducer or
// reference kind; a variable; a registered tool or provider) becomes the nearest valid one.

import type { LocatedProblem } from "@rlm-plan/core";
import { nearestMatch } from "@rlm-plan/core/text";
import type { CodeAction, Diagnostic, TextEdit } from "vscode-languageserver-protocol";
import type { AnalyzedPlan } from "../analyzedPlan";
import { lspRange } from "../diagnostics";
import { quickFix, tokenAt } from "./fixKit";

/** `what` names the kind of name in the title; `maxDistance` bounds the edit distance accepted. */
export function replaceName(
  plan: AnalyzedPlan,
  problem: LocatedProblem,
  diagnostic: Diagnostic,
  candidates: readonly string[],
  what?: string,
  maxDistance?: number,
): CodeAction | undefined {
  const token = tokenAt(plan, problem);
  if (!token || !["string", "boolean", "null"].includes(token.type)) return undefined;
  const written = token.type === "string" ? String(token.value) : plan.document.getText(lspRange(plan.document, token));
  const limit = maxDistance ?? (what ? Math.max(2, Math.floor(written.length / 2)) : undefined);
  const match = nearestMatch(written, candidates, limit);
  if (match === undefined) return undefined;
  const best = match.name;
  const edit: TextEdit = { range: lspRange(plan.document, token), newText: JSON.stringify(best) };
  const title = what ? `Change to the ${what} ${JSON.stringify(best)}` : `Change to ${JSON.stringify(best)}`;
  return quickFix(title, diagnostic, { [plan.document.uri]: [edit] }, match.clearlyRight);
}
