// Quick fix: a final step that is not its plan's last (and the plan's only final) moves after
// the last step.

import type { Node } from "jsonc-parser";
import type { CodeAction, TextEdit } from "vscode-languageserver-protocol";
import { lspRange } from "../diagnostics";
import { nodeAt, stepSeparator, stringProperty } from "../planTree";
import { quickFix, type FixContext } from "./fixKit";

/** One edit of the steps list, so the other steps keep their text and comments. */
export function moveFinal({ plan, problem, diagnostic }: FixContext): CodeAction | undefined {
  const path = problem.path;
  if (!path || path[path.length - 1] !== "op") return undefined;
  const index = path[path.length - 2];
  const stepsPath = path.slice(0, -2);
  const steps = nodeAt(plan.tree, stepsPath);
  const children = steps?.type === "array" ? (steps.children ?? []) : [];
  if (typeof index !== "number" || index >= children.length - 1) return undefined;
  if (stringProperty(children[index], "op") !== "final") return undefined;
  if (children.filter((child) => stringProperty(child, "op") === "final").length !== 1) return undefined;
  // Text surgery rather than a reformat: the final step keeps its own text, the other steps
  // theirs, comments included. Out: from the step to the next one's start (its comma with it);
  // in: after the last step, on a line of its own when the steps are one per line.
  const text = plan.document.getText();
  const step = children[index] as Node;
  const next = children[index + 1] as Node;
  const last = children[children.length - 1] as Node;
  const separator = stepSeparator(text, last);
  const end = plan.document.positionAt(last.offset + last.length);
  const edits: TextEdit[] = [
    { range: lspRange(plan.document, { offset: step.offset, length: next.offset - step.offset }), newText: "" },
    { range: { start: end, end }, newText: separator + text.slice(step.offset, step.offset + step.length) },
  ];
  return quickFix("Move the final step to the end of the plan", diagnostic, { [plan.document.uri]: edits }, true);
}
