// Rename a binding: its `"bind"` value and every reference in its scope, nothing outside it (the
// same name in a sibling sub-plan is another variable). Refused, with a message that says why,
// when the new name is not a valid name, is already in scope at the binding or at any of its
// references, would be bound again inside the binding's scope, or would capture a reference
// that names nothing today; and while the file has JSON syntax errors (references could hide
// in the text the parser skipped).

import { bindingNameProblem, type ModelBinding } from "@rlm-plan/core/plan";
import type { Node } from "jsonc-parser";
import type { Position, Range, TextEdit, WorkspaceEdit } from "vscode-languageserver-protocol";
import type { AnalyzedPlan } from "./analyzedPlan";
import { lspRange } from "./diagnostics";
import { bindingLine, bindingToken, modelOf, nameAtCursor, referenceToken } from "./planNames";
import { nodeAt, nodeAtOffset } from "./planTree";

export type PrepareRenameOutcome =
  { readonly range: Range; readonly placeholder: string } | { readonly refused: string } | null;

export type RenameOutcome = { readonly edit: WorkspaceEdit } | { readonly refused: string };

export function prepareRename(plan: AnalyzedPlan, position: Position): PrepareRenameOutcome {
  const found = bindingAtCursor(plan, position);
  if (found === undefined) return null;
  if ("refused" in found) return found;
  const node = found.node;
  const range = lspRange(plan.document, { offset: node.offset + 1, length: Math.max(0, node.length - 2) });
  return { range, placeholder: found.binding.name };
}

export function rename(plan: AnalyzedPlan, position: Position, newName: string): RenameOutcome {
  const found = bindingAtCursor(plan, position);
  if (found === undefined)
    return { refused: "Put the cursor on a binding's name or on a variable reference to rename it." };
  if ("refused" in found) return found;
  return renameBinding(plan, found.binding, newName);
}

/** The edits that rename `binding` (a binding of the model) to `newName`, or why not. */
export function renameBinding(plan: AnalyzedPlan, binding: ModelBinding, newName: string): RenameOutcome {
  if (newName === binding.name) return { edit: { changes: { [plan.document.uri]: [] } } };
  const invalid = bindingNameProblem(newName);
  if (invalid) return { refused: `${invalid[0]?.toUpperCase()}${invalid.slice(1)}.` };
  const conflict = renameConflict(plan, binding, newName);
  if (conflict) return { refused: conflict };
  const text = JSON.stringify(newName);
  const nodes = [
    bindingToken(plan, binding),
    ...(modelOf(plan)
      ?.referencesTo(binding)
      .map((r) => referenceToken(plan, r)) ?? []),
  ].filter((node): node is Node => node !== undefined);
  const edits: TextEdit[] = nodes
    .sort((a, b) => a.offset - b.offset)
    .map((node) => ({ range: lspRange(plan.document, node), newText: text }));
  return { edit: { changes: { [plan.document.uri]: edits } } };
}

function bindingAtCursor(
  plan: AnalyzedPlan,
  position: Position,
): { readonly binding: ModelBinding; readonly node: Node } | { readonly refused: string } | undefined {
  const symbol = nameAtCursor(plan, nodeAtOffset(plan.tree, plan.document.offsetAt(position)));
  if (!symbol) return undefined;
  if (!symbol.binding) {
    return symbol.reference
      ? {
          refused: `${JSON.stringify(symbol.reference.name)} is not bound in this scope, so there is no variable to rename.`,
        }
      : undefined;
  }
  const syntax = plan.analysis.document.syntaxErrors.find((error) => error.code !== "duplicate_key");
  if (syntax) {
    const line = plan.document.positionAt(syntax.offset).line + 1;
    return { refused: `Fix the JSON syntax error on line ${line} first: until then a rename could miss references.` };
  }
  return { binding: symbol.binding, node: symbol.node };
}

/**
 * Why renaming `target` to `newName` would change what some name means, or undefined. Every
 * question is the model's `resolve` at a place: the binding, each other binding of the new
 * name, each reference to the target, each unresolved reference of the new name.
 */
function renameConflict(plan: AnalyzedPlan, target: ModelBinding, newName: string): string | undefined {
  const model = modelOf(plan);
  if (!model) return undefined;
  const old = JSON.stringify(target.name);
  const wanted = JSON.stringify(newName);
  const referenceLine = (path: readonly (string | number)[]): number => {
    const token = nodeAt(plan.tree, [...path, "name"]);
    return token ? plan.document.positionAt(token.offset).line + 1 : 0;
  };
  const here = model.resolve(target.stepPath, newName);
  if (here)
    return `${wanted} is already in scope here (bound on line ${bindingLine(plan, here)}): choose another name.`;
  for (const binding of model.bindings) {
    if (binding !== target && binding.name === newName && model.resolve(binding.stepPath, target.name) === target) {
      return `${wanted} is bound on line ${bindingLine(plan, binding)}, inside the scope of ${old}: the two would clash; choose another name.`;
    }
  }
  for (const reference of model.references) {
    if (reference.binding === target) {
      const other = model.resolve(reference.path, newName);
      if (other) {
        return `${wanted} is already in scope at the reference on line ${referenceLine(reference.path)} (bound on line ${bindingLine(plan, other)}): choose another name.`;
      }
    } else if (
      reference.name === newName &&
      reference.binding === undefined &&
      model.resolve(reference.path, target.name) === target
    ) {
      return `The reference to ${wanted} on line ${referenceLine(reference.path)} names no variable today and would then name this one: choose another name.`;
    }
  }
  return undefined;
}
