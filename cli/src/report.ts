// One plan file read and analysed, with every problem placed at a 1-based line and column:
// what both commands print. The analysis is the runtime's own (analyzePlanText); this module
// only reads the file and converts offsets.

import { MAX_PLAN_BYTES, readTextFileSync, type SourceRange } from "@rlm-plan/core/text";
import {
  analyzeModelReply,
  analyzePlanText,
  lineColumn,
  type AnalysisPolicy,
  type LocatedProblem,
  type PlanAnalysis,
} from "@rlm-plan/core/analysis";
import type { HostProfileError } from "@rlm-plan/core/host";
import { mockNameWarnings, parseMocks, readHostProfile } from "@rlm-plan/core/session";
import type { PreflightProblem, PreflightReport } from "@rlm-plan/core/run";
import { resolve } from "node:path";

export type Severity = "error" | "warning";

/** A source range as people count: 1-based lines and columns; the end is exclusive. */
export interface Place {
  readonly line: number;
  readonly column: number;
  readonly endLine: number;
  readonly endColumn: number;
  readonly offset: number;
  readonly length: number;
}

export interface ReportedProblem extends Place {
  readonly severity: Severity;
  /** The problem's reason (unbound_variable, ...) or else its kind (capability_denied, ...). */
  readonly code: string;
  readonly phase: string;
  readonly kind: string;
  readonly message: string;
  readonly related: readonly (Place & { readonly message: string })[];
  /** The analysis's problem, for fields a command needs (budget, estimated, limit); none for a host profile's. */
  readonly source?: LocatedProblem;
}

/** A hint of the analysis (a count of a capped result): listed by `estimate`, never a problem. */
export interface ReportedHint extends Omit<ReportedProblem, "severity"> {
  readonly severity: "hint";
}

export interface UnreadFile {
  readonly file: string;
  /** Why the file could not be read, e.g. "no such file (ENOENT)". */
  readonly readError: string;
}

export interface AnalysedFile {
  readonly file: string;
  readonly kind: "plan";
  readonly readError?: undefined;
  /** Undefined for a model reply in which no plan was found. */
  readonly analysis: PlanAnalysis | undefined;
  /** In source order. */
  readonly problems: readonly ReportedProblem[];
  readonly errors: number;
  readonly warnings: number;
  /** Counts and sums of results capped at max_results, in source order. */
  readonly hints: readonly ReportedHint[];
  /** Steps written in the plan, nested ones included; undefined when no plan was read. */
  readonly steps: number | undefined;
}

/**
 * A host profile checked as a host profile (its schema and cross-field problems), a mocks file
 * (its schema, and names nothing goes by as warnings), or a test file (what its loader reports).
 */
export interface HostFileReport {
  readonly file: string;
  readonly kind: "host" | "mocks" | "test";
  readonly readError?: undefined;
  readonly problems: readonly ReportedProblem[];
  readonly errors: number;
  readonly warnings: number;
}

export type FileReport = UnreadFile | AnalysedFile;
export type CheckedFile = FileReport | HostFileReport;

export type Policy = AnalysisPolicy;

export interface ReportOptions {
  /**
   * The plan is judged against a host that will run it (a profile, or --capabilities/--budget):
   * problems that depend on the host are then errors, since `run` refuses such a plan.
   */
  readonly hostGate?: boolean;
  /** The file is a saved model reply: the plan is the JSON object in it. */
  readonly modelText?: boolean;
}

/** A plan file read and analysed under `policy`. */
export function reportFile(file: string, policy: Policy, options: ReportOptions = {}): FileReport {
  const read = readText(file);
  if (typeof read !== "object") return { file, readError: read };
  return reportText(file, read.text, policy, options);
}

