// A profile against its lock without starting anything: what an editor can say while the profile
// is edited on an untrusted checkout. Command tools (their program and scripts hashed), providers
// (URL and model), how each MCP server is started, and entries the lock has that the profile no
// longer names. What an MCP server lists is compared only where it is started (a run,
// `check --preflight`, `rlm-plan lock`): asking it would run a program of the workspace.

import type { HostProfile } from "../profileTypes";
import { mcpLaunch } from "./currentPins";
import { goneFromProfile, launchText, type PinChange, type PinSubject } from "./lockDrift";
import { readLockFile } from "./lockFile";
import { LOCK_FILENAME, lockFileOf, lockNotice } from "./lockFormat";
import { commandToolChanges, providerChanges } from "./pinRefusals";

export type ProfileLockStatus =
  /** No lock beside the profile; `notice` when it has something to pin. */
  | { readonly kind: "none"; readonly file: string; readonly notice?: string }
  /** A lock that cannot be read or does not match its schema: runs refuse it as it is. */
  | { readonly kind: "unreadable"; readonly file: string; readonly message: string }
  /** The lock read, and what differs from it (empty when nothing checked here did). */
  | { readonly kind: "checked"; readonly file: string; readonly changes: readonly PinChange[] };

const q = (text: string) => JSON.stringify(text);

/** How `profile` stands against its lock, from files alone (hashes, no process started). */
export function profileLockStatus(
  profile: Pick<HostProfile, "dir" | "file" | "tools" | "mcpServers" | "providers">,
  env: NodeJS.ProcessEnv = process.env,
): ProfileLockStatus {
  const file = lockFileOf(profile);
  const read = readLockFile(file);
  if (!read.ok) {
    const first = read.errors[0];
    const where = first && first.line > 0 ? `${LOCK_FILENAME}:${first.line}:${first.column}: ` : "";
    return { kind: "unreadable", file, message: `${where}${first?.message ?? "the lock file is not valid"}` };
  }
  const lock = read.lock;
  if (lock === undefined) {
    const notice = lockNotice(profile);
    return notice === undefined ? { kind: "none", file } : { kind: "none", file, notice };
  }
  const changes: PinChange[] = [];
  for (const [name, spec] of profile.tools)
    if (spec.type === "command") changes.push(...commandToolChanges(lock, name, spec, profile, env));
  for (const [server, spec] of profile.mcpServers) {
    const subject: PinSubject = { kind: "mcp", server };
    const locked = lock.mcpServers[server];
    if (locked === undefined) {
      changes.push({ subject, text: `MCP server ${q(server)} is not in ${LOCK_FILENAME}` });
      continue;
    }
    const found = mcpLaunch(spec);
    if (JSON.stringify(found.command) !== JSON.stringify(locked.command) || found.url !== locked.url)
      changes.push({
        subject,
        text: `MCP server ${q(server)} is started as ${launchText(found)} (locked: ${launchText(locked)})`,
      });
  }
  for (const [name, spec] of profile.providers) changes.push(...providerChanges(lock, name, spec));
  const gone = goneFromProfile(lock, {
    commandTool: (tool) => profile.tools.get(tool)?.type === "command",
    mcpServer: (server) => profile.mcpServers.has(server),
    provider: (provider) => profile.providers.has(provider),
  });
  changes.push(...gone.commandTools, ...gone.mcpServers, ...gone.providers);
  return { kind: "checked", file, changes };
}
