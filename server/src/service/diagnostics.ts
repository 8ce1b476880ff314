// Diagnostics: every problem of the analysis on its exact token, with a stable code (the
// runtime's reason or kind), the runtime's message plus what to do in this workspace, and
// related places. Host-dependent problems are warnings unless the settings make them errors.

import { HOST_PROFILE_FILENAME, pointer, type HostProfileResult } from "@rlm-plan/core/host";
import { pathToFileURL } from "node:url";
import { ESTIMATE_LIMITS } from "@rlm-plan/core/plan";
import { type JsonPath, type LocatedProblem, type SourceRange } from "@rlm-plan/core";
import { createScanner, SyntaxKind } from "jsonc-parser";
import { DiagnosticSeverity, type Diagnostic, type Range } from "vscode-languageserver-protocol";
import type { TextDocument } from "vscode-languageserver-textdocument";
import type { AnalyzedPlan } from "./analyzedPlan";

export const DIAGNOSTIC_SOURCE = "rlm-plan";

export interface DiagnosticSettings {
  readonly hostProblemsAsErrors: boolean;
}

/** What a plan diagnostic carries for code actions: the problem's identity and place. */
export interface PlanDiagnosticData {
  readonly kind: string;
  readonly reason?: string;
  readonly path?: JsonPath;
  readonly capability?: string;
  /** The unknown tool or provider name. */
  readonly name?: string;
  readonly budget?: string;
  readonly hostDependent: boolean;
}

export const NO_HOST_PROFILE_CODE = "no_host_profile";
export const TOO_MANY_PROBLEMS_CODE = "too_many_problems";
/**
 * Diagnostics per document: an editor cannot show 200,000 of them usefully, and building and
 * sending them would block the server for seconds; a summary diagnostic says how many there are.
 */
export const MAX_DIAGNOSTICS = 1000;

/** The MAX_DIAGNOSTICS problems first in the file (all of them when there are fewer). */
function firstProblems(problems: readonly LocatedProblem[]): readonly LocatedProblem[] {
  if (problems.length <= MAX_DIAGNOSTICS) return problems;
  return [...problems].sort((a, b) => a.range.offset - b.range.offset).slice(0, MAX_DIAGNOSTICS);
}
export const INVALID_HOST_PROFILE_CODE = "invalid_host_profile";

export function lspRange(document: TextDocument, range: SourceRange): Range {
  return { start: document.positionAt(range.offset), end: document.positionAt(range.offset + range.length) };
}

export function planDiagnostics(plan: AnalyzedPlan, settings: DiagnosticSettings): Diagnostic[] {
  const diagnostics: Diagnostic[] = [];
  const document = plan.document;
  const top = planStart(document.getText()) ?? { offset: 0, length: 0 };
  const hostSeverity = settings.hostProblemsAsErrors ? DiagnosticSeverity.Error : DiagnosticSeverity.Warning;
  const status = plan.hostStatus;
  if (status.kind === "none") {
    diagnostics.push({
      range: lspRange(document, top),
      severity: DiagnosticSeverity.Information,
      code: NO_HOST_PROFILE_CODE,
      source: DIAGNOSTIC_SOURCE,
      message: `No host profile (${HOST_PROFILE_FILENAME}) found: capabilities, tools and providers are not checked`,
    });
  } else if (status.kind === "invalid") {
    const problems = status.errorCount === 1 ? "1 problem" : `${status.errorCount} problems`;
    const first = status.first;
    const where = first ? { line: first.line - 1, character: first.column - 1 } : { line: 0, character: 0 };
    diagnostics.push({
      range: lspRange(document, top),
      severity: hostSeverity,
      code: INVALID_HOST_PROFILE_CODE,
      source: DIAGNOSTIC_SOURCE,
      message:
        `The host profile ${status.fileName} has ${problems}` +
        (first ? ` (line ${first.line}: ${first.message})` : "") +
        ": until it is fixed, capabilities, tools and providers are not checked",
      relatedInformation: [
        {
          location: { uri: pathToFileURL(status.file).href, range: { start: where, end: where } },
          message: first ? first.message : "the host profile",
        },
      ],
    });
  }
  const shown = firstProblems(plan.problems);
  if (shown.length < plan.problems.length) {
    diagnostics.push({
      range: lspRange(document, top),
      severity: DiagnosticSeverity.Warning,
      code: TOO_MANY_PROBLEMS_CODE,
      source: DIAGNOSTIC_SOURCE,
      message: `${plan.problems.length} problems: the first ${shown.length} in the file are shown; fix them to see the rest`,
    });
  }
  // Hints (silent caps) are not problems of the plan; Information, since editors all but hide Hint.
  for (const problem of [...shown, ...firstProblems(plan.analysis.hints)]) {
    const hostDependent = problem.hostDependent === true;
    const data: PlanDiagnosticData = {
      kind: problem.kind,
      hostDependent,
      ...(problem.reason !== undefined ? { reason: problem.reason } : {}),
      ...(problem.path !== undefined ? { path: problem.path } : {}),
      ...(problem.capability !== undefined ? { capability: problem.capability } : {}),
      ...(typeof problem.value === "string" && problem.phase === "preflight" ? { name: problem.value } : {}),
      ...(problem.budget !== undefined ? { budget: problem.budget } : {}),
    };
    diagnostics.push({
      range: lspRange(document, problemRange(plan, problem)),
      severity:
        problem.severity === "hint"
          ? DiagnosticSeverity.Information
          : problem.severity === "warning"
            ? DiagnosticSeverity.Warning
            : hostDependent
              ? hostSeverity
              : DiagnosticSeverity.Error,
      code: problem.reason ?? problem.kind,
      source: DIAGNOSTIC_SOURCE,
      message: diagnosticMessage(plan, problem),
      data,
      ...(problem.relatedRanges.length > 0
        ? {
            relatedInformation: problem.relatedRanges.map((related) => ({
              location: { uri: document.uri, range: lspRange(document, related) },
              message: related.message,
            })),
          }
        : {}),
    });
  }
  return diagnostics.sort(
    (a, b) => a.range.start.line - b.range.start.line || a.range.start.character - b.range.start.character,
  );
}

