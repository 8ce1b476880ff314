// Test files (`*.rlmplan.test.json`) in the editor: the core's view of the file (testing/
// testFileView.ts: the loader's errors and warnings, the cases as written, what hover and
// completion say at a place) as LSP diagnostics, hover, completion items and a "Run" and a
// "Debug" code lens on each case. No rule of its own: every answer is the core's.

import { testFileCompletions, testFileHover as coreHover, type TestFileView } from "@rlm-plan/core/testing";
import {
  CompletionItemKind,
  DiagnosticSeverity,
  MarkupKind,
  type CodeLens,
  type CompletionItem,
  type Diagnostic,
  type Hover,
  type Position,
} from "vscode-languageserver-protocol";
import type { TextDocument } from "vscode-languageserver-textdocument";
import { DIAGNOSTIC_SOURCE, lspRange } from "./diagnostics";
import { DebugTestCaseClientCommand, RunTestCaseClientCommand, type TestFileCase } from "../protocol";

export function testFileDiagnostics(document: TextDocument, view: TestFileView): Diagnostic[] {
  return view.problems.map((problem) => ({
    range: lspRange(document, problem),
    severity: problem.severity === "error" ? DiagnosticSeverity.Error : DiagnosticSeverity.Warning,
    code: problem.severity === "error" ? "invalid_test_file" : "test_file_warning",
    source: DIAGNOSTIC_SOURCE,
    message: problem.elsewhere
      ? `${problem.elsewhere.file}:${problem.elsewhere.line}:${problem.elsewhere.column}: ${problem.message}`
      : problem.message,
  }));
}

export function testFileCases(document: TextDocument, view: TestFileView): TestFileCase[] {
  return view.cases.map((c) => ({ name: c.name, kind: c.kind, range: lspRange(document, c) }));
}

export function testFileHover(document: TextDocument, view: TestFileView, position: Position): Hover | null {
  const found = coreHover(view, document.getText(), document.offsetAt(position));
  return found
    ? { contents: { kind: MarkupKind.Markdown, value: found.text }, range: lspRange(document, found) }
    : null;
}

const KINDS = {
  step: CompletionItemKind.Reference,
  input: CompletionItemKind.Variable,
  tool: CompletionItemKind.Function,
  provider: CompletionItemKind.Module,
} as const;

export function testFileCompletion(document: TextDocument, view: TestFileView, position: Position): CompletionItem[] {
  return testFileCompletions(view, document.getText(), document.offsetAt(position)).map((item, i) => ({
    label: item.label,
    kind: KINDS[item.kind],
    detail: item.detail,
    // In the plan's order (steps as they are written), not alphabetically.
    sortText: String(i).padStart(4, "0"),
    textEdit: { range: lspRange(document, item), newText: item.insertText },
  }));
}

/** "▶ Run" and "Debug" above each case (a dataset: its lines); the client's commands run them. */
export function testFileLenses(document: TextDocument, view: TestFileView): CodeLens[] {
  if (view.problems.some((p) => p.severity === "error")) return [];
  return testFileCases(document, view).flatMap((c) => {
    const range = { start: c.range.start, end: c.range.start };
    const args = [document.uri, c.name, c.kind];
    return [
      { range, command: { title: "▶ Run", command: RunTestCaseClientCommand.command, arguments: args } },
      { range, command: { title: "Debug", command: DebugTestCaseClientCommand.command, arguments: args } },
    ];
  });
}
