// Quick fix: the budget field the worst case exceeds is raised to the worst case, in the host
// profile. A host's decision, so an offer, never preferred; the other way out, cutting steps, is
// the hover's.

import { ESTIMATE_LIMITS } from "@rlm-plan/core/plan";
import { modify } from "jsonc-parser";
import { basename } from "node:path";
import type { CodeAction } from "vscode-languageserver-protocol";
import { TextDocument } from "vscode-languageserver-textdocument";
import { lspRange } from "../diagnostics";
import { indentationOf, quickFix, type FixContext } from "./fixKit";

export function raiseBudget({ problem, diagnostic, hostProfile }: FixContext): CodeAction | undefined {
  const host = hostProfile();
  const field = ESTIMATE_LIMITS.find((limit) => limit.name === problem.budget)?.field;
  const estimated = problem.estimated;
  if (!host || field === undefined || estimated === undefined || !Number.isSafeInteger(estimated)) return undefined;
  const document = TextDocument.create(host.uri, "json", 0, host.text);
  const edits = modify(host.text, ["budget", field], estimated, { formattingOptions: indentationOf(host.text) }).map(
    (edit) => ({ range: lspRange(document, { offset: edit.offset, length: edit.length }), newText: edit.content }),
  );
  if (edits.length === 0) return undefined;
  return quickFix(
    `Raise ${field} to ${estimated} in ${basename(host.profile.file)}`,
    diagnostic,
    { [host.uri]: edits },
    false,
  );
}
