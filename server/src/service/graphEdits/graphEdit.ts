// The graph view's edits as text edits, each made by the code the editor's own actions use: a
// wrap is the sub-plan extraction with another wrapper (subPlans/extractSubPlan.ts), a rename is
// rename.ts's, and every edit that moves or removes steps is proved by analysing its result
// (subPlans/refactorCheck.ts), so a move above the step that binds what it reads is refused with
// the problem it would make. Steps are named by their JSON paths (the graph's node paths).

import type { JsonPath } from "@rlm-plan/core";
import type { Node } from "jsonc-parser";
import type { TextEdit, WorkspaceEdit } from "vscode-languageserver-protocol";
import { TextDocument } from "vscode-languageserver-textdocument";
import type { GraphEdit, GraphEditResult } from "../../protocol";
import type { AnalyzedPlan } from "../analyzedPlan";
import { nodeAt, stepSeparator, stringProperty } from "../planTree";
import { rename } from "../rename";
import { wrapSteps } from "../subPlans/extractSubPlan";
import { checkRefactoring } from "../subPlans/refactorCheck";
import { insertedStep } from "./insertedStep";

export function graphEdit(plan: AnalyzedPlan, version: number, edit: GraphEdit): GraphEditResult {
  if (version !== plan.document.version)
    return { refused: "The plan changed since the graph was drawn: try again on the new graph." };
  const step = stepNode(plan, edit.step);
  if (!step) return { refused: "That step is no longer in the plan." };
  switch (edit.kind) {
    case "insert":
      return insertStep(plan, step, edit.op);
    case "delete":
      return deleteStep(plan, edit.step, step);
    case "move":
      return moveStep(plan, step, edit.direction);
    case "wrap": {
      const last = edit.last ? stepNode(plan, edit.last) : step;
      if (!last) return { refused: "That step is no longer in the plan." };
      const outcome = wrapSteps(plan, step.offset, last.offset + last.length, edit.wrapper);
      if (!outcome) return { refused: "Those steps are not in one plan." };
      if ("refused" in outcome) return { refused: outcome.refused };
      return textEdits(plan, [{ range: rangeOf(plan, outcome.offset, outcome.length), newText: outcome.newText }]);
    }
    case "rename": {
      const bind = nodeAt(plan.tree, [...edit.step, "bind"]);
      if (bind?.type !== "string") return { refused: "That step binds no name." };
      return rename(plan, plan.document.positionAt(bind.offset + 1), edit.newName);
    }
  }
}

function insertStep(plan: AnalyzedPlan, step: Node, op: string): GraphEditResult {
  const text = plan.document.getText();
  const inserted = insertedStep(plan, op);
  if ("refused" in inserted) return inserted;
  // Right after the step (before the comments above the next one); before the final step, which stays last.
  const separator = stepSeparator(text, step);
  const edit =
    stringProperty(step, "op") === "final"
      ? { range: rangeOf(plan, step.offset, 0), newText: `${inserted.text}${separator}` }
      : { range: rangeOf(plan, endOf(step), 0), newText: `${separator}${inserted.text}` };
  return textEdits(plan, [edit]);
}

function deleteStep(plan: AnalyzedPlan, path: JsonPath, step: Node): GraphEditResult {
  const siblings = step.parent?.children ?? [];
  if (siblings.length < 2) return { refused: "A plan needs at least one step: delete the step that holds this plan." };
  if (stringProperty(step, "op") === "final")
    return { refused: "A plan ends with its final step: it cannot be deleted." };
  const binding = plan.analysis.model?.bindingAt(path);
  const readers = binding ? (plan.analysis.model?.referencesTo(binding).length ?? 0) : 0;
  if (binding && readers > 0)
    return {
      refused: `"${binding.name}" is read ${readers === 1 ? "once" : `${readers} times`} after this step: remove those reads first.`,
    };
  const index = siblings.indexOf(step);
  // The step and the separator before it (after it, for the first step).
  const from = index > 0 ? endOf(siblings[index - 1] as Node) : step.offset;
  const to = index > 0 ? endOf(step) : (siblings[1] as Node).offset;
  return checked(plan, [{ range: rangeOf(plan, from, to - from), newText: "" }], false);
}

function moveStep(plan: AnalyzedPlan, step: Node, direction: "up" | "down"): GraphEditResult {
  const siblings = step.parent?.children ?? [];
  const index = siblings.indexOf(step);
  const other = siblings[direction === "up" ? index - 1 : index + 1];
  if (!other) return { refused: `The step is already the ${direction === "up" ? "first" : "last"} of its plan.` };
  const text = plan.document.getText();
  // Each step's text goes where the other was: what lies between them (comments) stays.
  return checked(
    plan,
    [
      { range: rangeOf(plan, step.offset, step.length), newText: text.slice(other.offset, endOf(other)) },
      { range: rangeOf(plan, other.offset, other.length), newText: text.slice(step.offset, endOf(step)) },
    ],
    true,
  );
}

/** The edits, refused when their result has a problem the plan did not. */
function checked(plan: AnalyzedPlan, edits: TextEdit[], sameWorstCase: boolean): GraphEditResult {
  const result = checkRefactoring(plan, TextDocument.applyEdits(plan.document, edits), { sameWorstCase });
  if ("refused" in result) return { refused: `Cannot make this edit: ${result.refused}.` };
  return textEdits(plan, edits);
}

function textEdits(plan: AnalyzedPlan, edits: TextEdit[]): { edit: WorkspaceEdit } {
  return { edit: { changes: { [plan.document.uri]: edits } } };
}

function stepNode(plan: AnalyzedPlan, path: JsonPath): Node | undefined {
  const node = nodeAt(plan.tree, path);
  return node?.type === "object" && node.parent?.type === "array" ? node : undefined;
}

function rangeOf(plan: AnalyzedPlan, offset: number, length: number) {
  return { start: plan.document.positionAt(offset), end: plan.document.positionAt(offset + length) };
}

function endOf(node: Node): number {
  return node.offset + node.length;
}
