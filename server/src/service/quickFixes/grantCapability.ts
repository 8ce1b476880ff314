// Quick fix: a capability the host does not grant is added to the host profile's "capabilities"
// list (created when missing): an edit of that file.

import { modify } from "jsonc-parser";
import { basename } from "node:path";
import type { CodeAction } from "vscode-languageserver-protocol";
import { TextDocument } from "vscode-languageserver-textdocument";
import { lspRange } from "../diagnostics";
import { indentationOf, quickFix, type FixContext } from "./fixKit";

export function grantCapability({ problem, diagnostic, hostProfile }: FixContext): CodeAction | undefined {
  const host = hostProfile();
  const capability = problem.capability;
  if (!host || capability === undefined) return undefined;
  const document = TextDocument.create(host.uri, "json", 0, host.text);
  const edits = modify(host.text, ["capabilities", -1], capability, {
    isArrayInsertion: true,
    formattingOptions: indentationOf(host.text),
  }).map((edit) => ({
    range: lspRange(document, { offset: edit.offset, length: edit.length }),
    newText: edit.content,
  }));
  if (edits.length === 0) return undefined;
  // Never preferred: widening what the host trusts is the user's call, not a one-key fix (and
  // a misspelt provider's preferred fix is the rename to a registered one).
  return quickFix(
    `Grant ${JSON.stringify(capability)} in ${basename(host.profile.file)}`,
    diagnostic,
    { [host.uri]: edits },
    false,
  );
}
