// The sandbox one tool process gets, from the host profile: the profile's `sandbox` mode, the
// workspace (read-only), the paths the tool declares in `writes` and whether it declares
// `network`. Resolved once per tool when the host is built; bubblewrapArguments.ts turns it into
// bubblewrap's command line at each start.

import { existsSync } from "node:fs";
import { shownPath } from "../../text/shownPath";
import { workspacePath, workspaceRootOf } from "../workspaceBoundary";
import { mcpTransportOf } from "../mcp/spec";
import { sandboxAvailability } from "./sandboxProbe";
import type { HostProfile, SandboxMode } from "../profileTypes";

/** What of a host profile decides its tools' sandboxes (the profile itself, or its like in a test). */
export type SandboxHost = Pick<HostProfile, "file" | "dir" | "sandbox">;

export interface ToolSandbox {
  /** "preferred" runs unsandboxed where the sandbox cannot be made; "required" refuses. */
  readonly mode: Exclude<SandboxMode, "off">;
  /** The workspace (a real path): read-only in the sandbox. */
  readonly workspace: string;
  /** Absolute paths the tool may write (declared in `writes`, inside the workspace). */
  readonly writes: readonly string[];
  readonly network: boolean;
}

/** What a tool or stdio MCP server entry declares for its sandbox. */
export interface SandboxDeclaration {
  readonly writes?: readonly string[];
  readonly network?: boolean;
}

/** The profile's sandbox mode; "preferred" when it says nothing. */
export function sandboxModeOf(profile: Pick<HostProfile, "sandbox">): SandboxMode {
  return profile.sandbox ?? "preferred";
}

/**
 * The sandbox of a tool declared in `profile`, or undefined when the profile turns the sandbox
 * off. A `writes` path outside the workspace is refused when the profile is read
 * (host/profilePaths.ts); here such a path, should it appear, is simply not writable.
 */
export function toolSandbox(profile: SandboxHost, declared: SandboxDeclaration): ToolSandbox | undefined {
  const mode = sandboxModeOf(profile);
  if (mode === "off") return undefined;
  const writes: string[] = [];
  for (const written of declared.writes ?? []) {
    const bounded = workspacePath(profile.file, written, profile.dir);
    if (bounded.ok) writes.push(bounded.path);
  }
  return { mode, workspace: workspaceRootOf(profile.file), writes, network: declared.network === true };
}

/** Why a declared `writes` path cannot be bound now (it must exist when the tool starts), if so. */
export function missingWrites(sandbox: ToolSandbox): string[] {
  return sandbox.writes.filter((path) => !existsSync(path));
}

/**
 * Why a tool declared in `profile` cannot start in its sandbox, checked before a run's first side
 * effect: the profile requires a sandbox this machine cannot make, or a `writes` path is missing
 * (bubblewrap binds only what exists; with the sandbox on, wherever it runs). Undefined where it
 * can start.
 */
export function sandboxProblem(
  profile: SandboxHost,
  declared: SandboxDeclaration,
): { readonly problem: string; readonly fix: string } | undefined {
  const sandbox = toolSandbox(profile, declared);
  if (sandbox === undefined) return undefined;
  // Only a required sandbox asks the machine (bubblewrap is started once to probe); a missing
  // `writes` path is a mistake of the profile on any machine.
  const availability = sandbox.mode === "required" ? sandboxAvailability() : undefined;
  if (availability !== undefined && !availability.available)
    return {
      problem: `the host profile requires the sandbox ("sandbox": "required") and ${availability.reason}`,
      fix: `install bubblewrap, or set "sandbox" to "preferred"`,
    };
  const missing = missingWrites(sandbox)[0];
  return missing === undefined
    ? undefined
    : {
        problem: `the path ${JSON.stringify(shownPath(missing))} it declares in "writes" does not exist (in the sandbox a tool writes only paths that exist when it starts)`,
        fix: `create it, or fix its "writes"`,
      };
}

/**
 * What a failed tool's message adds when its stderr shows it met its sandbox's walls (a write to
 * a read-only path, a refused connection or name lookup): which declaration would let it through.
 */
export function sandboxHint(stderr: string, sandbox: ToolSandbox | undefined): string {
  if (sandbox === undefined) return "";
  if (/EROFS|read-only file system/i.test(stderr))
    return ' (it ran in its sandbox, where the workspace is read-only: list the paths it writes in its "writes")';
  if (!sandbox.network && /ENETUNREACH|EAI_AGAIN|ENOTFOUND|ECONNREFUSED|network is unreachable/i.test(stderr))
    return ' (it ran in its sandbox without network: give it "network": true if it needs one)';
  return "";
}

/**
 * What a run says once where tools run without the sandbox the profile prefers (bubblewrap or
 * user namespaces missing); undefined where they get it, or the profile turns it off.
 */
export function sandboxNotice(profile: SandboxHost & Pick<HostProfile, "tools" | "mcpServers">): string | undefined {
  if (sandboxModeOf(profile) !== "preferred" || !startsProcesses(profile)) return undefined;
  const availability = sandboxAvailability();
  return !availability.available
    ? `tools run without a sandbox: ${availability.reason} (set "sandbox": "required" in the host profile to refuse instead)`
    : undefined;
}

/**
 * Whether a run under `profile` asks this machine whether it can make the sandbox: the profile
 * wants one and starts tool processes (command tools, stdio MCP servers).
 */
export function sandboxWanted(profile: SandboxHost & Pick<HostProfile, "tools" | "mcpServers">): boolean {
  return sandboxModeOf(profile) !== "off" && startsProcesses(profile);
}

function startsProcesses(profile: Pick<HostProfile, "tools" | "mcpServers">): boolean {
  return (
    [...profile.tools.values()].some((spec) => spec.type === "command") ||
    [...profile.mcpServers.values()].some((spec) => mcpTransportOf(spec) === "stdio")
  );
}

/**
 * What the profile lets a tool do in its sandbox, for hover: read from the profile alone (no
 * program is started to ask whether this machine can make the sandbox).
 */
export function describeSandbox(profile: Pick<HostProfile, "sandbox">, declared: SandboxDeclaration): string {
  const mode = sandboxModeOf(profile);
  if (mode === "off") return 'no sandbox: the host profile sets "sandbox": "off"';
  const writes = declared.writes ?? [];
  const writable =
    writes.length === 0 ? "writes nothing" : `writes only ${writes.map((path) => JSON.stringify(path)).join(", ")}`;
  const network = declared.network === true ? "uses the network" : "no network";
  const where = mode === "required" ? "required" : "where bubblewrap runs";
  return `sandboxed (${where}): workspace read-only, ${writable}, ${network}, a private /tmp, no home folder`;
}
