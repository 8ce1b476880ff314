// `rlm-plan check FILE...`: every problem of every file, then one summary line per file.
// Exit 1 when any file has an error or cannot be read, else 0.

import type { Command } from "./args";
import { fileJson, jsonText, problemLines, readErrorLine, summaryLine, type Io } from "./output";
import { discoverFor, hostErrorLines, policyFor, type Discoveries } from "./hostPolicy";
import { reportFile, type FileReport } from "./report";

/** `rlm-plan check` with the tools of the profiles' MCP servers listed first (their schemas type arguments). */
export async function runCheckWithTools(command: Extract<Command, { kind: "check" }>, io: Io): Promise<number> {
  return runCheck(command, io, await discoverFor(command.files, command.host));
}

export function runCheck(
  command: Extract<Command, { kind: "check" }>,
  io: Io,
  discoveries: Discoveries = new Map(),
): number {
  const reports: FileReport[] = [];
  const lines: string[] = [];
  let hostErrors = false;
  let warnedNoHost = false;
  for (const file of command.files) {
    const resolved = policyFor(file, command, discoveries);
    if (!resolved.ok) {
      io.err(hostErrorLines(resolved.errors));
      hostErrors = true;
      continue;
    }
    if (resolved.hostFile === undefined && command.capabilities === undefined && !warnedNoHost) {
      io.err("rlm-plan: no host profile (rlmplan.host.json) found: capabilities, tools and providers not checked\n");
      warnedNoHost = true;
    }
    const report = reportFile(file, resolved.policy);
    reports.push(report);
    if (report.readError !== undefined) {
      io.err(readErrorLine(report.file, report.readError));
      continue;
    }
    for (const problem of report.problems) lines.push(...problemLines(report.file, problem, io.style));
    lines.push(summaryLine(report, io.style));
  }
  if (command.json) io.out(jsonText({ files: reports.map(fileJson) }));
  else if (lines.length > 0) io.out(`${lines.join("\n")}\n`);
  return hostErrors || reports.some((report) => report.readError !== undefined || report.errors > 0) ? 1 : 0;
}