/** A plan's text (a session read it) analysed under `policy`. */
export function reportText(file: string, text: string, policy: Policy, options: ReportOptions = {}): AnalysedFile {
  const reply = options.modelText === true ? analyzeModelReply(text, policy) : undefined;
  const analysis = reply ? reply.analysis : analyzePlanText(text, policy);
  const located = reply ? reply.problems : (analysis?.problems ?? []);
  const problems = sortedBySource(located.map((problem) => reported(text, problem, options.hostGate === true)));
  const errors = problems.filter((p) => p.severity === "error").length;
  const hints = sortedBySource(
    (analysis?.hints ?? []).map((hint): ReportedHint => ({ ...reported(text, hint, false), severity: "hint" })),
  );
  return {
    file,
    kind: "plan",
    analysis,
    problems,
    errors,
    warnings: problems.length - errors,
    hints,
    steps: analysis?.estimates?.steps.size,
  };
}

/** A host profile read and validated the way `run` loads it; every problem is an error. */
export function reportHostFile(file: string): UnreadFile | HostFileReport {
  const read = readText(file);
  if (typeof read !== "object") return { file, readError: read };
  const loaded = readHostProfile(file, read.text);
  const problems = loaded.ok ? [] : sortedBySource(loaded.errors.map((error) => hostProblem(read.text, error)));
  return { file, kind: "host", problems, errors: problems.length, warnings: 0 };
}

/**
 * A plan's report with what its preflight found (`check --preflight`): every problem (or, when
 * the plan was refused before the preflight, the run's refusal) at the run's own place. Each
 * place has its problem once: a static error of the same kind there is the same problem, and a
 * static warning there (an undeclared input, a tool source not asked) is what the preflight has
 * now found out, so its error takes the warning's place.
 */
export function withPreflight(report: AnalysedFile, text: string, preflight: PreflightReport): AnalysedFile {
  const refusal = preflight.refusal;
  const found: readonly PreflightProblem[] =
    preflight.problems ??
    (refusal && !refusal.outcome.ok
      ? [{ error: refusal.outcome.error, ...(refusal.location ? { location: refusal.location } : {}) }]
      : []);
  if (found.length === 0) return report;
  const problems = [...report.problems];
  for (const { error, location } of found) {
    const at = place(text, location ?? { offset: 0, length: 0 });
    const here = (p: ReportedProblem) => p.line === at.line && p.column === at.column;
    const sameKind = problems.findIndex((p) => here(p) && p.kind === error.kind);
    const same = sameKind >= 0 ? sameKind : problems.findIndex((p) => here(p) && p.severity === "warning");
    const problem: ReportedProblem = {
      severity: "error",
      code: typeof error.reason === "string" ? error.reason : error.kind,
      phase: error.phase,
      kind: error.kind,
      message: error.message,
      ...at,
      related: [],
    };
    if (same < 0) problems.push(problem);
    else if (problems[same]?.severity !== "error") problems[same] = problem;
  }
  const sorted = sortedBySource(problems);
  const errors = sorted.filter((p) => p.severity === "error").length;
  return { ...report, problems: sorted, errors, warnings: sorted.length - errors };
}

/** A mocks file as `run --mocks` reads it; a mocked name the host profile in force registers nothing by is a warning. */
export function reportMocksFile(file: string, hostFile: string | undefined): UnreadFile | HostFileReport {
  const read = readText(file);
  if (typeof read !== "object") return { file, readError: read };
  const parsed = parseMocks(read.text, file);
  const host = hostFile === undefined ? undefined : readHostProfile(hostFile);
  const profile = host?.ok ? host.profile : undefined;
  const errors = parsed.ok ? [] : parsed.errors.map((error) => hostProblem(read.text, error, "invalid_mocks"));
  const warnings = parsed.ok
    ? mockNameWarnings(parsed.mocks, profile ? { profile } : {}).map((warning) => ({
        // Located already: the message needs no JSON path in front.
        ...hostProblem(read.text, { ...warning, jsonPath: "" }, "unused_mock"),
        severity: "warning" as const,
      }))
    : [];
  const problems = sortedBySource([...errors, ...warnings]);
  return { file, kind: "mocks", problems, errors: errors.length, warnings: warnings.length };
}

