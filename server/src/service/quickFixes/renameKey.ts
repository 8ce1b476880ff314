// Quick fix: an unknown key (or model option, or a field the value's type lacks) renamed to the
// known one the problem suggests.

import type { CodeAction, TextEdit } from "vscode-languageserver-protocol";
import { lspRange } from "../diagnostics";
import { quickFix, tokenAt, type FixContext } from "./fixKit";

export function renameKey({ plan, problem, diagnostic }: FixContext): CodeAction | undefined {
  const token = tokenAt(plan, problem);
  if (problem.suggestion === undefined || token?.type !== "string") return undefined;
  const edit: TextEdit = { range: lspRange(plan.document, token), newText: JSON.stringify(problem.suggestion) };
  const title = `Rename ${JSON.stringify(token.value)} to ${JSON.stringify(problem.suggestion)}`;
  return quickFix(title, diagnostic, { [plan.document.uri]: [edit] }, true);
}
