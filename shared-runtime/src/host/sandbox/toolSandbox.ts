// The sandbox one tool process gets, from the host profile: the profile's `sandbox` mode, the
// workspace (read-only), the paths the tool declares in `writes` and whether it declares
// `network`. Resolved once per tool when the host is built; bubblewrapArguments.ts turns it into
// bubblewrap's command line at each start.

import { existsSync } from "node:fs";
import { workspacePath, workspaceRootOf } from "../workspaceBoundary";
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

/** One line for hover and preflight: what the sandbox lets the tool do. */
export function describeSandbox(sandbox: ToolSandbox | undefined): string {
  if (sandbox === undefined) return 'no sandbox (the host profile sets "sandbox": "off")';
  const writes =
    sandbox.writes.length === 0
      ? "writes nothing"
      : `writes only ${sandbox.writes.length} declared path${sandbox.writes.length === 1 ? "" : "s"}`;
  const network = sandbox.network ? "network allowed" : "no network";
  return `sandboxed (${sandbox.mode}): workspace read-only, ${writes}, ${network}, private /tmp, no home folder`;
}
