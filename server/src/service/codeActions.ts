// Quick fixes, keyed on the diagnostic's code and checked against the current analysis (a stale
// diagnostic gets none): a misspelt operation, action, selector, strategy, transform, reducer or
// reference kind becomes the nearest valid one; an unbound variable the nearest one in scope, or
// a step binding it is added (addBindingFix.ts); a plan without a final step gets one returning
// its last binding; a duplicate binding is renamed
// with the references after it; a capability the host does not grant is added to the host
// profile (an edit of that file); an unknown tool or provider becomes the nearest registered
// one, or the host profile opens at its section; an unknown key (or model option) is renamed to
// the known one it is nearest to, or removed.

import {
  CONTEXT_ACTIONS,
  ESTIMATE_LIMITS,
  fieldValueSnippet,
  type LocatedProblem,
  MAP_TRANSFORMS,
  nearestMatch,
  OPERATIONS,
  PARTITION_STRATEGIES,
  REDUCERS,
  REFERENCE_KINDS,
  SELECTOR_TYPES,
} from "@rlm-plan/core";
import { pointer, type HostProfile } from "@rlm-plan/core/host";
import { modify, type Node } from "jsonc-parser";
import { basename } from "node:path";
import {
  CodeActionKind,
  type CodeAction,
  type Diagnostic,
  type Range,
  type ShowDocumentParams,
  type ShowDocumentResult,
  type TextEdit,
} from "vscode-languageserver-protocol";
import { TextDocument } from "vscode-languageserver-textdocument";
import type { AnalyzedPlan } from "./analyzedPlan";
import { diagnosticMessage, lspRange, problemRange } from "./diagnostics";
import { addBindingStep } from "./addBindingFix";
import { keySetAt } from "./keyCompletion";
import { modelOf } from "./planNames";
import { nodeAt, nodeAtOffset, stepSeparator, stringProperty } from "./planTree";
import { ShowHostProfileCommand } from "../protocol";
import { renameBinding } from "./rename";

/** The host profile a fix may edit or open: its parsed form and its current text. */
export interface HostProfileFile {
  readonly uri: string;
  /** The editor's text when the file is open, the file on disk otherwise. */
  readonly text: string;
  readonly profile: HostProfile;
}

export interface CodeActionRequest {
  readonly diagnostics: readonly Diagnostic[];
  /** `context.only` of the request: kinds the client wants; all when absent. */
  readonly only?: readonly string[];
  /** The host profile in force, read only when a fix needs it. */
  readonly hostProfile: () => HostProfileFile | undefined;
  /** The command that runs a plan in this client (the lens's): offered as a source action. */
  readonly runCommand?: string;
}

/**
 * "Run plan" as a code action, for editors that show no code lenses (Helix, eglot): the same
 * command the lens names, under a kind of its own so that a client asking only for quick fixes
 * never gets it.
 */
export const RUN_PLAN_ACTION_KIND = `${CodeActionKind.Source}.runPlan`;

/** Codes whose token is a name from a fixed list, and that list. */
const VALID_NAMES: Readonly<Record<string, readonly string[]>> = {
  unknown_operator: OPERATIONS,
  unknown_context_action: CONTEXT_ACTIONS,
  invalid_map_transform: MAP_TRANSFORMS,
  invalid_reducer: REDUCERS,
  unknown_selector: SELECTOR_TYPES,
  unknown_partition_strategy: PARTITION_STRATEGIES,
  unknown_reference: REFERENCE_KINDS,
};

