// Registrations of the features that colour and light up a plan's names: semantic tokens (full,
// range and delta) and document highlight. Both answer from the runtime's semantic model.

import {
  LSPErrorCodes,
  ResponseError,
  type SemanticTokensDeltaParams,
  type SemanticTokensRangeParams,
} from "vscode-languageserver";
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
  // A plan over `largePlanSize` gets no whole-document answer (logged once per open): the client
  // asks for the range on screen instead, which costs a screen (service/sizeLimits.ts). A client
  // that allows it is told so by ServerCancelled: VS Code takes a null answer for "the document has
  // no tokens" and then never asks by range (its viewport asks only while the document's tokens
  // are incomplete), so null, for the other clients only, would leave the plan uncoloured there.
  const logged = new Set<string>();
  const wholeRefused = (plan: AnalyzedPlan): ResponseError | null | undefined => {
    const bytes = ctx.workspace.sizeOf(plan.document);
    const limit = ctx.workspace.settings.largePlanSize;
    if (bytes <= limit) return undefined;
    const uri = plan.document.uri;
    const message = rangeTokensOnlyMessage(uri, bytes, limit);
    if (!logged.has(uri)) {
      logged.add(uri);
      ctx.connection.console.info(message);
    }
    const cancellable = ctx.clientCapabilities()?.textDocument?.semanticTokens?.serverCancelSupport === true;
    return cancellable ? new ResponseError(LSPErrorCodes.ServerCancelled, message) : null;
  };
  tokens.on(
    forPlan("semanticTokens", (plan) => {
      const refused = wholeRefused(plan);
      return refused === undefined ? cache.full(plan) : refused;
    }),
  );
  tokens.onDelta(
    forPlan("semanticTokensDelta", (plan, params: SemanticTokensDeltaParams) => {
      const refused = wholeRefused(plan);
      return refused === undefined ? cache.delta(plan, params.previousResultId) : refused;
    }),
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
