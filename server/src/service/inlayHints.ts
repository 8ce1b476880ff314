// Inlay hints where a number hides a multiplication: after a retry's `"attempts": 3` the worst
// case of its plan times the attempts ("×3 = 12 steps"), and after a parallel step's `plans` its
// width. The figures are the runtime estimator's; steps that did not normalize get no hint.
// With `bindingTypes` (the rlmPlan.inlayHints.bindingTypes setting), each binding's type after
// its `bind`, from the core's typed data flow (plan/types/); a type it cannot know gets no hint.

import type { Count, PlanModel } from "@rlm-plan/core";
import { compactType, type Step } from "@rlm-plan/core/plan";
import { InlayHintKind, type InlayHint, type Range } from "vscode-languageserver-protocol";
import type { AnalyzedPlan } from "./analyzedPlan";
import { modelOf } from "./planNames";
import { nodeAt } from "./planTree";

export interface InlayHintOptions {
  /** Each binding's type after its `bind` (off by default: it is a lot of text on a plan). */
  readonly bindingTypes?: boolean;
}

export function inlayHints(plan: AnalyzedPlan, range: Range, options: InlayHintOptions = {}): InlayHint[] {
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
  if (options.bindingTypes) hints.push(...bindingTypeHints(plan, model, after));
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

function bindingTypeHints(
  plan: AnalyzedPlan,
  model: PlanModel,
  after: (path: readonly (string | number)[]) => number | undefined,
): InlayHint[] {
  const types = plan.analysis.types;
  if (!types) return [];
  const hints: InlayHint[] = [];
  for (const binding of model.bindings) {
    if (!binding.step) continue;
    const offset = after([...binding.stepPath, "bind"]);
    if (offset === undefined) continue;
    const { type, origin } = types.ofBinding(binding);
    if (type.kind === "unknown") continue;
    hints.push({
      position: plan.document.positionAt(offset),
      // Folded as hover folds it; the tooltip has it whole.
      label: `: ${compactType(type)}`,
      kind: InlayHintKind.Type,
      tooltip: `\`${binding.name}\`: ${compactType(type, Number.POSITIVE_INFINITY)}${origin ? `, ${origin.text}` : ""}`,
    });
  }
  return hints;
}

function count(n: Count, noun: string): string {
  return `${n} ${noun}${n === 1 ? "" : "s"}`;
}
