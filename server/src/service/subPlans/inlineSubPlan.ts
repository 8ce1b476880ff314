// Inline an `rlm` sub-plan: its steps but the `final` take the step's place. The sub-plan's
// bindings then stay in scope after it, so its value must be one of them bound under the step's
// own name (or be read by nothing after the step); a name it binds that the plan already uses is
// caught when the result is analysed again (refactorCheck.ts). Comments above the sub-plan's
// steps come along; comments after its last step (in its `final`) would go, and refuse the inline.

import { samePath } from "@rlm-plan/core/plan";
import type { Node } from "jsonc-parser";
import type { AnalyzedPlan } from "../analyzedPlan";
import { propertyValue } from "../planTree";
import { refusal, replaced, type RefactorOutcome } from "./outcome";
import { checkRefactoring } from "./refactorCheck";
import { stepAtOffset } from "./selectedSteps";
import { dedentLines, firstTokenAfter, hasComment, lineIndent } from "./stepText";

const TITLE = "Inline the sub-plan";

export function inlineSubPlan(plan: AnalyzedPlan, offset: number): RefactorOutcome | undefined {
  const at = stepAtOffset(plan.tree, offset);
  const model = plan.analysis.model;
  if (!at || !model) return undefined;
  const stepPath = [...at.run.planPath, "steps", at.run.first];
  const step = model.stepAt(stepPath);
  if (step?.op !== "rlm") return undefined;
  const refuse = (why: string) => refusal(TITLE, "inline the sub-plan", why);
  const list = propertyValue(propertyValue(at.step, "plan"), "steps");
  const inner = list?.children ?? [];
  const final = step.plan.steps[step.plan.steps.length - 1];
  if (final?.op !== "final" || inner.length !== step.plan.steps.length)
    return refuse("the sub-plan has problems to fix first");
  if (inner.length < 2) return refuse("the sub-plan has no steps before its final step");
  const binding = model.bindingAt(stepPath);
  const readAfter = binding ? model.referencesTo(binding).length > 0 : false;
  const returned = final.value.kind === "var" ? model.referenceAt(final.value.path)?.binding : undefined;
  const returnsOwn = returned !== undefined && samePath(returned.planPath, [...stepPath, "plan"]);
  if (readAfter && !returnsOwn)
    return refuse(`"${step.bind}" is read after the step, and the sub-plan's value is not one of its own bindings`);
  if (readAfter && returned?.name !== step.bind)
    return refuse(
      `the sub-plan returns "${returned?.name ?? ""}" but the step binds "${step.bind}": rename one to the other first`,
    );
  const text = plan.document.getText();
  // From the first comment or step in the list: comments above the first step go with it.
  const from = firstTokenAfter(text, (list as Node).offset + 1);
  const last = inner[inner.length - 2] as Node;
  const end = at.step.offset + at.step.length;
  if (hasComment(text, last.offset + last.length, end))
    return refuse("comments after the sub-plan's last step would be lost: move them into a step first");
  const outer = lineIndent(text, at.step.offset);
  const own = lineIndent(text, from);
  const width = outer !== undefined && own !== undefined ? own.length - outer.length : 0;
  const span = text.slice(from, last.offset + last.length);
  const edit = { offset: at.step.offset, length: end - at.step.offset, newText: dedentLines(span, width) };
  const checked = checkRefactoring(plan, replaced(text, edit));
  if ("refused" in checked) return refuse(checked.refused);
  return { title: TITLE, ...edit };
}
