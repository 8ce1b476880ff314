// An edit asked from the graph view, made: the palette of operations (a quick pick) or the new
// name (an input box) where the edit needs one, then the server's text edit for the graph's
// version of the plan (rlmPlan/graphEdit), applied to the document through VS Code so that
// Ctrl+Z in the editor undoes it. The graph is redrawn from the edited text, as after typing.

import * as vscode from "vscode";
import type { LanguageClient } from "vscode-languageclient/node";
import { OPERATIONS } from "@rlm-plan/core/editor";
import {
  GraphEditRequest,
  type GraphEdit,
  type PlanGraphResult,
  type PlanGraphStep,
} from "@rlm-plan/language-server/protocol";
import type { GraphEditAction } from "./messages";

/** The palette: every operation a step can have, but the final one (a plan has one, last). */
const PALETTE = OPERATIONS.filter((op) => op !== "final");

export async function editFromGraph(
  client: LanguageClient,
  graph: PlanGraphResult | undefined,
  step: PlanGraphStep | undefined,
  action: GraphEditAction,
): Promise<void> {
  if (!graph || !step || graph.version === null) return;
  const edit = await editOf(step, action, selectedSiblings(graph, step));
  if (!edit) return;
  const answer = await client.sendRequest(GraphEditRequest.type, { uri: graph.uri, version: graph.version, edit });
  if (!answer) return;
  if ("refused" in answer) {
    void vscode.window.showWarningMessage(answer.refused);
    return;
  }
  const applied = await vscode.workspace.applyEdit(await client.protocol2CodeConverter.asWorkspaceEdit(answer.edit));
  if (!applied) void vscode.window.showWarningMessage("The plan changed while the edit was made: try again.");
}

/** The request's edit, with what the user chose; undefined when they dismissed the question. */
async function editOf(
  step: PlanGraphStep,
  action: GraphEditAction,
  selected: readonly PlanGraphStep[],
): Promise<GraphEdit | undefined> {
  const at = step.path;
  switch (action) {
    case "insert": {
      const op = await vscode.window.showQuickPick(PALETTE, {
        title: "Insert a step",
        placeHolder: step.op === "final" ? "before the final step" : `after ${step.bind ?? step.op}`,
      });
      return op ? { kind: "insert", step: at, op } : undefined;
    }
    case "delete":
      return { kind: "delete", step: at };
    case "moveUp":
    case "moveDown":
      return { kind: "move", step: at, direction: action === "moveUp" ? "up" : "down" };
    case "wrapRetry":
    case "wrapParallel": {
      // The steps the editor's selection spans, when the focused one is among them; else that one.
      const first = selected[0] ?? step;
      const last = selected[selected.length - 1] ?? step;
      return {
        kind: "wrap",
        step: first.path,
        last: last.path,
        wrapper: action === "wrapRetry" ? "retry" : "parallel",
      };
    }
    case "rename": {
      if (step.bind === undefined) {
        void vscode.window.showWarningMessage("That step binds no name.");
        return undefined;
      }
      const newName = await vscode.window.showInputBox({ title: `Rename "${step.bind}"`, value: step.bind });
      return newName ? { kind: "rename", step: at, newName } : undefined;
    }
  }
}

/**
 * The steps of `step`'s plan that the plan editor's selection touches, in order, when `step` is
 * one of them (so several steps can be wrapped at once); empty otherwise.
 */
function selectedSiblings(graph: PlanGraphResult, step: PlanGraphStep): PlanGraphStep[] {
  const editor = vscode.window.visibleTextEditors.find((each) => each.document.uri.toString() === graph.uri);
  const selection = editor?.selection;
  if (!selection || selection.isEmpty) return [];
  const plan = JSON.stringify(step.path.slice(0, -1));
  const touched = graph.graph.nodes.filter(
    (node): node is PlanGraphStep =>
      node.kind === "step" &&
      node.range !== null &&
      JSON.stringify(node.path.slice(0, -1)) === plan &&
      selection.intersection(toRange(node.range)) !== undefined,
  );
  return touched.some((node) => node.id === step.id) ? touched : [];
}

/** A graph step's LSP range as VS Code's (the panel's reveal and hover use it too). */
export function toRange(range: NonNullable<PlanGraphStep["range"]>): vscode.Range {
  return new vscode.Range(range.start.line, range.start.character, range.end.line, range.end.character);
}
