// What plans are validated against under a host profile. Apart from createHost.ts so that a
// static check (analysisPolicy.ts) does not load the host's tools, processes and MCP clients.

import { isBuiltinToolName, type BuiltinToolName } from "../plan/builtinToolNames";
import { DEFAULT_CONTEXT_LIMITS, type DataLimits } from "../plan/dataLimits";
import type { CostPolicy, ProviderCosting } from "../plan/modelCost";
import { costingOf } from "../providers/openaiChat";
import type { HostProfile } from "./profile";

export interface HostPolicy {
  readonly capabilities: string[];
  /** "default" or the profile's partial budget object. */
  readonly budget: unknown;
}

/** What plans are validated against: the profile's capabilities and its budget ("default" when it has none). */
export function hostPolicy(profile: HostProfile): HostPolicy {
  return { capabilities: [...profile.capabilities], budget: profile.budget ?? "default" };
}

/** The profile's money: its currency, each provider's price and default max_tokens, its max_cost. */
export function costPolicyOf(profile: HostProfile): CostPolicy {
  const providers = new Map<string, ProviderCosting>();
  for (const [name, spec] of profile.providers) providers.set(name, costingOf(spec));
  return {
    currency: profile.currency,
    providers,
    ...(profile.maxCost !== undefined ? { maxCost: profile.maxCost } : {}),
  };
}

/** The data limits and built-in tool names of a profile, as the static analysis reads them. */
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
