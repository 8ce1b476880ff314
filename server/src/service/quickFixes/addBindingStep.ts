// The second quick fix for an unbound variable: add a step that binds the name, just before the
// step that uses it (so it is in scope there and nowhere it was not meant to be). The step is a
// `model` step with a prompt to write: of the binding operations it is the one that needs
// nothing else the plan may lack (a context step needs an input handle and an action, a tool a
// registered tool and its arguments, rlm/parallel/retry a whole sub-plan), and "ask the model
// for it" is what a name nobody computed yet most often means. Its provider is one the plan
// already calls, else the host's first; never preferred: the name may be a typo instead.

import { bindingNameProblem } from "@rlm-plan/core/plan";
import { CodeActionKind, type CodeAction } from "vscode-languageserver-protocol";
import type { AnalyzedPlan } from "../analyzedPlan";
import type { FixContext } from "./fixKit";
import { modelOf } from "../planNames";
import { enclosingStepPath, nodeAt, stepSeparator } from "../planTree";

/** Written where no provider is known; the diagnostics then point at it. */
const PROVIDER_PLACEHOLDER = "PROVIDER";

export function addBindingStep({ plan, problem, diagnostic }: FixContext): CodeAction | undefined {
  // The problem is on the reference's name: [...reference path, "name"].
  const path = problem.path;
  const name = path && nodeAt(plan.tree, path)?.value;
  if (!path || typeof name !== "string" || bindingNameProblem(name) !== undefined) return undefined;
  const stepPath = enclosingStepPath(path);
  const step = stepPath && nodeAt(plan.tree, stepPath);
  if (step?.type !== "object") return undefined;
  const provider = providerFor(plan);
  const prompt = `Write the prompt whose answer becomes ${name}`;
  const inserted =
    `{ "op": "model", "provider": ${JSON.stringify(provider)}, "prompt": ${JSON.stringify(prompt)}, ` +
    `"bind": ${JSON.stringify(name)} }`;
  const separator = stepSeparator(plan.document.getText(), step);
  const at = plan.document.positionAt(step.offset);
  return {
    title: `Add a model step binding ${JSON.stringify(name)} before this step`,
    kind: CodeActionKind.QuickFix,
    diagnostics: [diagnostic],
    edit: { changes: { [plan.document.uri]: [{ range: { start: at, end: at }, newText: inserted + separator }] } },
  };
}

/** The provider a new model step calls: one the plan already calls, else the host's first. */
export function providerFor(plan: AnalyzedPlan): string {
  for (const binding of modelOf(plan)?.bindings ?? []) {
    if (binding.step?.op === "model") return binding.step.provider;
  }
  return plan.host?.providers.keys().next().value ?? PROVIDER_PLACEHOLDER;
}
