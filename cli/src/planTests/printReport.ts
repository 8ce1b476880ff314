// How a test report is printed: text (a line per case as it ends, each failure at its case's
// file:line:col, then the summary), json (the report merge reads), junit (JUnit XML on stdout)
// or github (a workflow annotation at each failing case's line, then the summary).

import type { CaseResult } from "@rlm-plan/core/testing";
import type { RunDiff } from "@rlm-plan/core/journal";
import { annotationPath } from "../checkFormats";
import { lineText } from "../guardedOutput";
import { commandData, commandProperty, type SinkWriter } from "../sink";
import type { Style } from "../output";
import { junitXml } from "./junit";
import type { TestFormat } from "./testOptions";
import { failureText, summaryText, type TestReport } from "./testReport";

/** The output sink's streams (sink.ts), and the style of stdout. */
export interface TestIo {
  readonly stdout: SinkWriter;
  readonly stderr: SinkWriter;
  readonly style: Style;
}

/** One line as a case ends (text format), its failures under it. */
export function printProgress(result: CaseResult, io: TestIo): void {
  const { style } = io;
  const mark = result.ok ? style.green("pass") : style.red("FAIL");
  const queued = result.queued;
  const where = queued
    ? `, ${queued.worker}${queued.attempt > 1 ? `, attempt ${queued.attempt}` : ""}${queued.resumed !== undefined ? `, resumed` : ""}`
    : "";
  io.stdout.write(`${mark}  ${caseTitle(result)}  (${result.duration_ms} ms${where})\n`);
  for (const line of failureLines(result)) io.stdout.write(`      ${line}\n`);
}

/** Every format but html (written by htmlReport.ts, from the run journal). */
export function printReport(report: TestReport, format: Exclude<TestFormat, "html">, io: TestIo): void {
  switch (format) {
    case "json":
      io.stdout.json(`${JSON.stringify(report)}\n`);
      return;
    case "junit":
      io.stdout.xml(junitXml(report));
      return;
    case "github":
      for (const c of report.cases) {
        if (c.ok) continue;
        const where = `file=${commandProperty(annotationPath(c.location.file, process.cwd()))},line=${c.location.line},col=${c.location.column}`;
        // The id as it is: the runner undoes the escapes, so a title shows the name exactly.
        const title = `title=${commandProperty(`rlm-plan test: ${c.id}`)}`;
        io.stdout.workflowCommand(`::error ${where},${title}::${commandData(c.failures.map(failureText).join("\n"))}`);
        for (const f of c.failures) if (f.diff) divergenceAnnotation(c, f.diff, io);
      }
      io.stdout.write(`${summaryText(report.summary)}\n`);
      return;
    case "text": {
      const failed = report.cases.filter((c) => !c.ok);
      if (failed.length > 0) {
        io.stdout.write(`\nfailed:\n`);
        for (const c of failed) {
          io.stdout.write(`  ${caseTitle(c)}\n`);
          for (const line of failureLines(c)) io.stdout.write(`      ${line}\n`);
        }
      }
      const text = summaryText(report.summary);
      io.stdout.write(`${report.summary.failed > 0 ? io.style.red(text) : io.style.green(text)}\n`);
    }
  }
}

/** A case's id as one line of text shows it: a name's line breaks and controls escaped. */
export function caseTitle(result: Pick<CaseResult, "id">): string {
  return lineText(result.id);
}

function failureLines(result: CaseResult): string[] {
  const { file } = result.location;
  return result.failures.flatMap((f) => {
    const { line, column } = f.at ?? result.location;
    const [first, ...rest] = failureText(f).split("\n");
    return [`${file}:${line}:${column}: ${first ?? ""}`, ...rest.map((more) => `  ${more}`)];
  });
}

/** A second annotation, on the plan's line of the first step that differs from the baseline. */
function divergenceAnnotation(c: CaseResult, diff: RunDiff, io: TestIo): void {
  const step = diff.firstDivergence;
  const planFile = diff.b.planFile;
  if (!step?.b || step.b.line === null || planFile === null) return;
  const where = `file=${commandProperty(annotationPath(planFile, process.cwd()))},line=${step.b.line},col=${step.b.column ?? 1}`;
  const title = `title=${commandProperty(`rlm-plan test --baseline: ${c.id}`)}`;
  const what = step.change === "changed" ? step.differs.join(", ") : step.change;
  io.stdout.workflowCommand(
    `::error ${where},${title}::${commandData(`${step.pointer} ${step.b.operation} differs from the baseline: ${what}`)}`,
  );
}
