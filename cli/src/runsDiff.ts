// `rlm-plan runs diff A B`: two recorded runs compared by the core (journal/runDiff.ts) and shown
// as a table of the steps that differ (text), the whole comparison (JSON), or a Markdown summary
// for a workflow's step summary or a pull request (github). Exit 0 when the runs agree, 1 when they
// differ, 2 on a usage error or a run the journal does not hold.

import {
  diffRecordedRuns,
  JournalStore,
  parseRunId,
  runIdRefusal,
  type DiffedRun,
  type RunDiff,
  type StepAspect,
  type StepDiff,
  type StepOutcome,
  type StepUsage,
  type ValueSummary,
} from "@rlm-plan/core/journal";
import { DEFAULT_CURRENCY, moneyText } from "@rlm-plan/core/plan";
import { tokensText } from "./costText";
import { shownPath } from "@rlm-plan/core/text";
import { lineText, markdownText, shownFile } from "./guardedOutput";
import { readOptions } from "./options";
import { displayPath, usageErrorText } from "./output";
import { journalReadError, openRunsJournal } from "./runsStore";
import type { OutputSink } from "./sink";

const FORMATS = ["text", "json", "github"] as const;
type DiffFormat = (typeof FORMATS)[number];

/** A cell's text is cut to this many characters (the JSON has it whole). */
const CELL_CHARS = 60;

/** Runs `rlm-plan runs diff` with the arguments after "diff". */
export function runsDiffCommand(argv: readonly string[], io: OutputSink, help: string): number {
  const usage = (message: string) => {
    io.stderr.write(usageErrorText(message, "runs"));
    return 2;
  };
  const options = readOptions(argv, {
    values: { "--journal": "a DIR", "--format": FORMATS.join(", ") },
    flags: ["--json", "--help", "-h"],
    nonEmpty: ["--journal"],
  });
  if (typeof options === "string") return usage(options);
  if (options.flags.has("--help") || options.flags.has("-h")) {
    io.stdout.write(`${help}\n`);
    return 0;
  }
  const formatText = options.values.get("--format");
  if (formatText !== undefined && !FORMATS.includes(formatText as DiffFormat))
    return usage(`--format needs one of ${FORMATS.join(", ")}`);
  if (formatText !== undefined && formatText !== "json" && options.flags.has("--json"))
    return usage(`--json and --format ${formatText} ask for two formats`);
  const format: DiffFormat = options.flags.has("--json") ? "json" : ((formatText as DiffFormat) ?? "text");
  if (options.positionals.length !== 2) return usage("runs diff needs two RUN numbers (A and B)");
  const ids: number[] = [];
  for (const text of options.positionals) {
    const id = parseRunId(text);
    if (id === undefined) {
      io.stderr.write(`rlm-plan: ${runIdRefusal("runs diff", text)}\n`);
      return 2;
    }
    ids.push(id);
  }
  const opened = openRunsJournal(options.values, io);
  if (typeof opened === "number") return opened;
  if (!(opened instanceof JournalStore)) {
    io.stderr.write(`rlm-plan: no run journal in ${shownFile(shownPath(opened.absent))}\n`);
    return 2;
  }
  try {
    const diff = diffRecordedRuns(opened, ids[0] as number, ids[1] as number);
    if ("missing" in diff) {
      io.stderr.write(`rlm-plan: there is no run ${diff.missing} in ${shownFile(shownPath(opened.file))}\n`);
      return 2;
    }
    if (format === "json") io.stdout.json(`${JSON.stringify(diff, null, 2)}\n`);
    else io.stdout.write(format === "github" ? githubText(diff) : diffText(diff));
    return diff.agree ? 0 : 1;
  } catch (error) {
    io.stderr.write(journalReadError(opened, error));
    return 2;
  } finally {
    opened.close();
  }
}

