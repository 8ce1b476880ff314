// `rlm-plan lock`'s work: everything the profile names fingerprinted now (every MCP server
// started, asked and stopped), then the lock written when there is none, left alone when it
// agrees, and replaced only on `--update`, the user's explicit act, which says what it accepted.

import { ProcessTracker } from "../processGroup";
import { McpServers } from "../mcp/servers";
import type { HostProfile, HostProfileError } from "../profileTypes";
import { commandToolPin, mcpServerPin, providerPin } from "./currentPins";
import { lockDrift, type PinChange } from "./lockDrift";
import { readLockFile, writeLockFile } from "./lockFile";
import { lockFileOf, type CommandToolPin, type McpServerPin, type ProviderPin, type ToolLock } from "./lockFormat";
import { keysSorted } from "./lockHash";

export type PinOutcome =
  /** No lock was there: written. */
  | { readonly kind: "written"; readonly file: string; readonly lock: ToolLock }
  /** The lock agrees with what was found: not touched. */
  | { readonly kind: "unchanged"; readonly file: string }
  /** `--update`: the lock replaced, with what it accepted. */
  | { readonly kind: "updated"; readonly file: string; readonly accepted: readonly PinChange[] }
  /** Without `--update`, the lock differs from what was found: nothing written. */
  | { readonly kind: "drifted"; readonly file: string; readonly changes: readonly PinChange[] }
  /** Something could not be fingerprinted (a server that does not start, a program not found): nothing written. */
  | { readonly kind: "failed"; readonly file: string; readonly problems: readonly string[] }
  /** The lock there is not a lock (without `--update`, which replaces it). */
  | { readonly kind: "invalid"; readonly file: string; readonly errors: readonly HostProfileError[] };

export interface PinOptions {
  readonly env: NodeJS.ProcessEnv;
  /** Replace a lock that differs (or is damaged). */
  readonly update: boolean;
}

/** Pins the profile's tools, MCP servers and providers in the lock beside it. */
export async function pinProfile(profile: HostProfile, options: PinOptions): Promise<PinOutcome> {
  const file = lockFileOf(profile);
  const existing = readLockFile(file);
  if (!existing.ok && !options.update) return { kind: "invalid", file, errors: existing.errors };
  const found = await currentLock(profile, options.env);
  if ("problems" in found) return { kind: "failed", file, problems: found.problems };
  const locked = existing.ok ? existing.lock : undefined;
  if (locked === undefined) {
    writeLockFile(file, found.lock);
    return existing.ok ? { kind: "written", file, lock: found.lock } : { kind: "updated", file, accepted: [] };
  }
  const changes = lockDrift(locked, found.lock);
  if (changes.length === 0) return { kind: "unchanged", file };
  if (!options.update) return { kind: "drifted", file, changes };
  writeLockFile(file, found.lock);
  return { kind: "updated", file, accepted: changes };
}

/** What every tool, server and provider of the profile is now, or why some could not be read. */
async function currentLock(
  profile: HostProfile,
  env: NodeJS.ProcessEnv,
): Promise<{ readonly lock: ToolLock } | { readonly problems: string[] }> {
  const problems: string[] = [];
  const commandTools: Record<string, CommandToolPin> = {};
  for (const [name, spec] of profile.tools) {
    if (spec.type !== "command") continue;
    try {
      commandTools[name] = commandToolPin(spec, profile, env);
    } catch (error) {
      problems.push(`command tool ${JSON.stringify(name)}: ${error instanceof Error ? error.message : String(error)}`);
    }
  }
  const providers: Record<string, ProviderPin> = {};
  for (const [name, spec] of profile.providers) providers[name] = providerPin(spec);
  const mcpServers: Record<string, McpServerPin> = {};
  const tracker = new ProcessTracker();
  const servers = new McpServers(profile.mcpServers, profile.dir, { hostEnv: env, tracker, sandbox: profile });
  try {
    // In parallel, said in the profile's order.
    const asked = await Promise.allSettled(
      [...profile.mcpServers].map(
        async ([name, spec]) => [name, await mcpServerPin(servers.connection(name), spec)] as const,
      ),
    );
    for (const answer of asked) {
      if (answer.status === "fulfilled") mcpServers[answer.value[0]] = answer.value[1];
      else problems.push(answer.reason instanceof Error ? answer.reason.message : String(answer.reason));
    }
  } finally {
    await servers.close();
    await tracker.closeAll();
  }
  if (problems.length > 0) return { problems };
  const lock = { lockVersion: 1, commandTools, mcpServers, providers } as const;
  return { lock: keysSorted(lock) as ToolLock };
}
