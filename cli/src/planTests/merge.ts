// `rlm-plan test merge REPORT.json...`: the --json reports of a sharded run (one per CI machine)
// as one report, in the order one unsharded run lists its cases, printed in any format. Reports
// of different selections, a case given twice or a shard missing are errors, not silent gaps.

import { readFileSync } from "node:fs";
import { caseTitle, printReport, type TestIo } from "./printReport";
import type { MergeArgs } from "./testOptions";
import { REPORT_TYPE, REPORT_VERSION, summarize, type ReportedCase, type TestReport } from "./testReport";

export function mergeCommand(args: MergeArgs, io: TestIo): number {
  const reports: TestReport[] = [];
  for (const file of args.reports) {
    let value: unknown;
    try {
      value = JSON.parse(readFileSync(file, "utf8"));
    } catch (error) {
      io.stderr.write(
        `rlm-plan: ${file}: cannot read the report: ${error instanceof Error ? error.message : String(error)}\n`,
      );
      return 2;
    }
    const report = value as Partial<TestReport>;
    if (report.type !== REPORT_TYPE || report.version !== REPORT_VERSION || !Array.isArray(report.cases)) {
      io.stderr.write(`rlm-plan: ${file}: not a report of rlm-plan test --json (version ${REPORT_VERSION})\n`);
      return 2;
    }
    reports.push(report as TestReport);
  }
  const selected = new Set(reports.map((r) => r.selected));
  if (selected.size > 1) {
    io.stderr.write(`rlm-plan: the reports come from different selections (${[...selected].join(", ")} cases)\n`);
    return 2;
  }
  const byIndex = new Map<number, ReportedCase>();
  for (const report of reports)
    for (const c of report.cases) {
      if (byIndex.has(c.index)) {
        io.stderr.write(`rlm-plan: the case ${caseTitle(c)} is in more than one report\n`);
        return 2;
      }
      byIndex.set(c.index, c);
    }
  const total = reports[0]?.selected ?? 0;
  if (byIndex.size !== total)
    io.stderr.write(
      `rlm-plan: warning: the reports hold ${byIndex.size} of the ${total} cases selected (a shard missing?)\n`,
    );
  const cases = [...byIndex.values()].sort((a, b) => a.index - b.index);
  // The shards ran side by side: the merged run took as long as its slowest shard.
  const duration = Math.max(0, ...reports.map((r) => r.summary.duration_ms));
  const merged: TestReport = {
    type: REPORT_TYPE,
    version: REPORT_VERSION,
    selected: total,
    cases,
    summary: summarize(cases, duration),
  };
  printReport(merged, args.format, io);
  if (byIndex.size !== total) return 2;
  return merged.summary.failed > 0 ? 1 : 0;
}
