// The one analysis policy built from a host profile: granted capabilities, the budget, the
// names the host registers (tools, providers, inputs, which inputs are contexts), what it
// knows of its tools (input schemas; MCP tools as their servers listed them, when they were
// asked) and its data limits. `check`, the editor's diagnostics, estimates, graphs and
// proposals all judge a plan by it; a run is checked against its capabilities and budget.

import { basename } from "node:path";
import type { AnalysisPolicy } from "../analysis";
import { costPolicyOf, dataLimitsOf, hostPolicy } from "../host/hostPolicy";
import { hostToolKnowledge, type McpDiscovery } from "../host/mcp/discovery";
import { contextInputNames, type HostProfile } from "../host/profile";
import { hostTypes } from "../host/typeHost";
import type { PolicyOptions } from "../run/pipeline";

/** Capabilities or a budget given for one check (the CLI's --capabilities and --budget), overriding the profile's. */
export interface PolicyOverrides {
  readonly capabilities?: readonly string[];
  readonly budget?: unknown;
}

/**
 * The policy a plan is analysed under: the profile's (with MCP tools known by the naming rule
 * alone unless `discovery` says what their servers listed), overrides on top; without a
 * profile, the overrides alone (nothing host-dependent is checked).
 */
export function analysisPolicy(
  profile: HostProfile | undefined,
  options: { readonly discovery?: McpDiscovery; readonly overrides?: PolicyOverrides } = {},
): AnalysisPolicy {
  const overrides = {
    ...(options.overrides?.capabilities ? { capabilities: options.overrides.capabilities } : {}),
    ...(options.overrides?.budget !== undefined ? { budget: options.overrides.budget } : {}),
  };
  if (!profile) return overrides;
  const tools = hostToolKnowledge(profile, options.discovery);
  const run = hostPolicy(profile);
  return {
    capabilities: run.capabilities,
    budget: run.budget,
    registries: {
      tools,
      providers: new Set(profile.providers.keys()),
      inputs: new Set(profile.inputs.keys()),
      contextInputs: contextInputNames(profile),
    },
    tools,
    types: hostTypes(profile, tools),
    dataLimits: dataLimitsOf(profile, basename(profile.file)),
    costs: costPolicyOf(profile),
    ...overrides,
  };
}

/**
 * What a run validates a plan against: the profile's capabilities and budget, and what its
 * preflight types the plan by (the same tool knowledge and type host as the analysis).
 */
export function runPolicy(profile: HostProfile): PolicyOptions {
  return {
    ...hostPolicy(profile),
    typing: (listing) => {
      const tools = hostToolKnowledge(profile, listing);
      return { tools, host: hostTypes(profile, tools) };
    },
  };
}