/**
 * A test file (`*.rlmplan.test.json`) checked as `rlm-plan test` loads it and as the editor
 * shows it: the core's view of it (its errors and warnings), never as a plan. A problem in
 * another file (a dataset's line, a mocks file) names that file (as the loader shows it,
 * relative to the current folder) and line in its message.
 */
export function reportTestFile(file: string): UnreadFile | HostFileReport {
  const read = readText(file);
  if (typeof read !== "object") return { file, readError: read };
  // Required here: a check of plans alone never loads the test runner's modules.
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const { testFileView } = require("@rlm-plan/core/testing") as typeof import("@rlm-plan/core/testing");
  const view = testFileView(read.text, resolve(file));
  const problems = sortedBySource(
    view.problems.map((problem): ReportedProblem => {
      const where = problem.elsewhere;
      return {
        severity: problem.severity,
        code: problem.severity === "error" ? "invalid_test_file" : "test_file_warning",
        phase: "test",
        kind: problem.severity === "error" ? "invalid_test_file" : "test_file_warning",
        message: where ? `${where.file}:${where.line}:${where.column}: ${problem.message}` : problem.message,
        ...place(read.text, problem),
        related: [],
      };
    }),
  );
  const errors = problems.filter((p) => p.severity === "error").length;
  return { file, kind: "test", problems, errors, warnings: problems.length - errors };
}

function sortedBySource<T extends Place>(problems: T[]): T[] {
  return problems
    .map((problem, index) => ({ problem, index }))
    .sort((a, b) => a.problem.offset - b.problem.offset || a.index - b.index)
    .map(({ problem }) => problem);
}

function hostProblem(text: string, error: HostProfileError, code = "invalid_host_profile"): ReportedProblem {
  return {
    severity: "error",
    code,
    phase: "host",
    kind: code,
    message: error.jsonPath === "" ? error.message : `${error.jsonPath}: ${error.message}`,
    ...place(text, { offset: error.offset, length: error.length }),
    related: [],
  };
}

function reported(text: string, problem: LocatedProblem, hostGate: boolean): ReportedProblem {
  return {
    severity: (problem.hostDependent === true && !hostGate) || problem.severity === "warning" ? "warning" : "error",
    code: problem.reason ?? problem.kind,
    phase: problem.phase,
    kind: problem.kind,
    message: problem.message,
    ...place(text, problem.range),
    related: problem.relatedRanges.map((related) => ({ ...place(text, related), message: related.message })),
    source: problem,
  };
}

function place(text: string, range: SourceRange): Place {
  const start = lineColumn(text, range.offset);
  const end = lineColumn(text, range.offset + range.length);
  return {
    line: start.line + 1,
    column: start.character + 1,
    endLine: end.line + 1,
    endColumn: end.character + 1,
    offset: range.offset,
    length: range.length,
  };
}

const READ_ERRORS: Readonly<Record<string, string>> = {
  ENOENT: "no such file",
  EISDIR: "it is a directory",
  EACCES: "permission denied",
  EPERM: "permission denied",
  ENOTDIR: "a part of the path is not a directory",
  ELOOP: "too many symbolic links",
  ENAMETOOLONG: "the name is too long",
};

/** The file's text (a leading byte order mark dropped), or why it could not be read. */
function readText(file: string): { readonly text: string } | string {
  try {
    return { text: readTextFileSync(file, MAX_PLAN_BYTES) };
  } catch (error) {
    const code = (error as NodeJS.ErrnoException | undefined)?.code;
    return readErrorOf(code, error instanceof Error ? error.message : String(error));
  }
}

/** Why a file could not be read, as `check` says it: "no such file (ENOENT)". */
export function readErrorOf(code: string | undefined, fallback: string): string {
  if (code && READ_ERRORS[code]) return `${READ_ERRORS[code]} (${code})`;
  return fallback;
}
