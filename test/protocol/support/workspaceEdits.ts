// Applying what the server answers (text edits, workspace edits) to texts, as an editor would,
// so tests compare whole documents: the input, the action, the expected output.

import assert from "node:assert/strict";
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import type { TextEdit, WorkspaceEdit } from "vscode-languageserver-protocol/node";
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

/** The source folder of golden files (tests run from test/out/). */
export const GOLDEN_ROOT = join(__dirname, "..", "..", "..", "service", "golden");

export function golden(...parts: string[]): string {
  return readFileSync(join(GOLDEN_ROOT, ...parts), "utf8");
}

/**
 * Asserts `actual` equals the golden file; with UPDATE_GOLDEN=1 (`UPDATE_GOLDEN=1 npm test`)
 * writes it instead, for a new case or a deliberate change (review the diff before committing).
 */
export function expectGolden(actual: string, ...parts: string[]): void {
  const file = join(GOLDEN_ROOT, ...parts);
  if (process.env.UPDATE_GOLDEN === "1") {
    if (!existsSync(file) || readFileSync(file, "utf8") !== actual) writeFileSync(file, actual);
    return;
  }
  assert.ok(existsSync(file), `no golden file ${parts.join("/")}: run the test with UPDATE_GOLDEN=1 to write it`);
  assert.equal(actual, readFileSync(file, "utf8"), `differs from golden ${parts.join("/")}`);
}
