// Quick fix: the second binding of a name, and the references after it, renamed to `name_2` (or
// the next free one).

import type { CodeAction } from "vscode-languageserver-protocol";
import { modelOf } from "../planNames";
import { renameBinding } from "../rename";
import { quickFix, type FixContext } from "./fixKit";

export function renameDuplicate({ plan, problem, diagnostic }: FixContext): CodeAction | undefined {
  const model = modelOf(plan);
  const path = problem.path;
  const binding = model && path?.[path.length - 1] === "bind" ? model.bindingAt(path.slice(0, -1)) : undefined;
  if (!model || !binding) return undefined;
  const used = new Set([...model.bindings.map((b) => b.name), ...model.references.map((r) => r.name)]);
  let k = 2;
  while (used.has(`${binding.name}_${k}`)) k++;
  const fresh = `${binding.name}_${k}`;
  const outcome = renameBinding(plan, binding, fresh);
  if (!("edit" in outcome) || !outcome.edit.changes) return undefined;
  return quickFix(
    `Rename this ${JSON.stringify(binding.name)} to ${JSON.stringify(fresh)}`,
    diagnostic,
    outcome.edit.changes,
    true,
  );
}
