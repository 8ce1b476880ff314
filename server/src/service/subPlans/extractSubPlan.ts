// Extract a run of consecutive steps into an `rlm` sub-plan. A sub-plan sees what its plan bound
// before it, so nothing has to be passed in; its bindings do not leak out, so the one binding
// read after the run (if any) comes back as the sub-plan's `final` value, bound again under its
// own name: the steps after the run read the same name and nothing else changes. More than one
// binding read after the run cannot come back (a sub-plan has one value): refused. The result is
// analysed again (refactorCheck.ts): a capability not granted or a budget passed refuses too.

import { stepRunFlow, type PlanModel } from "@rlm-plan/core/plan";
import type { Node } from "jsonc-parser";
import type { AnalyzedPlan } from "../analyzedPlan";
import { stringProperty } from "../planTree";
import { indentationOf } from "../quickFixes/fixKit";
import { refusal, replaced, type RefactorOutcome } from "./outcome";
import { checkRefactoring } from "./refactorCheck";
import { stepRunAt } from "./stepRun";
import { indentLines, indentUnit, lineIndent, snippetLiteral, spanText } from "./stepText";

export function extractSubPlan(plan: AnalyzedPlan, start: number, end: number): RefactorOutcome | undefined {
  const run = stepRunAt(plan.tree, start, end);
  if (!run) return undefined;
  const count = run.last - run.first + 1;
  const title = count === 1 ? "Extract the step to a sub-plan" : `Extract ${count} steps to a sub-plan`;
  const refuse = (why: string) => refusal(title, "extract a sub-plan", why);
  const model = plan.analysis.model;
  if (!model) return refuse("the plan could not be read");
  const nodes = (run.list.children ?? []).slice(run.first, run.last + 1);
  for (const [i, node] of nodes.entries()) {
    const index = run.first + i;
    if (!model.stepAt([...run.planPath, "steps", index])) return refuse(`step ${index + 1} has problems to fix first`);
    if (stringProperty(node, "op") === "final")
      return refuse("the plan's final step must stay the last step of its plan");
  }
  const flow = stepRunFlow(model, run.planPath, run.first, run.last);
  if (flow.out.length > 1) {
    const names = flow.out.map((binding) => `"${binding.name}"`).join(", ");
    return refuse(`${names} are read after the steps, and a sub-plan returns one value`);
  }
  const returned = flow.out[0]?.name;
  const text = plan.document.getText();
  const write = (bind: string) => rlmStepText(text, nodes, returned, bind);
  const first = nodes[0] as Node;
  const last = nodes[nodes.length - 1] as Node;
  const edit = { offset: first.offset, length: last.offset + last.length - first.offset };
  const name = returned ?? freshName(model);
  const newText = write(JSON.stringify(name));
  const checked = checkRefactoring(plan, replaced(text, { ...edit, newText }));
  if ("refused" in checked) return refuse(checked.refused);
  // A returned binding keeps its name (the steps after read it); a new name is the user's to choose.
  const snippet = returned ? undefined : snippetWith(text, write, name);
  return { title, ...edit, newText, ...(snippet ? { snippet } : {}) };
}

/**
 * The `rlm` step that holds `nodes`' text: on their own lines one level in when the first step
 * starts its line, on one line when steps share lines; its `final` returns `returned` (null when
 * nothing is read after the steps: the smallest value to bind).
 */
function rlmStepText(text: string, nodes: readonly Node[], returned: string | undefined, bind: string): string {
  const span = spanText(text, nodes[0] as Node, nodes[nodes.length - 1] as Node);
  const value = returned === undefined ? "null" : `{ "ref": "var", "name": ${JSON.stringify(returned)} }`;
  const final = `{ "op": "final", "value": ${value} }`;
  const indent = lineIndent(text, (nodes[0] as Node).offset);
  if (indent === undefined) return `{ "op": "rlm", "plan": { "steps": [${span}, ${final}] }, "bind": ${bind} }`;
  const unit = indentUnit(text);
  const { eol } = indentationOf(text);
  const inner = `${indent}${unit}`;
  return (
    `{ "op": "rlm", "plan": { "steps": [${eol}` +
    `${inner}${indentLines(span, unit)},${eol}` +
    `${inner}${final}${eol}` +
    `${indent}] }, "bind": ${bind} }`
  );
}

/** The step's text as a snippet whose one placeholder is the new name (a mark stands for it while the rest is escaped). */
function snippetWith(text: string, write: (bind: string) => string, name: string): string {
  let mark = "@name@";
  while (text.includes(mark)) mark = `@${mark}@`;
  return snippetLiteral(write(`"${mark}"`)).replace(mark, `\${1:${name}}`);
}

/** A binding name the plan does not use anywhere: `subplan`, else `subplan_2`, and so on. */
function freshName(model: PlanModel): string {
  const taken = new Set(model.bindings.map((binding) => binding.name));
  let name = "subplan";
  for (let n = 2; taken.has(name); n++) name = `subplan_${n}`;
  return name;
}
