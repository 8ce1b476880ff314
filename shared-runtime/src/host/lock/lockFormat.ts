// The shape of rlmplan.lock.json (published as shared-runtime/schemas/lock.schema.json): what a
// person pinned of a host profile's tools, MCP servers and providers with `rlm-plan lock`.

import { existsSync } from "node:fs";
import { join } from "node:path";
import type { HostProfile } from "../profileTypes";

export const LOCK_FILENAME = "rlmplan.lock.json";

/** The lock of a profile: always beside it. */
export function lockFileOf(profile: { readonly dir: string }): string {
  return join(profile.dir, LOCK_FILENAME);
}

/** What `check --preflight` says once of a profile that names tools or providers and has no lock. */
export function lockNotice(
  profile: Pick<HostProfile, "dir" | "mcpServers" | "providers" | "tools">,
): string | undefined {
  if (existsSync(lockFileOf(profile))) return undefined;
  const pinnable =
    profile.mcpServers.size > 0 ||
    profile.providers.size > 0 ||
    [...profile.tools.values()].some((tool) => tool.type === "command");
  return pinnable ? `no ${LOCK_FILENAME}: run rlm-plan lock to pin tools` : undefined;
}

/** An MCP tool's fingerprint: the whole, and each part a drift can name. */
export interface ToolPin {
  readonly sha256: string;
  /** JSON Pointer of a part ("/description", "/inputSchema/properties/q") -> its SHA-256. */
  readonly parts: Readonly<Record<string, string>>;
}

export interface McpServerPin {
  readonly command?: readonly string[];
  readonly url?: string;
  readonly server: { readonly name: string; readonly version: string };
  readonly tools: Readonly<Record<string, ToolPin>>;
}

export interface CommandToolPin {
  readonly program: string;
  readonly sha256: string;
  readonly scripts?: Readonly<Record<string, string>>;
}

export interface ProviderPin {
  readonly baseUrl: string;
  readonly model: string;
}

export interface ToolLock {
  readonly lockVersion: 1;
  readonly commandTools: Readonly<Record<string, CommandToolPin>>;
  readonly mcpServers: Readonly<Record<string, McpServerPin>>;
  readonly providers: Readonly<Record<string, ProviderPin>>;
}
