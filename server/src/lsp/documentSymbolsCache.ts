// The outline of each open plan, kept for its current version: an editor asks for it after every
// change (the outline view and the breadcrumbs each ask), and a 5 MB plan's 63,000 symbols take
// most of a second to build. A document whose outline was asked is built again in the idle turn
// after its diagnostics, so the next ask finds it ready; which symbols a plan has is service/symbols.ts.

import type { DocumentSymbol } from "vscode-languageserver";
import type { AnalyzedPlan } from "../service/analyzedPlan";
import { documentSymbols } from "../service/symbols";

export class DocumentSymbolsCache {
  private readonly kept = new Map<string, { readonly version: number; readonly symbols: DocumentSymbol[] }>();

  /** The plan's symbols, built once per version. */
  symbols(plan: AnalyzedPlan): DocumentSymbol[] {
    const { uri, version } = plan.document;
    const known = this.kept.get(uri);
    if (known?.version === version) return known.symbols;
    const symbols = documentSymbols(plan);
    this.kept.set(uri, { version, symbols });
    return symbols;
  }

  /** Builds a new version's symbols ahead of the ask, for a document whose outline was asked before. */
  warm(plan: AnalyzedPlan): void {
    if (this.kept.has(plan.document.uri)) this.symbols(plan);
  }

  forget(uri: string): void {
    this.kept.delete(uri);
  }
}
