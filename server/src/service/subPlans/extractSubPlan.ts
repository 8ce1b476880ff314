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
import { stepRunAt } from "./selectedSteps";
import { dedentLines, indentLines, indentUnit, lineIndent, snippetLiteral, spanText } from "./stepText";

/**
 * The step the run goes into: an `rlm` sub-plan (the refactoring: same worst case), or a retry
 * or a one-branch parallel (the graph's wrap: the worst case is the new step's to change).
 */
export type Wrapper = "rlm" | "retry" | "parallel";

const WRAPPERS: Readonly<Record<Wrapper, { title: string; verb: string; open: string; close: string }>> = {
  rlm: { title: "to a sub-plan", verb: "extract a sub-plan", open: `"op": "rlm", "plan": {`, close: "}" },
  retry: { title: "in a retry", verb: "wrap in a retry", open: `"op": "retry", "attempts": 2, "plan": {`, close: "}" },
  parallel: { title: "in a parallel", verb: "wrap in a parallel", open: `"op": "parallel", "plans": [{`, close: "}]" },
};

export function extractSubPlan(plan: AnalyzedPlan, start: number, end: number): RefactorOutcome | undefined {
  return wrapSteps(plan, start, end, "rlm");
}

/** The steps `[start, end)` touches moved into a new step of kind `wrapper`, or why not. */
export function wrapSteps(
  plan: AnalyzedPlan,
  start: number,
  end: number,
  wrapper: Wrapper,
): RefactorOutcome | undefined {
  const run = stepRunAt(plan.tree, start, end);
  if (!run) return undefined;
  const count = run.last - run.first + 1;
  const shape = WRAPPERS[wrapper];
  const verb = wrapper === "rlm" ? "Extract" : "Wrap";
  const title = count === 1 ? `${verb} the step ${shape.title}` : `${verb} ${count} steps ${shape.title}`;
  const refuse = (why: string) => refusal(title, shape.verb, why);
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
  // A parallel step binds the list of its branches' values, not the one value read after.
  if (wrapper === "parallel" && returned !== undefined)
    return refuse(`"${returned}" is read after the steps, and a parallel step binds a list of its branches' values`);
  const text = plan.document.getText();
  const write = (bind: string) => wrappedText(text, nodes, returned, bind, shape);
  const first = nodes[0] as Node;
  const last = nodes[nodes.length - 1] as Node;
  const edit = { offset: first.offset, length: last.offset + last.length - first.offset };
  const name = returned ?? freshName(model);
  const newText = write(JSON.stringify(name));
  const checked = checkRefactoring(plan, replaced(text, { ...edit, newText }), { sameWorstCase: wrapper === "rlm" });
  if ("refused" in checked) return refuse(checked.refused);
  // A returned binding keeps its name (the steps after read it); a new name is the user's to choose.
  const snippet = returned ? undefined : snippetWith(text, write, name, lineIndent(text, first.offset) ?? "");
  return { title, ...edit, newText, ...(snippet ? { snippet } : {}) };
}

/**
 * The new step that holds `nodes`' text: on their own lines one level in when the first step
 * starts its line, on one line when steps share lines; its `final` returns `returned` (null when
 * nothing is read after the steps: the smallest value to bind).
 */
function wrappedText(
  text: string,
  nodes: readonly Node[],
  returned: string | undefined,
  bind: string,
  shape: { open: string; close: string },
): string {
  const span = spanText(text, nodes[0] as Node, nodes[nodes.length - 1] as Node);
  const value = returned === undefined ? "null" : `{ "ref": "var", "name": ${JSON.stringify(returned)} }`;
  const final = `{ "op": "final", "value": ${value} }`;
  const indent = lineIndent(text, (nodes[0] as Node).offset);
  if (indent === undefined) return `{ ${shape.open} "steps": [${span}, ${final}] ${shape.close}, "bind": ${bind} }`;
  const unit = indentUnit(text);
  const { eol } = indentationOf(text);
  const inner = `${indent}${unit}`;
  return (
    `{ ${shape.open} "steps": [${eol}` +
    `${inner}${indentLines(span, unit)},${eol}` +
    `${inner}${final}${eol}` +
    `${indent}] ${shape.close}, "bind": ${bind} }`
  );
}

/** The step's text as a snippet whose one placeholder is the new name (a mark stands for it while the rest is escaped). */
function snippetWith(text: string, write: (bind: string) => string, name: string, indent: string): string {
  let mark = "@name@";
  while (text.includes(mark)) mark = `@${mark}@`;
  // An editor inserting a snippet indents each line after the first as the line it starts on
  // (VS Code does, for snippet edits too): the lines are given relative to that indentation.
  const relative = dedentLines(write(`"${mark}"`), indent.length);
  return snippetLiteral(relative).replace(mark, `\${1:${name}}`);
}

/** A binding name the plan does not use anywhere: `subplan`, else `subplan_2`, and so on. */
function freshName(model: PlanModel): string {
  const taken = new Set(model.bindings.map((binding) => binding.name));
  let name = "subplan";
  for (let n = 2; taken.has(name); n++) name = `subplan_${n}`;
  return name;
}
