// What every quick fix is given and builds with: the diagnostic's current problem, the host
// profile when a fix needs it, and the code action's shape (one diagnostic, edits by file).

import type { LocatedProblem } from "@rlm-plan/core";
import type { HostProfile } from "@rlm-plan/core/host";
import type { Node } from "jsonc-parser";
import { CodeActionKind, type CodeAction, type Diagnostic, type TextEdit } from "vscode-languageserver-protocol";
import type { AnalyzedPlan } from "../analyzedPlan";
import { nodeAtOffset } from "../planTree";

/** The host profile a fix may edit or open: its parsed form and its current text. */
export interface HostProfileFile {
  readonly uri: string;
  /** The editor's text when the file is open, the file on disk otherwise. */
  readonly text: string;
  readonly profile: HostProfile;
}

/** One diagnostic to fix, with the analysis's problem it stands for. */
export interface FixContext {
  readonly plan: AnalyzedPlan;
  readonly problem: LocatedProblem;
  readonly diagnostic: Diagnostic;
  /** The host profile in force, read only when a fix needs it. */
  readonly hostProfile: () => HostProfileFile | undefined;
}

/** A quick fix: its action for the diagnostic, or undefined when it does not apply. */
export type QuickFix = (context: FixContext) => CodeAction | undefined;

export function quickFix(
  title: string,
  diagnostic: Diagnostic,
  edits: Readonly<Record<string, TextEdit[]>>,
  preferred: boolean,
): CodeAction {
  return {
    title,
    kind: CodeActionKind.QuickFix,
    diagnostics: [diagnostic],
    ...(preferred ? { isPreferred: true } : {}),
    edit: { changes: { ...edits } },
  };
}

/** The string (or true/false/null) token a problem points at. */
export function tokenAt(plan: AnalyzedPlan, problem: LocatedProblem): Node | undefined {
  const node = nodeAtOffset(plan.tree, problem.range.offset)?.node;
  return node && node.offset === problem.range.offset && node.length === problem.range.length ? node : undefined;
}

/** The indentation a file already uses (two spaces when it has none). */
export function indentationOf(text: string): { tabSize: number; insertSpaces: boolean; eol: string } {
  const eol = text.includes("\r\n") ? "\r\n" : "\n";
  const indented = /^([ \t]+)\S/m.exec(text)?.[1];
  if (indented?.startsWith("\t")) return { tabSize: 1, insertSpaces: false, eol };
  return { tabSize: indented ? Math.min(indented.length, 8) : 2, insertSpaces: true, eol };
}
