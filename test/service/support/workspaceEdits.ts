// Applying what the server answers (text edits, workspace edits) to texts, as an editor would,
// so tests compare whole documents: the input, the action, the expected output.

import type { TextEdit, WorkspaceEdit } from "vscode-languageserver-protocol";
import { TextDocument } from "vscode-languageserver-textdocument";

export function applyTextEdits(text: string, edits: readonly TextEdit[]): string {
  return TextDocument.applyEdits(TextDocument.create("file:///edited", "json", 1, text), [...edits]);
}

/** Every file a workspace edit changes, by URI, after the edit; `texts` holds their texts before. */
export function applyWorkspaceEdit(
  texts: Readonly<Record<string, string>>,
  edit: WorkspaceEdit,
): Record<string, string> {
  const result: Record<string, string> = {};
  for (const [uri, edits] of Object.entries(edit.changes ?? {})) {
    const before = texts[uri];
    if (before === undefined) throw new Error(`the edit changes ${uri}, whose text the test did not give`);
    result[uri] = applyTextEdits(before, edits);
  }
  return result;
}
