// Quick fix: an unknown key's whole member removed with one comma next to it (what the runtime
// does with it anyway), the rest of the object left as it is written.

import type { CodeAction, TextEdit } from "vscode-languageserver-protocol";
import { lspRange } from "../diagnostics";
import { quickFix, tokenAt, type FixContext } from "./fixKit";

export function removeKey({ plan, problem, diagnostic }: FixContext): CodeAction | undefined {
  const member = tokenAt(plan, problem)?.parent;
  const siblings = member?.type === "property" ? (member.parent?.children ?? []) : [];
  const index = member ? siblings.indexOf(member) : -1;
  if (!member || index < 0) return undefined;
  const before = siblings[index - 1];
  const after = siblings[index + 1];
  const start = before ? before.offset + before.length : member.offset;
  const end = before || !after ? member.offset + member.length : after.offset;
  const edit: TextEdit = { range: lspRange(plan.document, { offset: start, length: end - start }), newText: "" };
  const title = `Remove ${JSON.stringify(member.children?.[0]?.value)}`;
  return quickFix(title, diagnostic, { [plan.document.uri]: [edit] }, false);
}
