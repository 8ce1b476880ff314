// The step the graph's palette inserts: the core's form of the operation (its required fields,
// as completion's snippets write them, from the AST's tables) with each field's example value,
// and a binding name the plan does not use (a model step calls the provider the quick fix that
// adds a step would). Fields without an example are null: the plan's diagnostics then point at
// what is left to write, so an insert is not refused for the problems of the step it adds.

import { DISCRIMINATORS, formSnippet, OPERATIONS, STEP_FIELDS, type Operation } from "@rlm-plan/core/plan";
import type { AnalyzedPlan } from "../analyzedPlan";
import { providerFor } from "../quickFixes/addBindingStep";

export function insertedStep(plan: AnalyzedPlan, op: string): { text: string } | { refused: string } {
  if (!(OPERATIONS as readonly string[]).includes(op)) return { refused: `"${op}" is not an operation.` };
  if (op === "final") return { refused: "A plan has one final step, its last: it cannot be inserted." };
  const snippet = formSnippet(DISCRIMINATORS.step, op, STEP_FIELDS[op as Operation], "block");
  const value = JSON.parse(snippetValues(snippet)) as Record<string, unknown>;
  if ("bind" in value) value.bind = freshName(plan, op);
  if (op === "model") value.provider = providerFor(plan);
  const members = Object.entries(value).map(([key, field]) => `${JSON.stringify(key)}: ${JSON.stringify(field)}`);
  return { text: `{ ${members.join(", ")} }` };
}

/** A snippet's text with each tab stop's default: a choice's first, an empty stop null (nothing in a list). */
function snippetValues(snippet: string): string {
  return snippet
    .replace(/\$\{\d+\|([^,|]*)[^|]*\|\}/g, "$1")
    .replace(/\$\{\d+:([^}]*)\}/g, "$1")
    .replace(/\[\$\{\d+\}\]/g, "[]")
    .replace(/\$\{\d+\}/g, "null");
}

/** `op` then a number: the first such name the plan does not bind (`model1`, `model2`, ...). */
function freshName(plan: AnalyzedPlan, op: string): string {
  const taken = new Set(plan.analysis.model?.bindings.map((binding) => binding.name));
  let n = 1;
  while (taken.has(`${op}${n}`)) n++;
  return `${op}${n}`;
}
