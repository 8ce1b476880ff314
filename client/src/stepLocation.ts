// Where a step is in a plan file: the server reports each step's JSON path (["steps", 1,
// "plan", "steps", 0]); this finds that node in the document's current text (JSON with
// comments, via jsonc-parser) and shows it. Reading JSON is not a plan rule: which path a step
// has is the server's answer, the client only follows it.

import { findNodeAtLocation, parseTree } from "jsonc-parser";
import * as vscode from "vscode";
import type { StepPath } from "./runLog";

/** `steps[1].plan.steps[0]`, for people. */
export function formatStepPath(path: StepPath): string {
  return path
    .map((segment, i) => (typeof segment === "number" ? `[${segment}]` : i === 0 ? segment : `.${segment}`))
    .join("");
}

/** The range of the node at `path` in `document`, or undefined when the text no longer has it. */
function stepRange(document: vscode.TextDocument, path: StepPath): vscode.Range | undefined {
  const root = parseTree(document.getText(), [], { allowTrailingComma: true, disallowComments: false });
  const node = root && findNodeAtLocation(root, [...path]);
  if (!node) return undefined;
  return new vscode.Range(document.positionAt(node.offset), document.positionAt(node.offset + node.length));
}

/** Opens the plan and selects the step; says so when the plan has changed and the step is gone. */
export async function revealStep(planUri: string, path: StepPath | undefined): Promise<void> {
  const uri = vscode.Uri.parse(planUri);
  let document: vscode.TextDocument;
  try {
    document = await vscode.workspace.openTextDocument(uri);
  } catch {
    void vscode.window.showWarningMessage(`The plan ${uri.fsPath} cannot be opened any more.`);
    return;
  }
  const range = path ? stepRange(document, path) : undefined;
  const editor = await vscode.window.showTextDocument(document, { preview: true });
  if (!range) {
    if (path) {
      void vscode.window.showInformationMessage(
        `The plan has changed since this run: it has no step at ${formatStepPath(path)} any more.`,
      );
    }
    return;
  }
  // Select the step's first line (the whole object can be long) and bring all of it into view.
  editor.selection = new vscode.Selection(range.start, document.lineAt(range.start.line).range.end);
  editor.revealRange(range, vscode.TextEditorRevealType.InCenterIfOutsideViewport);
}
