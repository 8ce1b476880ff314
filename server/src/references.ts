// Find references: every `{"ref": "var", "name": …}` that names a binding in its scope (and the
// binding's own `"bind"` value when the client asks for the declaration too), in source order.
// The same name in a sibling sub-plan is another variable and is not listed.

import type { Location, Position } from "vscode-languageserver";
import type { AnalyzedPlan } from "./analyzedPlan";
import { bindingIndex } from "./bindingIndex";
import { lspRange } from "./diagnostics";
import { nodeAtOffset } from "./planTree";

export function references(plan: AnalyzedPlan, position: Position, includeDeclaration: boolean): Location[] {
  const at = nodeAtOffset(plan.tree, plan.document.offsetAt(position));
  if (!at || at.isKey) return [];
  const index = bindingIndex(plan);
  const symbol = index.symbolAt(at.node);
  if (!symbol) return [];
  const nodes = [
    ...(includeDeclaration ? [symbol.binding.nameNode] : []),
    ...index.referencesOf(symbol.binding).map((reference) => reference.nameNode),
  ].sort((a, b) => a.offset - b.offset);
  return nodes.map((node) => ({ uri: plan.document.uri, range: lspRange(plan.document, node) }));
}
