// Quick fixes for an unknown tool or provider: the nearest registered name, or (a command) the host
// profile opened at its "tools" or "providers" section; and the command's execution.

import { pointer } from "@rlm-plan/core/host";
import { basename } from "node:path";
import {
  CodeActionKind,
  type CodeAction,
  type Diagnostic,
  type Range,
  type ShowDocumentParams,
  type ShowDocumentResult,
} from "vscode-languageserver-protocol";
import { TextDocument } from "vscode-languageserver-textdocument";
import { ShowHostProfileCommand } from "../../protocol";
import { lspRange } from "../diagnostics";
import type { FixContext, HostProfileFile } from "./fixKit";
import { replaceName } from "./replaceName";

type Section = "tools" | "providers";

const sectionOf = (context: FixContext): Section =>
  (context.problem.reason ?? context.problem.kind) === "unknown_tool" ? "tools" : "providers";

export function replaceUnregistered(context: FixContext): CodeAction | undefined {
  const section = sectionOf(context);
  const host = context.hostProfile();
  const registered = host ? [...host.profile[section].keys()] : [];
  const what = `registered ${section === "tools" ? "tool" : "provider"}`;
  return replaceName(context.plan, context.problem, context.diagnostic, registered, what);
}

export function openHostProfileSection(context: FixContext): CodeAction | undefined {
  return openHostProfile(context.diagnostic, context.hostProfile(), sectionOf(context));
}

/** A command that asks the client to open the host profile with the section's key selected. */
function openHostProfile(
  diagnostic: Diagnostic,
  host: HostProfileFile | undefined,
  section: Section,
): CodeAction | undefined {
  if (!host) return undefined;
  const document = TextDocument.create(host.uri, "json", 0, host.text);
  const where = host.profile.locate(pointer([section]), "key");
  // Without the section, the profile's nearest node is found instead: open at its start.
  const found = host.text.slice(where.offset, where.offset + where.length) === JSON.stringify(section);
  const selection: Range = lspRange(document, { offset: where.offset, length: found ? where.length : 0 });
  const title = `Open ${basename(host.profile.file)} at "${section}"`;
  const args: ShowHostProfileCommand.Arguments = [{ uri: host.uri, selection }];
  return {
    title,
    kind: CodeActionKind.QuickFix,
    diagnostics: [diagnostic],
    command: { title, command: ShowHostProfileCommand.command, arguments: args },
  };
}

/**
 * Runs ShowHostProfileCommand: asks the client to open the file with the selection. False when
 * the arguments are not a URI, or the client cannot or will not show it.
 */
export async function showHostProfile(
  args: readonly unknown[],
  show: (params: ShowDocumentParams) => Promise<ShowDocumentResult>,
): Promise<boolean> {
  const target: unknown = args[0];
  if (typeof target !== "object" || target === null) return false;
  const { uri, selection } = target as { uri?: unknown; selection?: Range };
  if (typeof uri !== "string") return false;
  try {
    const shown = await show({ uri, takeFocus: true, ...(selection ? { selection } : {}) });
    return shown.success;
  } catch {
    // The client does not implement window/showDocument.
    return false;
  }
}
