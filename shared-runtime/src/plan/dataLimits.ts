// What the static analysis needs to know of a host's data limits and built-in tools: the
// max_results a context search, partition or map stops at (and where that number comes from,
// for messages), and which tool names run which built-in. Built from a host profile, or the
// runtime's defaults when there is none.

import { DEFAULT_CONTEXT_LIMITS } from "../context/limits";
import { isBuiltinToolName, type BuiltinToolName } from "../host/builtinTools";
import type { HostProfile } from "../host/profile";

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

export function dataLimitsOf(profile: HostProfile, fileName: string): DataLimits {
  const builtins = new Map<string, BuiltinToolName>();
  for (const [name, spec] of profile.tools)
    if (spec.type === "builtin" && isBuiltinToolName(spec.builtin)) builtins.set(name, spec.builtin);
  const set = profile.context?.max_results;
  return {
    maxResults: set ?? DEFAULT_CONTEXT_LIMITS.maxResults,
    maxResultsSource:
      set !== undefined
        ? `context.max_results in ${fileName}`
        : `the runtime's default; ${fileName} sets no context.max_results`,
    builtins,
  };
}

/** The built-in a tool step named `name` runs, if any. */
export function builtinOf(name: string, limits: DataLimits): BuiltinToolName | undefined {
  if (limits.builtins) return limits.builtins.get(name);
  return isBuiltinToolName(name) ? name : undefined;
}
