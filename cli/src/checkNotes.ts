// What `rlm-plan check` says once beside the problems: what it left to --preflight, what a
// preflight started and stopped, a tool that would run unsandboxed, a profile without a lock, and
// the steps that can need approval.

import type { PlanApprovals } from "./approvalLines";

export interface CheckNotes {
  /** Checks left to --preflight (plain check, when a host profile applies). */
  readonly left: readonly string[];
  /** Per plan file: the MCP servers its preflight started and stopped (--preflight). */
  readonly started: ReadonlyMap<string, readonly string[]>;
  /** Per plan file: that its tools would run without the sandbox the profile prefers (--preflight). */
  readonly unsandboxed?: ReadonlyMap<string, string>;
  /** Said once: a profile preflighted that names tools but has no lock (rlmplan.lock.json). */
  readonly unpinned?: string;
  /** Per plan file: the steps that can need approval under its profile (docs/approvals.md). */
  readonly approvals?: ReadonlyMap<string, PlanApprovals>;
}

/** What check says it left to --preflight, or what its preflight started and stopped. */
export function noteLines(notes: CheckNotes): string[] {
  const lines: string[] = [];
  if (notes.left.length > 0)
    lines.push(`static check, no program started; left to --preflight: ${notes.left.join(", ")}`);
  for (const [file, servers] of notes.started) {
    lines.push(
      servers.length === 0
        ? `preflight of ${file}: no MCP server to start`
        : `preflight of ${file}: started MCP server${servers.length === 1 ? "" : "s"} ${servers.map((s) => JSON.stringify(s)).join(", ")} to list tools, then stopped`,
    );
  }
  for (const [file, notice] of notes.unsandboxed ?? []) lines.push(`preflight of ${file}: ${notice}`);
  if (notes.unpinned !== undefined) lines.push(notes.unpinned);
  return lines;
}
