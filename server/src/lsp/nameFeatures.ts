// Registrations of the features that colour and light up a plan's names: semantic tokens (full,
// range and delta) and document highlight. Both answer from the runtime's semantic model.

import type { SemanticTokensDeltaParams, SemanticTokensRangeParams } from "vscode-languageserver";
import type { AnalyzedPlan } from "../service/analyzedPlan";
import { documentHighlights } from "../service/documentHighlight";
import type { Feature } from "./feature";
import { SEMANTIC_TOKENS_LEGEND } from "../service/semanticTokens";
import { SemanticTokensCache } from "./semanticTokensCache";
import { rangeTokensOnlyMessage } from "../service/sizeLimits";

export const semanticTokens: Feature = (ctx) => {
  const cache = new SemanticTokensCache();
  const empty = { data: [] };
  ctx.declare({ semanticTokensProvider: { legend: SEMANTIC_TOKENS_LEGEND, full: { delta: true }, range: true } });
  const tokens = ctx.connection.languages.semanticTokens;
  // Each request answers for an open plan, and with no tokens for any other document.
  const forPlan = <P extends { readonly textDocument: { readonly uri: string } }, R>(
    method: string,
    answer: (plan: AnalyzedPlan, params: P) => R,
  ) =>
    ctx.guard.request(
      method,
      (params: P) => {
        const plan = ctx.workspace.plan(params.textDocument.uri);
        return plan ? answer(plan, params) : empty;
      },
      empty,
    );
  // A plan over `largePlanSize` gets no whole-document answer (null, logged once per open): the
  // client then asks for the range on screen, which costs a screen (service/sizeLimits.ts).
  const logged = new Set<string>();
  const wholeRefused = (plan: AnalyzedPlan): boolean => {
    const bytes = ctx.workspace.sizeOf(plan.document);
    const limit = ctx.workspace.settings.largePlanSize;
    if (bytes <= limit) return false;
    const uri = plan.document.uri;
    if (!logged.has(uri)) {
      logged.add(uri);
      ctx.connection.console.info(rangeTokensOnlyMessage(uri, bytes, limit));
    }
    return true;
  };
  tokens.on(forPlan("semanticTokens", (plan) => (wholeRefused(plan) ? null : cache.full(plan))));
  tokens.onDelta(
    forPlan("semanticTokensDelta", (plan, params: SemanticTokensDeltaParams) =>
      wholeRefused(plan) ? null : cache.delta(plan, params.previousResultId),
    ),
  );
  tokens.onRange(
    forPlan("semanticTokensRange", (plan, params: SemanticTokensRangeParams) => cache.range(plan, params.range)),
  );
  // Tokens depend on the host only through which tools are built-ins (defaultLibrary): when
  // that changes without an edit (the host profile changed), clients that can are asked again.
  const builtins = new Map<string, string>();
  ctx.workspace.onPlanAnalyzed((plan) => {
    const now = [...(plan.host?.dataLimits.builtins?.keys() ?? [])].sort().join("\n");
    const before = builtins.get(plan.document.uri);
    builtins.set(plan.document.uri, now);
    if (before === undefined || before === now) return;
    if (ctx.clientCapabilities()?.workspace?.semanticTokens?.refreshSupport !== true) return;
    void tokens.refresh().catch(() => undefined);
  });
  ctx.workspace.onDocumentClosed((uri) => {
    cache.forget(uri);
    logged.delete(uri);
    builtins.delete(uri);
  });
};

export const documentHighlight: Feature = (ctx) => {
  ctx.declare({ documentHighlightProvider: true });
  ctx.connection.onDocumentHighlight(
    ctx.guard.request(
      "documentHighlight",
      (params) => {
        const plan = ctx.workspace.plan(params.textDocument.uri);
        return plan ? documentHighlights(plan, params.position) : [];
      },
      [],
    ),
  );
};
