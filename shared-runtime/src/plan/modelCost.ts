// Money of model calls, the one rule: a provider's price per million tokens, the bound of one
// call's tokens before it is made, and what it cost from the usage its reply reports (or, when it
// reports none, its bound, marked estimated). `estimate`, the run's max_cost budget, the journal,
// the trace and every view read these functions; none prices a call on its own.

import { utf8Length, type JsonObject, type JsonValue } from "../json";

/** A model's price, in the host profile's currency per million tokens. */
export interface ModelPrice {
  readonly input_per_mtok: number;
  readonly output_per_mtok: number;
}

/** What the host says of one provider's calls: its price, and the max_tokens it sends when a step sets none. */
export interface ProviderCosting {
  readonly price?: ModelPrice;
  readonly maxTokens?: number;
}

/** The host profile's money: its currency, each provider's costing, and the run's ceiling if any. */
export interface CostPolicy {
  readonly currency: string;
  readonly providers: ReadonlyMap<string, ProviderCosting>;
  /** The profile's budget.max_cost, in `currency`. */
  readonly maxCost?: number;
}

export const DEFAULT_CURRENCY = "USD";

/**
 * Tokens a chat template adds to each message (role markers, separators). Byte-level tokenizers
 * (every OpenAI-compatible model's) never make more tokens than UTF-8 bytes, so a message's bytes
 * plus this bound its input tokens without knowing the tokenizer.
 */
export const MESSAGE_OVERHEAD_TOKENS = 8;

/** What `price` charges for these tokens. */
export function tokensCost(price: ModelPrice, inputTokens: number, outputTokens: number): number {
  return roundMoney((inputTokens * price.input_per_mtok + outputTokens * price.output_per_mtok) / 1e6);
}

/** Money to a billionth of the currency: sums of binary fractions print as written (0.0105, not 0.010499999). */
export function roundMoney(amount: number): number {
  return Math.round(amount * 1e9) / 1e9;
}

/** The output bound of a call: the step's max_tokens option, else the provider's default, else none. */
export function outputTokenBound(options: JsonObject, costing: ProviderCosting | undefined): number | undefined {
  const own = options["max_tokens"];
  if (typeof own === "number" && Number.isInteger(own) && own > 0) return own;
  return costing?.maxTokens;
}

/** The input bound of a request: its messages' UTF-8 bytes plus each message's template overhead. */
export function inputTokenBound(messages: readonly { readonly content: string }[]): number {
  let bound = 0;
  for (const message of messages) bound += utf8Length(message.content) + MESSAGE_OVERHEAD_TOKENS;
  return bound;
}

/** Why a call's worst case has no figure, or undefined when it has one. */
export function unpricedReason(
  provider: string,
  costing: ProviderCosting | undefined,
  maxTokens: number | undefined,
): string | undefined {
  if (!costing?.price) return `provider ${JSON.stringify(provider)} has no price in the host profile`;
  if (maxTokens === undefined) return unboundedReason(provider);
  return undefined;
}

/** Why a call's output tokens have no bound. */
export function unboundedReason(provider: string): string {
  return `provider ${JSON.stringify(provider)} has no max_tokens (set it on the step or the provider's maxTokens)`;
}

/** One call's worst case: its input bound and max_tokens at the price; undefined when either is unknown. */
export function worstCallCost(
  costing: ProviderCosting | undefined,
  inputBound: number,
  maxTokens: number | undefined,
): number | undefined {
  if (!costing?.price || maxTokens === undefined) return undefined;
  return tokensCost(costing.price, inputBound, maxTokens);
}

/** What one call used: tokens as the reply reported them, or its bounds (`estimated`), and their cost. */
export interface CallUsage {
  readonly input_tokens: number;
  readonly output_tokens: number;
  /** The provider reported no usage (or only part): the missing counts are the call's bounds. */
  readonly estimated: boolean;
  /** In the profile's currency; null when the provider has no price. */
  readonly cost: number | null;
}

/**
 * A reply's usage (`usage.prompt_tokens`, `usage.completion_tokens`, as chat replies and the
 * model reply shape carry it); a count it lacks is the call's bound: the request's input bound,
 * and for output max_tokens or, without one, the reply's text bytes (never more tokens than bytes).
 */
export function callUsage(
  reply: JsonValue | unknown,
  request: { readonly messages: readonly { readonly content: string }[]; readonly options: JsonObject },
  costing: ProviderCosting | undefined,
): CallUsage {
  const usage = field(reply, "usage");
  const prompt = count(field(usage, "prompt_tokens"));
  const completion = count(field(usage, "completion_tokens"));
  const input = prompt ?? inputTokenBound(request.messages);
  const text = field(reply, "text");
  const output =
    completion ??
    outputTokenBound(request.options, costing) ??
    utf8Length(typeof text === "string" ? text : (JSON.stringify(reply) ?? ""));
  return {
    input_tokens: input,
    output_tokens: output,
    estimated: prompt === undefined || completion === undefined,
    cost: costing?.price ? tokensCost(costing.price, input, output) : null,
  };
}

/** An amount as people read it: at most six decimals, trailing zeros dropped ("0.0105 USD"). */
export function moneyText(amount: number, currency: string): string {
  return `${amountText(amount)} ${currency}`;
}

/** An amount alone, at most six decimals ("0.0105"). */
export function amountText(amount: number): string {
  return String(Number(amount.toFixed(6)));
}

function count(value: unknown): number | undefined {
  return typeof value === "number" && Number.isSafeInteger(value) && value >= 0 ? value : undefined;
}

function field(value: unknown, key: string): unknown {
  if (typeof value !== "object" || value === null || Array.isArray(value)) return undefined;
  return Object.prototype.hasOwnProperty.call(value, key) ? (value as Record<string, unknown>)[key] : undefined;
}
