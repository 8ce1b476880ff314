// One plan file read and analysed, with every problem placed at a 1-based line and column:
// what both commands print. The analysis is the runtime's own (analyzePlanText); this module
// only reads the file and converts offsets.

import { MAX_PLAN_BYTES, readTextFileSync } from "../text/boundedFile";
import { analyzePlanText, lineColumn, type AnalysisPolicy, type LocatedProblem, type PlanAnalysis } from "../analysis";
import type { SourceRange } from "../text/planDocument";

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
  /** The analysis's problem, for fields a command needs (budget, estimated, limit). */
  readonly source: LocatedProblem;
}

export interface UnreadFile {
  readonly file: string;
  /** Why the file could not be read, e.g. "no such file (ENOENT)". */
  readonly readError: string;
}

export interface AnalysedFile {
  readonly file: string;
  readonly readError?: undefined;
  readonly analysis: PlanAnalysis;
  /** In source order. */
  readonly problems: readonly ReportedProblem[];
  readonly errors: number;
  readonly warnings: number;
  /** Steps written in the plan, nested ones included; undefined when no plan was read. */
  readonly steps: number | undefined;
}

export type FileReport = UnreadFile | AnalysedFile;

export type Policy = AnalysisPolicy;

export function reportFile(file: string, policy: Policy): FileReport {
  const read = readText(file);
  if (typeof read !== "object") return { file, readError: read };
  const { text } = read;
  const analysis = analyzePlanText(text, policy);
  const problems = analysis.problems
    .map((problem, index) => ({ problem: reported(text, problem), index }))
    .sort((a, b) => a.problem.offset - b.problem.offset || a.index - b.index)
    .map(({ problem }) => problem);
  const errors = problems.filter((p) => p.severity === "error").length;
  return {
    file,
    analysis,
    problems,
    errors,
    warnings: problems.length - errors,
    steps: analysis.estimates?.steps.size,
  };
}

function reported(text: string, problem: LocatedProblem): ReportedProblem {
  return {
    severity: problem.hostDependent === true ? "warning" : "error",
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
    if (code && READ_ERRORS[code]) return `${READ_ERRORS[code]} (${code})`;
    return error instanceof Error ? error.message : String(error);
  }
}
