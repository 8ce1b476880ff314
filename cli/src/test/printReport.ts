// How a test report is printed: text (a line per case as it ends, each failure at its case's
// file:line:col, then the summary), json (the report merge reads), junit (JUnit XML on stdout)
// or github (a workflow annotation at each failing case's line, then the summary).

import type { CaseResult } from "@rlm-plan/core/testing";
import { annotationPath, data, property } from "../checkFormats";
import type { Style } from "../output";
import { junitXml } from "./junit";
import type { TestFormat } from "./testOptions";
import { summaryText, type TestReport } from "./testReport";

export interface TestIo {
  readonly stdout: { write(text: string): unknown; readonly isTTY?: boolean };
  readonly stderr: { write(text: string): unknown; readonly isTTY?: boolean };
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

export function printReport(report: TestReport, format: TestFormat, io: TestIo): void {
  switch (format) {
    case "json":
      io.stdout.write(`${JSON.stringify(report)}\n`);
      return;
    case "junit":
      io.stdout.write(junitXml(report));
      return;
    case "github":
      for (const c of report.cases) {
        if (c.ok) continue;
        const where = `file=${property(annotationPath(c.location.file, process.cwd()))},line=${c.location.line},col=${c.location.column}`;
        const title = `title=${property(`rlm-plan test: ${caseTitle(c)}`)}`;
        io.stdout.write(`::error ${where},${title}::${data(c.failures.map((f) => f.message).join("\n"))}\n`);
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

export function caseTitle(result: Pick<CaseResult, "id">): string {
  return result.id;
}

function failureLines(result: CaseResult): string[] {
  const { file, line, column } = result.location;
  return result.failures.map((f) => `${file}:${line}:${column}: ${f.message}`);
}
