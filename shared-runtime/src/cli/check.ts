// `rlm-plan check FILE...`: every problem of every file, then one summary line per file.
// Exit 1 when any file has an error or cannot be read, else 0.

import type { Command } from "./args";
import { fileJson, jsonText, problemLines, readErrorLine, summaryLine, type Io } from "./output";
import { reportFile } from "./report";

export function runCheck(command: Extract<Command, { kind: "check" }>, io: Io): number {
  if (command.capabilities === undefined) io.err("rlm-plan: no host profile: capabilities not checked\n");
  const policy = { ...(command.capabilities ? { capabilities: command.capabilities } : {}), budget: command.budget };
  const reports = command.files.map((file) => reportFile(file, policy));
  const lines: string[] = [];
  for (const report of reports) {
    if (report.readError !== undefined) {
      io.err(readErrorLine(report.file, report.readError));
      continue;
    }
    for (const problem of report.problems) lines.push(...problemLines(report.file, problem, io.style));
    lines.push(summaryLine(report, io.style));
  }
  if (command.json) io.out(jsonText({ files: reports.map(fileJson) }));
  else if (lines.length > 0) io.out(`${lines.join("\n")}\n`);
  return reports.some((report) => report.readError !== undefined || report.errors > 0) ? 1 : 0;
}
