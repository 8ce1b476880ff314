// Semantic tokens: the runtime's facts about each name of a plan (planTokens: operations,
// bindings, variables as the model resolves them, inputs, tools, providers, context actions,
// field keys) as LSP token types and modifiers, at the ranges the runtime's document gives.
// Standard types only, so every theme already colours them (legend in server/README.md).

import { builtinOf, DEFAULT_DATA_LIMITS, planTokens, type PlanToken, type StepSpan } from "@rlm-plan/core/plan";
import type { Node } from "jsonc-parser";
import type { Range, SemanticTokensLegend } from "vscode-languageserver-protocol";
import type { AnalyzedPlan } from "./analyzedPlan";
import { propertyValue } from "./planTree";

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

/**
 * The plan's tokens in document order; only those that touch `range` when one is given, and
 * then only the top-level steps the range spans are walked (a screen of a big plan costs a
 * screen, not the plan).
 */
export function decodedTokens(plan: AnalyzedPlan, range?: Range): DecodedToken[] {
  const model = plan.analysis.model;
  if (!model) return [];
  const limits = plan.host?.dataLimits ?? DEFAULT_DATA_LIMITS;
  const document = plan.document;
  const start = range ? document.offsetAt(range.start) : 0;
  const end = range ? document.offsetAt(range.end) : Infinity;
  const facts = planTokens(model, range ? stepSpan(plan, start, end) : undefined);
  const ranges = plan.analysis.document.rangesOf(facts.map((fact) => ({ path: fact.path, target: "value" })));
  const located: { offset: number; length: number; fact: PlanToken }[] = [];
  facts.forEach((fact, i) => {
    const where = ranges[i];
    if (where && where.length > 0) located.push({ offset: where.offset, length: where.length, fact });
  });
  located.sort((a, b) => a.offset - b.offset);
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

/**
 * The top-level steps that touch the offsets from `start` to `end`, found by a binary search of
 * the plan's `steps` in the source tree; undefined (every step) when there is no such list.
 */
function stepSpan(plan: AnalyzedPlan, start: number, end: number): StepSpan | undefined {
  const root = plan.tree;
  const steps = root?.type === "object" ? propertyValue(root, "steps") : undefined;
  const items = steps?.type === "array" ? (steps.children ?? []) : undefined;
  if (!items) return undefined;
  // The first step that ends at or after `start`, and the first that begins after `end`.
  const first = lowerBound(items.length, (i) => (items[i] as Node).offset + (items[i] as Node).length >= start);
  const after = lowerBound(items.length, (i) => (items[i] as Node).offset > end);
  return { first, last: after - 1 };
}

/** The least index in [0, count) where `holds` becomes true (it stays true after), else count. */
function lowerBound(count: number, holds: (index: number) => boolean): number {
  let low = 0;
  let high = count;
  while (low < high) {
    const middle = (low + high) >>> 1;
    if (holds(middle)) high = middle;
    else low = middle + 1;
  }
  return low;
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