/** The table's text: the runs, the first divergence, then a row per aspect of each step that differs. */
export function diffText(diff: RunDiff): string {
  const { a, b } = diff;
  const out = [headline(diff, (run) => `${runName(run)} (${runState(run)})`, lineText)];
  out.push(planLine(diff, lineText));
  if (diff.firstDivergence) out.push(`first divergence: ${divergenceText(diff, diff.firstDivergence, lineText)}`);
  const rows = tableRows(diff, lineText);
  if (rows.length > 0) {
    const header = ["STEP", "OPERATION", "CHANGE", "WHAT", runName(a).toUpperCase(), runName(b).toUpperCase()];
    const widths = header.map((h, i) => Math.max(h.length, ...rows.map((row) => (row[i] as string).length)));
    const line = (cells: readonly string[]) =>
      cells
        .map((c, i) => c.padEnd(widths[i] as number))
        .join("  ")
        .trimEnd();
    out.push("", line(header), ...rows.map(line));
  }
  out.push("", `${runName(a)}: ${outcomeText(a, lineText)}`, `${runName(b)}: ${outcomeText(b, lineText)}`);
  return `${out.join("\n")}\n`;
}

/** The Markdown summary: a heading, the first divergence, the same table, the runs' outcomes. */
export function githubText(diff: RunDiff): string {
  const { a, b } = diff;
  const out = [`### ${headline(diff, (run) => `${runName(run, true)} (${runState(run)})`, markdownText)}`, ""];
  out.push(planLine(diff, markdownText), "");
  if (diff.firstDivergence)
    out.push(`First divergence: ${divergenceText(diff, diff.firstDivergence, markdownText)}`, "");
  const rows = tableRows(diff, markdownText);
  if (rows.length > 0) {
    out.push(
      `| Step | Operation | Change | What | ${markdownText(runName(a, true))} | ${markdownText(runName(b, true))} |`,
      "| --- | --- | --- | --- | --- | --- |",
    );
    for (const row of rows) out.push(`| ${row.map((cell) => cell || " ").join(" | ")} |`);
    out.push("");
  }
  out.push(
    `- ${markdownText(runName(a, true))}: ${outcomeText(a, markdownText)}`,
    `- ${markdownText(runName(b, true))}: ${outcomeText(b, markdownText)}`,
  );
  return `${out.join("\n")}\n`;
}

type Escape = (text: string) => string;

function headline(diff: RunDiff, name: (run: DiffedRun) => string, escape: Escape): string {
  const { summary } = diff;
  const differing = summary.changed + summary.added + summary.removed;
  const verdict = diff.agree
    ? `no differences (${summary.steps} step${summary.steps === 1 ? "" : "s"} alike)`
    : differing === 0
      ? "the steps agree, the runs ended differently"
      : `${differing} of ${summary.steps} steps differ (${summary.changed} changed, ${summary.added} added, ${summary.removed} removed)`;
  return `${escape(name(diff.a))} against ${escape(name(diff.b))}: ${escape(verdict)}`;
}

/** "run 7", or the name a run that is not the journal's carries ("the baseline"); capitalised for a heading. */
function runName(run: DiffedRun, capital = false): string {
  const name = run.name ?? `run ${run.id}`;
  return capital ? `${name.charAt(0).toUpperCase()}${name.slice(1)}` : name;
}

function runState(run: DiffedRun): string {
  return `${run.status}${run.mocked ? ", mocked" : ""}${run.elapsedMs === null ? "" : `, ${run.elapsedMs} ms`}`;
}

function planLine(diff: RunDiff, escape: Escape): string {
  const file = (run: DiffedRun) => displayPath(run.planFile ?? run.plan);
  const digest = (run: DiffedRun) => run.planDigest.slice(0, 12);
  return escape(
    diff.samePlan
      ? `plan: ${file(diff.a)} (sha256 ${digest(diff.a)}), the same in both`
      : `plan: ${file(diff.a)} (sha256 ${digest(diff.a)}) against ${file(diff.b)} (sha256 ${digest(diff.b)})`,
  );
}