export function codeActions(plan: AnalyzedPlan, request: CodeActionRequest): CodeAction[] {
  const wants = (kind: string) => !request.only || request.only.some((asked) => kind.startsWith(asked));
  const actions: CodeAction[] = [];
  if (request.runCommand && wants(RUN_PLAN_ACTION_KIND)) {
    const command = { title: "Run plan", command: request.runCommand, arguments: [plan.document.uri] };
    actions.push({ title: "Run plan", kind: RUN_PLAN_ACTION_KIND, command });
  }
  if (!wants(CodeActionKind.QuickFix)) return actions;
  for (const diagnostic of request.diagnostics) {
    const problem = currentProblem(plan, diagnostic);
    if (problem) actions.push(...fixesFor(plan, problem, diagnostic, request));
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

function fixesFor(
  plan: AnalyzedPlan,
  problem: LocatedProblem,
  diagnostic: Diagnostic,
  request: CodeActionRequest,
): CodeAction[] {
  const code = problem.reason ?? problem.kind;
  const names = Object.hasOwn(VALID_NAMES, code) ? VALID_NAMES[code] : undefined;
  if (names) return optional(replaceName(plan, problem, diagnostic, names));
  switch (code) {
    case "unbound_variable":
      return [
        ...optional(replaceUnboundVariable(plan, problem, diagnostic)),
        ...optional(addBindingStep(plan, problem, diagnostic)),
      ];
    case "final_must_be_unique_and_last":
      return optional(moveFinal(plan, problem, diagnostic) ?? addFinal(plan, problem, diagnostic));
    case "missing_field":
      return optional(insertMissingField(plan, problem, diagnostic));
    case "budget_exceeded":
      return optional(raiseBudget(problem, diagnostic, request.hostProfile()));
    case "duplicate_binding":
      return optional(renameDuplicate(plan, problem, diagnostic));
    case "unknown_key":
    case "unknown_model_option":
      return [...optional(renameKey(plan, problem, diagnostic)), ...optional(removeKey(plan, problem, diagnostic))];
    case "unknown_field":
      // A field the value's type does not have: read the nearest one it has.
      return optional(renameKey(plan, problem, diagnostic));
    case "capability_denied":
      return optional(grantCapability(problem, diagnostic, request.hostProfile()));
    case "unknown_tool":
    case "unknown_provider": {
      const section = code === "unknown_tool" ? "tools" : "providers";
      const host = request.hostProfile();
      const registered = host ? [...host.profile[section].keys()] : [];
      return [
        ...optional(
          replaceName(plan, problem, diagnostic, registered, `registered ${section === "tools" ? "tool" : "provider"}`),
        ),
        ...optional(openHostProfile(diagnostic, host, section)),
      ];
    }
    default:
      return [];
  }
}

function optional(action: CodeAction | undefined): CodeAction[] {
  return action ? [action] : [];
}

function quickFix(
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
function tokenAt(plan: AnalyzedPlan, problem: LocatedProblem): Node | undefined {
  const node = nodeAtOffset(plan.tree, problem.range.offset)?.node;
  return node && node.offset === problem.range.offset && node.length === problem.range.length ? node : undefined;
}

function replaceName(
  plan: AnalyzedPlan,
  problem: LocatedProblem,
  diagnostic: Diagnostic,
  candidates: readonly string[],
  what?: string,
  maxDistance?: number,
): CodeAction | undefined {
  const token = tokenAt(plan, problem);
  if (!token || !["string", "boolean", "null"].includes(token.type)) return undefined;
  const written = token.type === "string" ? String(token.value) : plan.document.getText(lspRange(plan.document, token));
  const limit = maxDistance ?? (what ? Math.max(2, Math.floor(written.length / 2)) : undefined);
  const match = nearestMatch(written, candidates, limit);
  if (match === undefined) return undefined;
  const best = match.name;
  const edit: TextEdit = { range: lspRange(plan.document, token), newText: JSON.stringify(best) };
  const title = what ? `Change to the ${what} ${JSON.stringify(best)}` : `Change to ${JSON.stringify(best)}`;
  return quickFix(title, diagnostic, { [plan.document.uri]: [edit] }, match.clearlyRight);
}

function replaceUnboundVariable(
  plan: AnalyzedPlan,
  problem: LocatedProblem,
  diagnostic: Diagnostic,
): CodeAction | undefined {
  if (!problem.path) return undefined;
  const inScope = (modelOf(plan)?.inScopeAt(problem.path) ?? []).map((binding) => binding.name);
  const token = tokenAt(plan, problem);
  const written = typeof token?.value === "string" ? token.value : "";
  return replaceName(plan, problem, diagnostic, inScope, "variable", Math.max(2, Math.floor(written.length / 2)));
}

/** Appends `{"op": "final", "value": <the plan's last binding>}` after the plan's last step. */
function addFinal(plan: AnalyzedPlan, problem: LocatedProblem, diagnostic: Diagnostic): CodeAction | undefined {
  const path = problem.path;
  if (!path || path[path.length - 1] !== "op") return undefined;
  const planPath = path.slice(0, -3);
  const steps = nodeAt(plan.tree, [...planPath, "steps"]);
  const children = steps?.type === "array" ? (steps.children ?? []) : [];
  const last = children[children.length - 1];
  if (!last || stringProperty(last, "op") === "final") return undefined;
  let bound: string | undefined;
  for (let i = children.length - 1; i >= 0 && bound === undefined; i--) {
    const op = stringProperty(children[i], "op");
    if (op !== "checkpoint" && op !== "final") bound = stringProperty(children[i], "bind");
  }
  const value = bound === undefined ? "null" : `{ "ref": "var", "name": ${JSON.stringify(bound)} }`;
  const step = `{ "op": "final", "value": ${value} }`;
  const insertion = stepSeparator(plan.document.getText(), last) + step;
  const at = plan.document.positionAt(last.offset + last.length);
  const title = bound === undefined ? "Add a final step" : `Add a final step returning ${JSON.stringify(bound)}`;
  return quickFix(
    title,
    diagnostic,
    { [plan.document.uri]: [{ range: { start: at, end: at }, newText: insertion }] },
    true,
  );
}

/**
 * A final step that is not its plan's last (and the plan's only final): moved after the last
 * step. One edit of the steps list, so the other steps keep their text and comments.
 */
function moveFinal(plan: AnalyzedPlan, problem: LocatedProblem, diagnostic: Diagnostic): CodeAction | undefined {
  const path = problem.path;
  if (!path || path[path.length - 1] !== "op") return undefined;
  const index = path[path.length - 2];
  const stepsPath = path.slice(0, -2);
  const steps = nodeAt(plan.tree, stepsPath);
  const children = steps?.type === "array" ? (steps.children ?? []) : [];
  if (typeof index !== "number" || index >= children.length - 1) return undefined;
  if (stringProperty(children[index], "op") !== "final") return undefined;
  if (children.filter((child) => stringProperty(child, "op") === "final").length !== 1) return undefined;
  // Text surgery rather than a reformat: the final step keeps its own text, the other steps
  // theirs, comments included. Out: from the step to the next one's start (its comma with it);
  // in: after the last step, on a line of its own when the steps are one per line.
  const text = plan.document.getText();
  const step = children[index] as Node;
  const next = children[index + 1] as Node;
  const last = children[children.length - 1] as Node;
  const separator = stepSeparator(text, last);
  const end = plan.document.positionAt(last.offset + last.length);
  const edits: TextEdit[] = [
    { range: lspRange(plan.document, { offset: step.offset, length: next.offset - step.offset }), newText: "" },
    { range: { start: end, end }, newText: separator + text.slice(step.offset, step.offset + step.length) },
  ];
  return quickFix("Move the final step to the end of the plan", diagnostic, { [plan.document.uri]: edits }, true);
}

/**
 * Raises the budget field the worst case exceeds to the worst case, in the host profile. A host's
 * decision, so an offer, never preferred; the other way out, cutting steps, is the hover's.
 */
function raiseBudget(
  problem: LocatedProblem,
  diagnostic: Diagnostic,
  host: HostProfileFile | undefined,
): CodeAction | undefined {
  const field = ESTIMATE_LIMITS.find((limit) => limit.name === problem.budget)?.field;
  const estimated = problem.estimated;
  if (!host || field === undefined || estimated === undefined || !Number.isSafeInteger(estimated)) return undefined;
  const document = TextDocument.create(host.uri, "json", 0, host.text);
  const edits = modify(host.text, ["budget", field], estimated, { formattingOptions: indentationOf(host.text) }).map(
    (edit) => ({ range: lspRange(document, { offset: edit.offset, length: edit.length }), newText: edit.content }),
  );
  if (edits.length === 0) return undefined;
  return quickFix(
    `Raise ${field} to ${estimated} in ${basename(host.profile.file)}`,
    diagnostic,
    { [host.uri]: edits },
    false,
  );
}

/**
 * A missing required field inserted at the end of its object with a placeholder value, the one
 * key completion would insert with its tab stops taken out (a choice's first option, an example
 * number, an empty name, `null` for an expression): the object is whole, the value to fill in
 * is plain to see.
 */
function insertMissingField(
  plan: AnalyzedPlan,
  problem: LocatedProblem,
  diagnostic: Diagnostic,
): CodeAction | undefined {
  const field = /^missing_field\(([^()]+)\)$/.exec(problem.detail ?? "")?.[1];
  const path = problem.path;
  const object = path ? nodeAt(plan.tree, path) : undefined;
  if (!field || !path || object?.type !== "object") return undefined;
  const keys = keySetAt(plan.tree, path);
  const spec = keys?.fields && Object.hasOwn(keys.fields, field) ? keys.fields[field] : undefined;
  if (!spec) return undefined;
  // An empty name would be a new problem: a binding gets "result", other text its field's name.
  const value = plainValue(fieldValueSnippet(field, spec.kind), spec.kind === "bind" ? "result" : field);
  const members = object.children ?? [];
  const last = members[members.length - 1];
  const at = last ? last.offset + last.length : object.offset + 1;
  const text = `${last ? ", " : ""}${JSON.stringify(field)}: ${value}`;
  const where = plan.document.positionAt(at);
  return quickFix(
    `Add the missing ${JSON.stringify(field)}`,
    diagnostic,
    { [plan.document.uri]: [{ range: { start: where, end: where }, newText: text }] },
    true,
  );
}

/** A snippet's text with its tab stops filled: a choice's first option, `text` in quotes, else `null`. */
function plainValue(snippet: string, text: string): string {
  return snippet
    .replace(/\$\{\d+\|([^,|]*)[^|]*\|\}/g, "$1")
    .replace(/\$\{\d+:([^}]*)\}/g, "$1")
    .replace(/"\$\{\d+\}"/g, JSON.stringify(text))
    .replace(/\$\{\d+\}/g, "null");
}

/** An unknown key (or model option) renamed to the known one the problem suggests. */
function renameKey(plan: AnalyzedPlan, problem: LocatedProblem, diagnostic: Diagnostic): CodeAction | undefined {
  const token = tokenAt(plan, problem);
  if (problem.suggestion === undefined || token?.type !== "string") return undefined;
  const edit: TextEdit = { range: lspRange(plan.document, token), newText: JSON.stringify(problem.suggestion) };
  const title = `Rename ${JSON.stringify(token.value)} to ${JSON.stringify(problem.suggestion)}`;
  return quickFix(title, diagnostic, { [plan.document.uri]: [edit] }, true);
}

/**
 * Removes an unknown key's whole member and one comma next to it (what the runtime does with
 * it anyway), leaving the rest of the object as it is written.
 */
function removeKey(plan: AnalyzedPlan, problem: LocatedProblem, diagnostic: Diagnostic): CodeAction | undefined {
  const member = tokenAt(plan, problem)?.parent;
  const siblings = member?.type === "property" ? (member.parent?.children ?? []) : [];
  const index = member ? siblings.indexOf(member) : -1;
  if (!member || index < 0) return undefined;
  const before = siblings[index - 1];
  const after = siblings[index + 1];
  const start = before ? before.offset + before.length : member.offset;
  const end = before || !after ? member.offset + member.length : after.offset;
  const edit: TextEdit = { range: lspRange(plan.document, { offset: start, length: end - start }), newText: "" };
  const title = `Remove ${JSON.stringify(member.children?.[0]?.value)}`;
  return quickFix(title, diagnostic, { [plan.document.uri]: [edit] }, false);
}

/** Renames the second binding of a name, and the references after it, to `name_2` (or the next free one). */
function renameDuplicate(plan: AnalyzedPlan, problem: LocatedProblem, diagnostic: Diagnostic): CodeAction | undefined {
  const model = modelOf(plan);
  const path = problem.path;
  const binding = model && path?.[path.length - 1] === "bind" ? model.bindingAt(path.slice(0, -1)) : undefined;
  if (!model || !binding) return undefined;
  const used = new Set([...model.bindings.map((b) => b.name), ...model.references.map((r) => r.name)]);
  let k = 2;
  while (used.has(`${binding.name}_${k}`)) k++;
  const fresh = `${binding.name}_${k}`;
  const outcome = renameBinding(plan, binding, fresh);
  if (!("edit" in outcome) || !outcome.edit.changes) return undefined;
  return quickFix(
    `Rename this ${JSON.stringify(binding.name)} to ${JSON.stringify(fresh)}`,
    diagnostic,
    outcome.edit.changes,
    true,
  );
}

/** Adds the capability to the host profile's "capabilities" list (created when missing). */
function grantCapability(
  problem: LocatedProblem,
  diagnostic: Diagnostic,
  host: HostProfileFile | undefined,
): CodeAction | undefined {
  const capability = problem.capability;
  if (!host || capability === undefined) return undefined;
  const document = TextDocument.create(host.uri, "json", 0, host.text);
  const edits = modify(host.text, ["capabilities", -1], capability, {
    isArrayInsertion: true,
    formattingOptions: indentationOf(host.text),
  }).map((edit) => ({
    range: lspRange(document, { offset: edit.offset, length: edit.length }),
    newText: edit.content,
  }));
  if (edits.length === 0) return undefined;
  // Never preferred: widening what the host trusts is the user's call, not a one-key fix (and
  // a misspelt provider's preferred fix is the rename to a registered one).
  return quickFix(
    `Grant ${JSON.stringify(capability)} in ${basename(host.profile.file)}`,
    diagnostic,
    { [host.uri]: edits },
    false,
  );
}

/** The indentation a file already uses (two spaces when it has none). */
function indentationOf(text: string): { tabSize: number; insertSpaces: boolean; eol: string } {
  const eol = text.includes("\r\n") ? "\r\n" : "\n";
  const indented = /^([ \t]+)\S/m.exec(text)?.[1];
  if (indented?.startsWith("\t")) return { tabSize: 1, insertSpaces: false, eol };
  return { tabSize: indented ? Math.min(indented.length, 8) : 2, insertSpaces: true, eol };
}

/** A command that asks the client to open the host profile with the section's key selected. */
function openHostProfile(
  diagnostic: Diagnostic,
  host: HostProfileFile | undefined,
  section: "tools" | "providers",
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
