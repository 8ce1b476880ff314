// Everything the CLI prints, in one place: problem lines, per-file summaries, the estimate
// table and the --json shapes. Colors only when stdout is a terminal and NO_COLOR is unset.

import type { ApprovalForecast } from "@rlm-plan/core/session";
import { approvalJson } from "./approvalLines";
import { isAbsolute, relative, resolve } from "node:path";
import { exactJsonText } from "@rlm-plan/core/json";
import type { PlanMoney } from "@rlm-plan/core/analysis";
import type { Budget, CostRow, Count, Estimate } from "@rlm-plan/core/plan";
import { costRowText, moneyOver } from "./costText";
import { lineText, shownFile } from "./guardedOutput";
import type { OutputSink } from "./sink";
import type { AnalysedFile, CheckedFile, HostFileReport, Place, ReportedHint, ReportedProblem } from "./report";

/** Where a command writes: stdout for results, stderr for notes and failures, both through the sink. */
export interface Io {
  readonly out: (text: string) => void;
  readonly err: (text: string) => void;
  readonly style: Style;
  /** The output sink `out` and `err` write to: its mask (sessions add their keys), JSON and workflow commands. */
  readonly sink: OutputSink;
}

/** The Io of a command over the sink. */
export function sinkIo(sink: OutputSink, style: Style): Io {
  return { out: (text) => void sink.stdout.write(text), err: (text) => void sink.stderr.write(text), style, sink };
}

export interface Style {
  readonly bold: (text: string) => string;
  readonly red: (text: string) => string;
  readonly yellow: (text: string) => string;
  readonly green: (text: string) => string;
  readonly cyan: (text: string) => string;
}

const plain = (text: string): string => text;
const ansi =
  (open: number, close: number) =>
  (text: string): string =>
    `\u001b[${open}m${text}\u001b[${close}m`;

export function styleFor(stream: { readonly isTTY?: boolean }, env: NodeJS.ProcessEnv): Style {
  // NO_COLOR first: asking a descriptor whether it is a terminal may load node:tty (directOutput.ts).
  const color = (env.NO_COLOR ?? "") === "" && stream.isTTY === true;
  if (!color) return { bold: plain, red: plain, yellow: plain, green: plain, cyan: plain };
  return { bold: ansi(1, 22), red: ansi(31, 39), yellow: ansi(33, 39), green: ansi(32, 39), cyan: ansi(36, 39) };
}

/** `FILE:LINE:COL: error: MESSAGE [code]`, then a note line for each related place. */
export function problemLines(file: string, problem: ReportedProblem | ReportedHint, style: Style): string[] {
  const severity =
    problem.severity === "error"
      ? style.red("error")
      : problem.severity === "hint"
        ? style.cyan("hint")
        : style.yellow("warning");
  const lines = [`${style.bold(at(file, problem))}: ${severity}: ${lineText(problem.message)} [${problem.code}]`];
  for (const related of problem.related)
    lines.push(`${style.bold(at(file, related))}: ${style.cyan("note")}: ${lineText(related.message)}`);
  return lines;
}

function at(file: string, place: Place): string {
  return `${shownFile(file)}:${place.line}:${place.column}`;
}

const FILE_NOUNS = { host: "host profile", mocks: "mocks file", test: "test file" } as const;

/**
 * `FILE: ok (N steps)`, `FILE: ok (N steps), 1 warning`, `FILE: 2 errors, 1 warning`; a host
 * profile is `FILE: ok (host profile)`, a mocks file `FILE: ok (mocks file)`, a test file `FILE: ok (test file)`.
 */
export function summaryLine(report: AnalysedFile | HostFileReport, style: Style): string {
  const warnings = report.warnings > 0 ? `, ${plural(report.warnings, "warning")}` : "";
  const file = shownFile(report.file);
  if (report.errors > 0) return `${file}: ${style.red(plural(report.errors, "error"))}${warnings}`;
  const what = report.kind === "plan" ? plural(report.steps ?? 0, "step") : FILE_NOUNS[report.kind];
  return `${file}: ${style.green("ok")} (${what})${warnings}`;
}

/**
 * A usage mistake as every command says it: one line about it and where help is, never the whole
 * usage (which would bury the line that matters).
 */
export function usageErrorText(message: string, command?: string): string {
  return `rlm-plan: ${lineText(message)}\nsee rlm-plan${command === undefined ? "" : ` ${command}`} --help\n`;
}

/** The line for stderr when a file cannot be read. */
export function readErrorLine(file: string, reason: string): string {
  return `rlm-plan: cannot read ${shownFile(file)}: ${lineText(reason)}\n`;
}

