// The sub-plan refactorings as code actions: "Extract N steps to a sub-plan" on a selection,
// "Inline the sub-plan" on an `rlm` step. A refused one is offered disabled with its reason to
// clients that show such actions (VS Code does, when asked for refactorings), so the user learns
// why; other clients get nothing. Where the client takes snippet edits, the new binding's name is
// a placeholder to type over.

import { CodeActionKind, type CodeAction, type WorkspaceEdit } from "vscode-languageserver-protocol";
import type { AnalyzedPlan } from "../analyzedPlan";
import { extractSubPlan } from "./extractSubPlan";
import { inlineSubPlan } from "./inlineSubPlan";
import type { RefactorOutcome } from "./outcome";

export const SUB_PLAN_ACTION_KINDS = [CodeActionKind.RefactorExtract, CodeActionKind.RefactorInline];

export interface SubPlanRequest {
  /** The selection, as offsets into the plan's text. */
  readonly start: number;
  readonly end: number;
  /** Kinds the client wants (a prefix matches); all when absent. */
  readonly wants: (kind: string) => boolean;
  /** The client applies SnippetTextEdits (LSP 3.18 `workspaceEdit.snippetEditSupport`). */
  readonly snippets: boolean;
  /** The client shows disabled actions (`codeAction.disabledSupport`). */
  readonly disabled: boolean;
}

export function subPlanActions(plan: AnalyzedPlan, request: SubPlanRequest): CodeAction[] {
  const actions: CodeAction[] = [];
  const offer = (kind: string, outcome: RefactorOutcome | undefined) => {
    if (!outcome) return;
    if ("refused" in outcome) {
      if (request.disabled) actions.push({ title: outcome.title, kind, disabled: { reason: outcome.refused } });
      return;
    }
    actions.push({ title: outcome.title, kind, edit: workspaceEdit(plan, outcome, request.snippets) });
  };
  // An empty selection extracts nothing: a cursor would offer it on every step.
  if (request.start < request.end && request.wants(CodeActionKind.RefactorExtract))
    offer(CodeActionKind.RefactorExtract, extractSubPlan(plan, request.start, request.end));
  if (request.wants(CodeActionKind.RefactorInline))
    offer(CodeActionKind.RefactorInline, inlineSubPlan(plan, request.start));
  return actions;
}

function workspaceEdit(
  plan: AnalyzedPlan,
  outcome: Exclude<RefactorOutcome, { refused: string }>,
  snippets: boolean,
): WorkspaceEdit {
  const { document } = plan;
  const range = {
    start: document.positionAt(outcome.offset),
    end: document.positionAt(outcome.offset + outcome.length),
  };
  if (!snippets || outcome.snippet === undefined)
    return { changes: { [document.uri]: [{ range, newText: outcome.newText }] } };
  const snippet = { kind: "snippet" as const, value: outcome.snippet };
  return {
    documentChanges: [{ textDocument: { uri: document.uri, version: document.version }, edits: [{ range, snippet }] }],
  };
}
