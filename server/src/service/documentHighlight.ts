// Document highlight: with the cursor on a binding's name or on a variable reference, the
// binding (Write) and every reference that means it (Read), as the runtime's semantic model
// resolves them: the same scoping as references and rename, so a namesake in a sibling
// sub-plan stays unlit.

import { DocumentHighlightKind, type DocumentHighlight, type Position } from "vscode-languageserver-protocol";
import type { AnalyzedPlan } from "./analyzedPlan";
import { lspRange } from "./diagnostics";
import { bindingToken, modelOf, nameAtCursor, referenceToken } from "./planNames";
import { nodeAtOffset } from "./planTree";

export function documentHighlights(plan: AnalyzedPlan, position: Position): DocumentHighlight[] {
  const symbol = nameAtCursor(plan, nodeAtOffset(plan.tree, plan.document.offsetAt(position)));
  const model = modelOf(plan);
  if (!symbol?.binding || !model) return [];
  const highlights: { offset: number; highlight: DocumentHighlight }[] = [];
  const declaration = bindingToken(plan, symbol.binding);
  if (declaration) {
    highlights.push({
      offset: declaration.offset,
      highlight: { range: lspRange(plan.document, declaration), kind: DocumentHighlightKind.Write },
    });
  }
  for (const reference of model.referencesTo(symbol.binding)) {
    const token = referenceToken(plan, reference);
    if (!token) continue;
    highlights.push({
      offset: token.offset,
      highlight: { range: lspRange(plan.document, token), kind: DocumentHighlightKind.Read },
    });
  }
  return highlights.sort((a, b) => a.offset - b.offset).map((entry) => entry.highlight);
}