/** FILE:LINE:COL of the step (in B's plan when B has it), its path and operation, and what differs. */
function divergenceText(diff: RunDiff, step: StepDiff, escape: Escape): string {
  const [run, outcome] = step.b ? [diff.b, step.b] : [diff.a, step.a as StepOutcome];
  const place = `${displayPath(run.planFile ?? run.plan)}${outcome.line === null ? "" : `:${outcome.line}:${outcome.column}`}`;
  const what = step.change === "changed" ? step.differs.join(", ") : `${step.change} in ${runName(run)}'s plan`;
  return escape(`${place} ${step.pointer} ${outcome.operation}: ${what}`);
}

/** One row per aspect of each differing step (its time last, shown never counted); the step named on its first row. */
function tableRows(diff: RunDiff, escape: Escape): string[][] {
  const rows: string[][] = [];
  for (const step of diff.steps) {
    if (step.change === "same") continue;
    const operation = (step.b ?? step.a)?.operation ?? "";
    // Time, tokens and money are shown beside a differing step, never counted as a difference.
    const shown: Shown[] = step.a?.usage || step.b?.usage ? ["time", "tokens"] : ["time"];
    const aspects: (StepAspect | "step" | Shown)[] =
      step.change === "changed" ? [...step.differs, ...shown] : ["step", ...shown];
    aspects.forEach((aspect, i) => {
      const first = i === 0;
      rows.push(
        [
          first ? step.pointer : "",
          first ? operation : "",
          first ? step.change : "",
          aspect,
          cell(step.a, aspect, diff.a.currency),
          cell(step.b, aspect, diff.b.currency),
        ].map((text) => escape(cut(text))),
      );
    });
  }
  return rows;
}

type Shown = "time" | "tokens";

function cell(outcome: StepOutcome | null, aspect: StepAspect | "step" | Shown, currency: string | null): string {
  if (!outcome) return "-";
  switch (aspect) {
    case "operation":
      return `${outcome.operation}${outcome.bind === null ? "" : ` -> ${outcome.bind}`}`;
    case "step":
    case "status":
      return outcome.status;
    case "error":
      return outcome.error ? `[${outcome.error.phase}/${outcome.error.kind}] ${outcome.error.message}` : "-";
    case "value":
      return valueText(outcome.value);
    case "attempts":
      return `${outcome.attempts} started${outcome.failedAttempts > 0 ? `, ${outcome.failedAttempts} failed` : ""}`;
    case "branches":
      return outcome.branches && outcome.branches.length > 0 ? `branches ${outcome.branches.join(", ")}` : "-";
    case "calls": {
      const calls = outcome.calls.map(
        (c) =>
          `${c.kind} ${c.name}${c.model === null ? "" : ` (${c.model})`} x${c.count}${c.failed > 0 ? ` (${c.failed} failed)` : ""}`,
      );
      const keys = outcome.requests.map((key) => key.slice(0, 8)).join(" ");
      return calls.length === 0 ? "none" : `${calls.join(", ")}; requests ${keys}`;
    }
    case "time":
      return outcome.durationMs === null ? "-" : `${outcome.durationMs} ms`;
    case "tokens":
      return usageText(outcome.usage, currency);
  }
}

/** "~21+19, 4 EUR" (tokens in+out, money): "~" where a reply reported no usage; "-" for no model call. */
function usageText(usage: StepUsage | null, currency: string | null): string {
  if (!usage) return "-";
  const cost = usage.cost === null ? "unpriced" : moneyText(usage.cost, currency ?? DEFAULT_CURRENCY);
  return `${tokensText(usage)}, ${cost}`;
}

function valueText(value: ValueSummary | null): string {
  return value ? `sha256 ${value.sha256.slice(0, 12)} ${value.preview}` : "-";
}

function outcomeText(run: DiffedRun, escape: Escape): string {
  const usage = run.usage ? `; tokens ${usageText(run.usage, run.currency)}` : "";
  if (run.error)
    return escape(`${run.status}, error [${run.error.phase}/${run.error.kind}] ${cut(run.error.message)}${usage}`);
  return escape(`${run.status}, value ${valueText(run.value)}${usage}`);
}

function cut(text: string): string {
  const chars = [...text];
  return chars.length > CELL_CHARS ? `${chars.slice(0, CELL_CHARS).join("")}…` : text;
}
