// The host profile against its lock, as the editor shows it: each drift from rlmplan.lock.json a
// diagnostic at the entry it concerns (runs refuse it, so an error), an unreadable lock an error
// at the top, and a profile with something to pin but no lock a hint. Each offers "Update Lock"
// (or "Create Lock"): a command the user runs, never an edit applied for them, since writing the
// lock starts the profile's MCP servers to ask them what they are.

import {
  LOCK_FILENAME,
  pointer,
  type HostProfile,
  type HostProfileResult,
  type PinSubject,
  type ProfileLockStatus,
} from "@rlm-plan/core/host";
import { CodeActionKind, DiagnosticSeverity, type CodeAction, type Diagnostic } from "vscode-languageserver-protocol";
import type { TextDocument } from "vscode-languageserver-textdocument";
import { DIAGNOSTIC_SOURCE, hostProfileDiagnostics, lspRange } from "./diagnostics";

export const TOOL_DRIFT_CODE = "tool_drift";
export const LOCK_UNREADABLE_CODE = "lock_unreadable";
export const NO_LOCK_CODE = "no_lock";
const LOCK_CODES: ReadonlySet<unknown> = new Set([TOOL_DRIFT_CODE, LOCK_UNREADABLE_CODE, NO_LOCK_CODE]);

/** Where a change is said: the profile's entry for it, else its section, else the first key. */
function subjectPath(subject: PinSubject, profile: Pick<HostProfile, "tools" | "mcpServers" | "providers">): string[] {
  switch (subject.kind) {
    case "command":
      return profile.tools.has(subject.tool) ? ["tools", subject.tool] : ["tools"];
    case "mcp":
      return profile.mcpServers.has(subject.server) ? ["mcpServers", subject.server] : ["mcpServers"];
    case "provider":
      return profile.providers.has(subject.provider) ? ["providers", subject.provider] : ["providers"];
  }
}

export function lockDiagnostics(
  document: TextDocument,
  profile: Pick<HostProfile, "locate" | "tools" | "mcpServers" | "providers">,
  status: ProfileLockStatus,
): Diagnostic[] {
  // The profile as a whole (no lock, an unreadable one): its opening brace, not every line.
  const at = (path: readonly string[]) =>
    lspRange(document, path.length === 0 ? { offset: 0, length: 1 } : profile.locate(pointer(path), "key"));
  const diagnostic = (path: readonly string[], severity: DiagnosticSeverity, code: string, message: string) => ({
    range: at(path),
    severity,
    code,
    source: DIAGNOSTIC_SOURCE,
    message,
  });
  switch (status.kind) {
    case "none":
      return status.notice === undefined
        ? []
        : [
            diagnostic(
              [],
              DiagnosticSeverity.Hint,
              NO_LOCK_CODE,
              `no ${LOCK_FILENAME}: the profile's tools are trusted by name; pin them with rlm-plan lock (or Create Lock) so that runs refuse a tool that changed`,
            ),
          ];
    case "unreadable":
      return [
        diagnostic([], DiagnosticSeverity.Error, LOCK_UNREADABLE_CODE, `${status.message}: runs refuse this profile`),
      ];
    case "checked":
      return status.changes.map((change) =>
        diagnostic(
          subjectPath(change.subject, profile),
          DiagnosticSeverity.Error,
          TOOL_DRIFT_CODE,
          `drift from the lock: ${change.text}; runs refuse it until it is accepted (Update Lock, or rlm-plan lock --update)`,
        ),
      );
  }
}

/**
 * "Update Lock" for the lock's diagnostics in the request: one action, a command (`command`: the
 * client's, which asks first, or the server's own for clients without one), with the profile's URI.
 */
export function lockActions(uri: string, diagnostics: readonly Diagnostic[], command: string): CodeAction[] {
  const ours = diagnostics.filter((diagnostic) => LOCK_CODES.has(diagnostic.code));
  if (ours.length === 0) return [];
  const create = ours.every((diagnostic) => diagnostic.code === NO_LOCK_CODE);
  const title = create ? "Create Lock (starts the profile's MCP servers)" : "Update Lock (accept the changes)";
  return [
    {
      title,
      kind: CodeActionKind.QuickFix,
      diagnostics: ours,
      // Never preferred: accepting drift is a decision, not a fix to apply on save.
      isPreferred: false,
      command: { title, command, arguments: [{ uri }] },
    },
  ];
}

/** All of a host profile's diagnostics, pushed or pulled: the loader's, MCP listings', then the lock's. */
export function profileDiagnostics(
  document: TextDocument,
  result: HostProfileResult,
  file: string,
  toolListingFailures: ReadonlyMap<string, string>,
  lock: ProfileLockStatus | undefined,
): Diagnostic[] {
  return [
    ...hostProfileDiagnostics(document, result, file, toolListingFailures),
    ...(result.ok && lock ? lockDiagnostics(document, result.profile, lock) : []),
  ];
}
