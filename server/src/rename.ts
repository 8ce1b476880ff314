// Rename a binding: its `"bind"` value and every reference in its scope, nothing outside it (the
// same name in a sibling sub-plan is another variable). Refused, with a message that says why,
// when the new name is not a valid name, is already in scope at the binding or at any of its
// references, would be bound again inside the binding's scope, or would capture a reference
// that names nothing today; and while the file has JSON syntax errors (references could hide
// in the text the parser skipped).

import type { Node } from "jsonc-parser";
import type { Position, Range, TextEdit, WorkspaceEdit } from "vscode-languageserver";
import type { AnalyzedPlan } from "./analyzedPlan";
import { bindingIndex } from "./bindingIndex";
import { walkBindings, type PlanBinding } from "./bindingWalk";
import { lspRange } from "./diagnostics";
import { nodeAtOffset } from "./planTree";

export type PrepareRenameOutcome =
  { readonly range: Range; readonly placeholder: string } | { readonly refused: string } | null;

export type RenameOutcome = { readonly edit: WorkspaceEdit } | { readonly refused: string };

/** A letter or "_", then letters, digits, "_", "-" or ".". */
const VALID_NAME = /^[A-Za-z_][A-Za-z0-9_.-]*$/;
const MAX_NAME_LENGTH = 200;

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

/** The edits that rename `binding` (from the binding index) to `newName`, or why not. */
export function renameBinding(plan: AnalyzedPlan, binding: PlanBinding, newName: string): RenameOutcome {
  if (newName === binding.name) return { edit: { changes: { [plan.document.uri]: [] } } };
  const invalid = invalidName(newName);
  if (invalid) return { refused: invalid };
  const conflict = renameConflict(plan, binding, newName);
  if (conflict) return { refused: conflict };
  const text = JSON.stringify(newName);
  const nodes = [
    binding.nameNode,
    ...bindingIndex(plan)
      .referencesOf(binding)
      .map((r) => r.nameNode),
  ];
  const edits: TextEdit[] = nodes
    .sort((a, b) => a.offset - b.offset)
    .map((node) => ({ range: lspRange(plan.document, node), newText: text }));
  return { edit: { changes: { [plan.document.uri]: edits } } };
}

function bindingAtCursor(
  plan: AnalyzedPlan,
  position: Position,
): { readonly binding: PlanBinding; readonly node: Node } | { readonly refused: string } | undefined {
  const at = nodeAtOffset(plan.tree, plan.document.offsetAt(position));
  if (!at || at.isKey || at.node.type !== "string") return undefined;
  const index = bindingIndex(plan);
  const symbol = index.symbolAt(at.node);
  if (!symbol) {
    const reference = index.referenceAt(at.node);
    return reference
      ? { refused: `${JSON.stringify(reference.name)} is not bound in this scope, so there is no variable to rename.` }
      : undefined;
  }
  const syntax = plan.analysis.document.syntaxErrors.find((error) => error.code !== "duplicate_key");
  if (syntax) {
    const line = plan.document.positionAt(syntax.offset).line + 1;
    return { refused: `Fix the JSON syntax error on line ${line} first: until then a rename could miss references.` };
  }
  return { binding: symbol.binding, node: symbol.node };
}

function invalidName(name: string): string | undefined {
  if (name.length === 0) return "A binding name cannot be empty.";
  if (name.length > MAX_NAME_LENGTH) return `A binding name can be at most ${MAX_NAME_LENGTH} characters long.`;
  if (!VALID_NAME.test(name)) {
    return `${JSON.stringify(name)} is not a valid binding name: use letters, digits, "_", "-" and ".", starting with a letter or "_".`;
  }
  return undefined;
}

/** Why renaming `target` to `newName` would change what some name means, or undefined. */
function renameConflict(plan: AnalyzedPlan, target: PlanBinding, newName: string): string | undefined {
  const line = (node: Node) => plan.document.positionAt(node.offset).line + 1;
  const old = JSON.stringify(target.name);
  const wanted = JSON.stringify(newName);
  const isTarget = (binding: PlanBinding | undefined) => binding?.nameNode === target.nameNode;
  let conflict: string | undefined;
  walkBindings(plan.tree, {
    declare(binding, scope) {
      if (conflict) return;
      if (isTarget(binding)) {
        const other = scope.lookup(newName);
        if (other)
          conflict = `${wanted} is already in scope here (bound on line ${line(other.nameNode)}): choose another name.`;
      } else if (binding.name === newName && isTarget(scope.lookup(target.name))) {
        conflict = `${wanted} is bound on line ${line(binding.nameNode)}, inside the scope of ${old}: the two would clash; choose another name.`;
      }
    },
    reference(reference, scope) {
      if (conflict) return;
      if (isTarget(reference.binding)) {
        const other = scope.lookup(newName);
        if (other) {
          conflict = `${wanted} is already in scope at the reference on line ${line(reference.nameNode)} (bound on line ${line(other.nameNode)}): choose another name.`;
        }
      } else if (reference.name === newName && reference.binding === undefined && isTarget(scope.lookup(target.name))) {
        conflict = `The reference to ${wanted} on line ${line(reference.nameNode)} names no variable today and would then name this one: choose another name.`;
      }
    },
  });
  return conflict;
}
