// Inlay hints where a number hides a multiplication: after a retry's `"attempts": 3` the worst
// case of its plan times the attempts ("×3 = 12 steps"), and after a parallel step's `plans` its
// width. The figures are the runtime estimator's; steps that did not normalize get no hint.

import type { Count, PlanModel } from "@rlm-plan/core";
import type { Step } from "@rlm-plan/core/plan";
import { InlayHintKind, type InlayHint, type Range } from "vscode-languageserver-protocol";
import type { AnalyzedPlan } from "./analyzedPlan";
import { modelOf } from "./planNames";
import { nodeAt } from "./planTree";

export function inlayHints(plan: AnalyzedPlan, range: Range): InlayHint[] {
  const model = modelOf(plan);
  if (!model || !plan.tree) return [];
  const document = plan.document;
  const from = document.offsetAt(range.start);
  const to = document.offsetAt(range.end);
  const hints: InlayHint[] = [];
  const after = (path: readonly (string | number)[]): number | undefined => {
    const node = nodeAt(plan.tree, path);
    const end = node ? node.offset + node.length : undefined;
    return end !== undefined && end >= from && end <= to ? end : undefined;
  };

  for (const { step } of model.steps()) {
    const hint = stepHint(plan, model, step, after);
    if (hint) hints.push(hint);
  }
  return hints.sort((a, b) => document.offsetAt(a.position) - document.offsetAt(b.position));
}

function stepHint(
  plan: AnalyzedPlan,
  model: PlanModel,
  step: Step,
  after: (path: readonly (string | number)[]) => number | undefined,
): InlayHint | undefined {
  if (step.op === "retry") {
    const offset = after([...step.path, "attempts"]);
    if (offset === undefined || step.attempts < 1) return undefined;
    const retry = model.retryCost(step);
    const once = retry.perAttempt.steps;
    const total = retry.allAttempts.steps;
    return {
      position: plan.document.positionAt(offset),
      label: `×${step.attempts} = ${count(total, "step")}`,
      kind: InlayHintKind.Type,
      paddingLeft: true,
      tooltip: `Worst case, every attempt runs: ${count(once, "step")} × ${count(step.attempts, "attempt")} = ${count(total, "step")}, besides the retry step itself.`,
    };
  }
  if (step.op === "parallel") {
    const offset = after([...step.path, "plans"]);
    if (offset === undefined) return undefined;
    const width = step.plans.length;
    return {
      position: plan.document.positionAt(offset),
      label: `width ${width}`,
      kind: InlayHintKind.Type,
      paddingLeft: true,
      tooltip: `${count(width, "branch plan")}, counted against the budget's max_parallel.`,
    };
  }
  return undefined;
}

function count(n: Count, noun: string): string {
  return `${n} ${noun}${n === 1 ? "" : "s"}`;
}
