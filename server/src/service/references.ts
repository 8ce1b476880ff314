// Find references: every `{"ref": "var", "name": …}` that names a binding in its scope (and the
// binding's own `"bind"` value when the client asks for the declaration too), in source order.
// The same name in a sibling sub-plan is another variable and is not listed: the runtime's
// semantic model says which binding each reference means.

import type { Node } from "jsonc-parser";
import type { Location, Position } from "vscode-languageserver-protocol";
import type { AnalyzedPlan } from "./analyzedPlan";
import { lspRange } from "./diagnostics";
import { bindingToken, modelOf, nameAtCursor, referenceToken } from "./planNames";
import { nodeAtOffset } from "./planTree";

export function references(plan: AnalyzedPlan, position: Position, includeDeclaration: boolean): Location[] {
  const symbol = nameAtCursor(plan, nodeAtOffset(plan.tree, plan.document.offsetAt(position)));
  const model = modelOf(plan);
  if (!symbol?.binding || !model) return [];
  const nodes = [
    ...(includeDeclaration ? [bindingToken(plan, symbol.binding)] : []),
    ...model.referencesTo(symbol.binding).map((reference) => referenceToken(plan, reference)),
  ]
    .filter((node): node is Node => node !== undefined)
    .sort((a, b) => a.offset - b.offset);
  return nodes.map((node) => ({ uri: plan.document.uri, range: lspRange(plan.document, node) }));
}