/** The whole plan's problems (a budget the worst case exceeds) sit on the top "steps" key. */
/** The plan's opening brace (its first token), found without parsing the file into a tree. */
export function planStart(text: string): SourceRange | undefined {
  const scanner = createScanner(text, true);
  return scanner.scan() === SyntaxKind.OpenBraceToken ? { offset: scanner.getTokenOffset(), length: 1 } : undefined;
}

export function problemRange(plan: AnalyzedPlan, problem: LocatedProblem): SourceRange {
  if (problem.kind === "budget_exceeded" && problem.path?.length === 0) {
    return plan.analysis.document.rangesOf([{ path: ["steps"], target: "key" }])[0] ?? problem.range;
  }
  return problem.range;
}

/** The runtime's message, plus where in this workspace the fix goes for host problems. */
export function diagnosticMessage(plan: AnalyzedPlan, problem: LocatedProblem): string {
  const host = plan.host;
  const hostFile = host?.fileName ?? HOST_PROFILE_FILENAME;
  switch (problem.kind) {
    case "capability_denied":
      return `${problem.message}: add "${problem.capability ?? ""}" to "capabilities" in ${hostFile}`;
    case "budget_exceeded": {
      const field = budgetField(problem.budget);
      return host
        ? `${problem.message}: raise "${field}" in the budget of ${hostFile}, or make the plan do less`
        : `${problem.message} (the default budget): make the plan do less, or set "${field}" in a host profile's budget`;
    }
    case "unknown_tool":
      return `${problem.message}: register it under "tools" in ${hostFile}${registered(host?.tools)}`;
    case "unknown_provider":
      return `${problem.message}: register it under "providers" in ${hostFile}${registered(host?.providers)}`;
    default:
      return problem.message;
  }
}

function budgetField(budget: string | undefined): string {
  return ESTIMATE_LIMITS.find((limit) => limit.name === budget)?.field ?? "the budget";
}

function registered(names: ReadonlyMap<string, unknown> | undefined): string {
  const list = names ? [...names.keys()] : [];
  return list.length === 0
    ? " (it registers none yet)"
    : ` (it registers ${list.map((n) => JSON.stringify(n)).join(", ")})`;
}

/** Diagnostics of a host profile document: the runtime loader's located errors, or MCP servers that did not start. */
export function hostProfileDiagnostics(
  document: TextDocument,
  result: HostProfileResult,
  file: string,
  toolListingFailures: ReadonlyMap<string, string> = new Map(),
): Diagnostic[] {
  if (result.ok) {
    return [...toolListingFailures].map(([server, message]) => ({
      range: lspRange(document, result.profile.locate(pointer(["mcpServers", server]), "key")),
      severity: DiagnosticSeverity.Warning,
      code: "mcp_server_unavailable",
      source: DIAGNOSTIC_SOURCE,
      message: `${message}: plans cannot call its tools, and their arguments are not checked`,
    }));
  }
  return result.errors
    .filter((error) => error.file === file)
    .map((error) => ({
      range: lspRange(document, { offset: error.offset, length: error.length }),
      severity: DiagnosticSeverity.Error,
      code: INVALID_HOST_PROFILE_CODE,
      source: DIAGNOSTIC_SOURCE,
      message: error.message,
      data: { jsonPath: error.jsonPath },
    }));
}
