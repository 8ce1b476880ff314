// The bounds every context operation works within: how many results and how many bytes it may
// return. They keep a context's text out of prompts except for what a plan explicitly asks for.

import { DEFAULT_CONTEXT_LIMITS, type ContextLimits } from "../plan/dataLimits";
import { isPlainObject } from "../plan/normalize";

export { DEFAULT_CONTEXT_LIMITS, type ContextLimits };

/**
 * What a host gives for its context operations. A field left out (undefined) takes the
 * reference's default; any other value, `null` included, must be valid or the operation
 * fails with `invalid_limit`. `timeLimit` is in seconds.
 */
export interface ContextLimitOptions {
  readonly maxResults?: unknown;
  readonly maxBytes?: unknown;
  readonly timeLimit?: unknown;
}

/** The reference's default time limit of one context operation, in seconds. */
export const DEFAULT_CONTEXT_TIME_LIMIT = 0.25;

function positiveInteger(value: unknown): value is number {
  return typeof value === "number" && Number.isInteger(value) && value > 0;
}

function positiveNumber(value: unknown): value is number {
  return typeof value === "number" && Number.isFinite(value) && value > 0;
}

/**
 * The limits a host's options stand for, or undefined when one of them is invalid. Anything
 * but an object of options is invalid here too; preflight refuses it before the run starts.
 */
export function resolveContextLimits(options: unknown): ContextLimits | undefined {
  if (!isPlainObject(options)) return undefined;
  const { maxResults, maxBytes, timeLimit } = options as ContextLimitOptions;
  const results = maxResults === undefined ? DEFAULT_CONTEXT_LIMITS.maxResults : maxResults;
  const bytes = maxBytes === undefined ? DEFAULT_CONTEXT_LIMITS.maxBytes : maxBytes;
  const time = timeLimit === undefined ? DEFAULT_CONTEXT_TIME_LIMIT : timeLimit;
  if (!positiveInteger(results) || !positiveInteger(bytes) || !positiveNumber(time)) return undefined;
  return { maxResults: results, maxBytes: bytes };
}
