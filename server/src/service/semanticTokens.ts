// Semantic tokens: the runtime's facts about each name of a plan (planTokens: operations,
// bindings, variables as the model resolves them, inputs, tools, providers, context actions,
// field keys) as LSP token types and modifiers, at the ranges the runtime's document gives.
// Standard types only, so every theme already colours them (legend in server/README.md).

import { builtinOf, DEFAULT_DATA_LIMITS, planTokens, type PlanToken } from "@rlm-plan/core";
import type { Range, SemanticTokensLegend } from "vscode-languageserver-protocol";
import type { AnalyzedPlan } from "./analyzedPlan";

const TOKEN_TYPES = ["keyword", "variable", "parameter", "function", "namespace", "method", "property"] as const;
const TOKEN_MODIFIERS = ["declaration", "readonly", "defaultLibrary"] as const;

export const SEMANTIC_TOKENS_LEGEND: SemanticTokensLegend = {
  tokenTypes: [...TOKEN_TYPES],
  tokenModifiers: [...TOKEN_MODIFIERS],
};

type TokenType = (typeof TOKEN_TYPES)[number];
type TokenModifier = (typeof TOKEN_MODIFIERS)[number];

const TYPE_OF: Readonly<Record<PlanToken["kind"], TokenType>> = {
  operation: "keyword",
  binding: "variable",
  variable: "variable",
  input: "parameter",
  tool: "function",
  provider: "namespace",
  contextAction: "method",
  fieldKey: "property",
};

/** A token as the protocol encodes it, before delta encoding (decoded form, for tests too). */
export interface DecodedToken {
  readonly line: number;
  readonly character: number;
  readonly length: number;
  readonly type: TokenType;
  readonly modifiers: readonly TokenModifier[];
}

/** The plan's tokens in document order; only those that touch `range` when one is given. */
export function decodedTokens(plan: AnalyzedPlan, range?: Range): DecodedToken[] {
  const model = plan.analysis.model;
  if (!model) return [];
  const limits = plan.host?.dataLimits ?? DEFAULT_DATA_LIMITS;
  const facts = planTokens(model);
  const ranges = plan.analysis.document.rangesOf(facts.map((fact) => ({ path: fact.path, target: "value" })));
  const located: { offset: number; length: number; fact: PlanToken }[] = [];
  facts.forEach((fact, i) => {
    const where = ranges[i];
    if (where && where.length > 0) located.push({ offset: where.offset, length: where.length, fact });
  });
  located.sort((a, b) => a.offset - b.offset);
  const document = plan.document;
  const start = range ? document.offsetAt(range.start) : 0;
  const end = range ? document.offsetAt(range.end) : Infinity;
  const tokens: DecodedToken[] = [];
  let previousEnd = -1;
  for (const { offset, length, fact } of located) {
    // A name token is one JSON string on one line; two facts never share one (guard anyway).
    if (offset < previousEnd || offset + length < start || offset > end) continue;
    previousEnd = offset + length;
    const position = document.positionAt(offset);
    tokens.push({
      line: position.line,
      character: position.character,
      length,
      type: TYPE_OF[fact.kind],
      modifiers: modifiersOf(fact, limits),
    });
  }
  return tokens;
}

function modifiersOf(fact: PlanToken, limits: typeof DEFAULT_DATA_LIMITS): TokenModifier[] {
  switch (fact.kind) {
    case "binding":
      // A binding is made once and never assigned again.
      return ["declaration", "readonly"];
    case "variable":
      return fact.resolved === true ? ["readonly"] : [];
    case "tool":
      return fact.name !== undefined && builtinOf(fact.name, limits) ? ["defaultLibrary"] : [];
    default:
      return [];
  }
}

/**
 * Each token as the five integers the protocol pushes for it (line, character, length, type
 * index in the legend, modifier bit set), before the relative encoding that lsp/ does.
 */
export function legendIndexed(tokens: readonly DecodedToken[]): (readonly [number, number, number, number, number])[] {
  return tokens.map((token) => {
    let modifiers = 0;
    for (const modifier of token.modifiers) modifiers |= 1 << TOKEN_MODIFIERS.indexOf(modifier);
    return [token.line, token.character, token.length, TOKEN_TYPES.indexOf(token.type), modifiers] as const;
  });
}