function plural(count: number, noun: string): string {
  return `${count} ${noun}${count === 1 ? "" : "s"}`;
}

/**
 * The header, one aligned row per figure (`  steps                12 / 64`, marked when over
 * budget) and the verdict: `FILE: within budget` or `FILE: over budget (depth, model calls)`.
 */
export function estimateLines(
  file: string,
  rows: readonly CostRow[],
  style: Style,
  /** The worst case in money, shown when the plan calls a model. */
  money?: PlanMoney,
): string[] {
  const labelWidth = Math.max(...rows.map((row) => row.label.length));
  const estimateWidth = Math.max(...rows.map((row) => String(row.estimate).length));
  const limitWidth = Math.max(...rows.map((row) => String(row.limit).length));
  const table = rows.map((row) => {
    const line = `  ${row.label.padEnd(labelWidth)}  ${String(row.estimate).padStart(estimateWidth)} / ${row.limit}`;
    if (!row.over) return line;
    return `${line}${" ".repeat(limitWidth - String(row.limit).length)}  ${style.red("over budget")}`;
  });
  const over = rows.filter((row) => row.over).map((row) => row.label);
  const calls = rows.find((row) => row.name === "model_calls")?.estimate;
  if (money && calls !== undefined && calls !== 0) {
    const { figure, limit } = costRowText(money);
    const costOver = moneyOver(money);
    table.push(
      `  ${"cost".padEnd(labelWidth)}  ${figure}${limit === undefined ? "" : ` / ${limit}`}${costOver ? `  ${style.red("over budget")}` : ""}`,
    );
    if (costOver) over.push("cost");
  }
  const verdict = over.length === 0 ? style.green("within budget") : style.red(`over budget (${over.join(", ")})`);
  const shown = shownFile(file);
  return [`${shown}: worst case / budget`, ...table, `${shown}: ${verdict}`];
}

/** A problem as --json prints it. */
export function problemJson(problem: ReportedProblem | ReportedHint): Record<string, unknown> {
  const { severity, code, phase, kind, message, line, column, endLine, endColumn, offset, length } = problem;
  return {
    severity,
    code,
    phase,
    kind,
    message,
    line,
    column,
    endLine,
    endColumn,
    offset,
    length,
    related: problem.related.map((r) => ({
      message: r.message,
      line: r.line,
      column: r.column,
      endLine: r.endLine,
      endColumn: r.endColumn,
      offset: r.offset,
      length: r.length,
    })),
  };
}

/**
 * A file of `check --json`: `{file, kind, ok, problems, steps}` (kind "plan" or "host"; steps
 * null for a host profile), plus `error` when unreadable.
 */
/** A checked file as `check --format json` lists it; with the steps that can need approval, when its profile has rules. */
export function fileJson(report: CheckedFile, approvals?: ApprovalForecast): Record<string, unknown> {
  if (report.readError !== undefined)
    return { file: report.file, ok: false, error: `cannot read: ${report.readError}`, problems: [], steps: null };
  return {
    file: report.file,
    kind: report.kind,
    ok: report.errors === 0,
    problems: report.problems.map(problemJson),
    steps: report.kind === "plan" ? (report.steps ?? null) : null,
    ...(approvals ? { approvals: approvalJson(approvals) } : {}),
  };
}

export interface EstimateJson {
  readonly file: string;
  readonly ok: boolean;
  readonly error?: string;
  readonly estimate: Estimate | null;
  readonly budget: Budget | null;
  readonly exceeded: readonly { budget: string; field: string; estimated: Count | null; limit: number }[];
  /** The worst case in money under the profile's prices; null without a profile or an estimate. */
  readonly cost: Record<string, unknown> | null;
  readonly problems: readonly Record<string, unknown>[];
  /** Counts and sums of results capped at max_results (severity "hint", code silent_cap). */
  readonly silentCaps: readonly Record<string, unknown>[];
  /** Under a profile with approval rules: the steps that can need approval and the worst case (docs/approvals.md). */
  readonly approvals?: Record<string, unknown>;
}

/** Exact: worst-case counts beyond 2^53 are printed as the integers they are. */
export function jsonText(value: unknown): string {
  return `${exactJsonText(value, 2)}\n`;
}

/** How every command names a file it found or was given: relative to `cwd` when under it, else as it is. */
export function displayPath(file: string, cwd = process.cwd()): string {
  const rel = relative(cwd, resolve(cwd, file));
  return rel !== "" && !rel.startsWith("..") && !isAbsolute(rel) ? rel : file;
}
