// Code actions: "Run plan" as a source action, and the quick fixes of each diagnostic, keyed on its
// code and checked against the current analysis (a stale diagnostic gets none). Each fix is a
// module of quickFixes/; quickFixes/registry.ts says which fixes each code offers. Refactorings
// of the selection (extract and inline a sub-plan) are subPlans/'s.

import type { LocatedProblem } from "@rlm-plan/core";
import { CodeActionKind, type CodeAction, type Diagnostic, type Range } from "vscode-languageserver-protocol";
import type { AnalyzedPlan } from "./analyzedPlan";
import { diagnosticMessage, problemRange } from "./diagnostics";
import type { HostProfileFile } from "./quickFixes/fixKit";
import { fixesFor } from "./quickFixes/registry";
import { subPlanActions } from "./subPlans/subPlanActions";

export type { HostProfileFile } from "./quickFixes/fixKit";
export { showHostProfile } from "./quickFixes/unknownRegistered";

export interface CodeActionRequest {
  readonly diagnostics: readonly Diagnostic[];
  /** `context.only` of the request: kinds the client wants; all when absent. */
  readonly only?: readonly string[];
  /** The host profile in force, read only when a fix needs it. */
  readonly hostProfile: () => HostProfileFile | undefined;
  /** The command that runs a plan in this client (the lens's): offered as a source action. */
  readonly runCommand?: string;
  /** The selection the actions are asked for; refactorings need it. */
  readonly range?: Range;
  /** The client applies snippet edits (a new name is then a placeholder). */
  readonly snippetEdits?: boolean;
  /** The client shows disabled actions (a refused refactoring then says why). */
  readonly disabledActions?: boolean;
  /**
   * False when the editor asks by itself (the light bulb, on every selection change): then no
   * refactoring is offered, since each analyses the plan again (0.4 s at 10,000 steps). The
   * user's own ask (Refactor..., Ctrl+.) gets them.
   */
  readonly invoked?: boolean;
}

/**
 * "Run plan" as a code action, for editors that show no code lenses (Helix, eglot): the same
 * command the lens names, under a kind of its own so that a client asking only for quick fixes
 * never gets it.
 */
export const RUN_PLAN_ACTION_KIND = `${CodeActionKind.Source}.runPlan`;

export function codeActions(plan: AnalyzedPlan, request: CodeActionRequest): CodeAction[] {
  const wants = (kind: string) => !request.only || request.only.some((asked) => kind.startsWith(asked));
  const actions: CodeAction[] = [];
  if (request.runCommand && wants(RUN_PLAN_ACTION_KIND)) {
    const command = { title: "Run plan", command: request.runCommand, arguments: [plan.document.uri] };
    actions.push({ title: "Run plan", kind: RUN_PLAN_ACTION_KIND, command });
  }
  if (wants(CodeActionKind.QuickFix)) {
    for (const diagnostic of request.diagnostics) {
      const problem = currentProblem(plan, diagnostic);
      if (problem) actions.push(...fixesFor({ plan, problem, diagnostic, hostProfile: request.hostProfile }));
    }
  }
  if (request.range && request.invoked !== false) {
    const { document } = plan;
    const start = document.offsetAt(request.range.start);
    const end = document.offsetAt(request.range.end);
    const options = { snippets: request.snippetEdits === true, disabled: request.disabledActions === true };
    actions.push(...subPlanActions(plan, { start, end, wants, ...options }));
  }
  return actions;
}

/**
 * The analysis's problem a diagnostic stands for: same code, same range and, where several share
 * both (a retry over max_steps and max_tool_calls), the same message.
 */
function currentProblem(plan: AnalyzedPlan, diagnostic: Diagnostic): LocatedProblem | undefined {
  const start = plan.document.offsetAt(diagnostic.range.start);
  const end = plan.document.offsetAt(diagnostic.range.end);
  const candidates = plan.problems.filter((problem) => {
    if ((problem.reason ?? problem.kind) !== diagnostic.code) return false;
    const range = problemRange(plan, problem);
    return range.offset === start && range.offset + range.length === end;
  });
  if (candidates.length < 2) return candidates[0];
  return candidates.find((problem) => diagnosticMessage(plan, problem) === diagnostic.message);
}
