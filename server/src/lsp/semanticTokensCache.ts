// The protocol side of semantic tokens: the relative encoding and result ids of
// vscode-languageserver's builder, kept per open document so a client's delta request gets
// only the edits since its last answer. Which tokens a plan has is service/semanticTokens.ts.

import {
  SemanticTokensBuilder,
  type Range,
  type SemanticTokens,
  type SemanticTokensDelta,
} from "vscode-languageserver";
import type { AnalyzedPlan } from "../service/analyzedPlan";
import { decodedTokens, legendIndexed } from "../service/semanticTokens";

function encode(plan: AnalyzedPlan, builder: SemanticTokensBuilder, range?: Range): void {
  for (const token of legendIndexed(decodedTokens(plan, range))) builder.push(...token);
}

/**
 * Full and delta answers per document: the builder keeps the last result, so a delta is the
 * edits from it when the client names it, else a full answer.
 */
export class SemanticTokensCache {
  private readonly builders = new Map<string, SemanticTokensBuilder>();

  full(plan: AnalyzedPlan): SemanticTokens {
    const builder = new SemanticTokensBuilder();
    encode(plan, builder);
    this.builders.set(plan.document.uri, builder);
    return builder.build();
  }

  delta(plan: AnalyzedPlan, previousResultId: string): SemanticTokens | SemanticTokensDelta {
    const builder = this.builders.get(plan.document.uri);
    if (!builder || builder.id !== previousResultId) return this.full(plan);
    builder.previousResult(previousResultId);
    encode(plan, builder);
    return builder.buildEdits();
  }

  range(plan: AnalyzedPlan, range: Range): SemanticTokens {
    const builder = new SemanticTokensBuilder();
    encode(plan, builder, range);
    return builder.build();
  }

  forget(uri: string): void {
    this.builders.delete(uri);
  }
}
