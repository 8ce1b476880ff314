// What the static analysis needs to know of a host's data limits and built-in tools: the
// max_results a context search, partition or map stops at (and where that number comes from,
// for messages), and which tool names run which built-in. Built from a host profile
// (host/hostPolicy.ts), or the runtime's defaults when there is none; the defaults live here, in
// the plan layer, so that context/ and host/ read the same numbers from below.

import { isBuiltinToolName, type BuiltinToolName } from "./builtinToolNames";

export interface ContextLimits {
  readonly maxResults: number;
  readonly maxBytes: number;
}

/** The reference's defaults (max_results 32, max_bytes 16384). */
export const DEFAULT_CONTEXT_LIMITS: ContextLimits = Object.freeze({ maxResults: 32, maxBytes: 16384 });

export interface DataLimits {
  /** The most items a context search, partition or map returns. */
  readonly maxResults: number;
  /** Where `maxResults` comes from, as a message says it. */
  readonly maxResultsSource: string;
  /** Tool name → the built-in it runs; undefined when no host is known. */
  readonly builtins: ReadonlyMap<string, BuiltinToolName> | undefined;
}

/** Without a host profile: the runtime's default cap; a tool named like a built-in is taken as it. */
export const DEFAULT_DATA_LIMITS: DataLimits = Object.freeze({
  maxResults: DEFAULT_CONTEXT_LIMITS.maxResults,
  maxResultsSource: "the runtime's default; no host profile sets context.max_results",
  builtins: undefined,
});

/** The built-in a tool step named `name` runs, if any. */
export function builtinOf(name: string, limits: DataLimits): BuiltinToolName | undefined {
  if (limits.builtins) return limits.builtins.get(name);
  return isBuiltinToolName(name) ? name : undefined;
}
