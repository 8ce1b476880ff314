// Quick fix: a plan without a final step gets one, returning its last binding.

import type { CodeAction } from "vscode-languageserver-protocol";
import { nodeAt, stepSeparator, stringProperty } from "../planTree";
import { quickFix, type FixContext } from "./fixKit";

/** Appends `{"op": "final", "value": <the plan's last binding>}` after the plan's last step. */
export function addFinal({ plan, problem, diagnostic }: FixContext): CodeAction | undefined {
  const path = problem.path;
  if (!path || path[path.length - 1] !== "op") return undefined;
  const planPath = path.slice(0, -3);
  const steps = nodeAt(plan.tree, [...planPath, "steps"]);
  const children = steps?.type === "array" ? (steps.children ?? []) : [];
  const last = children[children.length - 1];
  if (!last || stringProperty(last, "op") === "final") return undefined;
  let bound: string | undefined;
  for (let i = children.length - 1; i >= 0 && bound === undefined; i--) {
    const op = stringProperty(children[i], "op");
    if (op !== "checkpoint" && op !== "final") bound = stringProperty(children[i], "bind");
  }
  const value = bound === undefined ? "null" : `{ "ref": "var", "name": ${JSON.stringify(bound)} }`;
  const step = `{ "op": "final", "value": ${value} }`;
  const insertion = stepSeparator(plan.document.getText(), last) + step;
  const at = plan.document.positionAt(last.offset + last.length);
  const title = bound === undefined ? "Add a final step" : `Add a final step returning ${JSON.stringify(bound)}`;
  return quickFix(
    title,
    diagnostic,
    { [plan.document.uri]: [{ range: { start: at, end: at }, newText: insertion }] },
    true,
  );
}
