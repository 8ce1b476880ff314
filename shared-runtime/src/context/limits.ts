// The bounds every context operation works within: how many results and how many bytes it may
// return. They keep a context's text out of prompts except for what a plan explicitly asks for.

export interface ContextLimits {
  readonly maxResults: number;
  readonly maxBytes: number;
}

/** The reference's defaults (max_results 32, max_bytes 16384). */
export const DEFAULT_CONTEXT_LIMITS: ContextLimits = Object.freeze({ maxResults: 32, maxBytes: 16384 });

function positiveInteger(value: unknown): boolean {
  return typeof value === "number" && Number.isInteger(value) && value > 0;
}

export function areValidLimits(limits: unknown): limits is ContextLimits {
  if (typeof limits !== "object" || limits === null) return false;
  const { maxResults, maxBytes } = limits as { maxResults?: unknown; maxBytes?: unknown };
  return positiveInteger(maxResults) && positiveInteger(maxBytes);
}
