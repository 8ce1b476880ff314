// What plans are validated against under a host profile. Apart from createHost.ts so that a
// static check (analysisPolicy.ts) does not load the host's tools, processes and MCP clients.

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
