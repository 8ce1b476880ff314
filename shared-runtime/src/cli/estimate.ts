// `rlm-plan estimate FILE`: the plan's worst case beside the budget. Exit 1 when the plan has
// errors (printed as check prints them) or goes over the budget, else 0. What is over budget
// is what the validator reports (budget_exceeded problems): no second copy of the rule.

import { ESTIMATE_LIMITS } from "../plan/estimate";
import type { Command } from "./args";
import {
  estimateLines,
  jsonText,
  problemJson,
  problemLines,
  readErrorLine,
  summaryLine,
  type EstimateJson,
  type Io,
} from "./output";
import { hostErrorLines, policyFor } from "./hostPolicy";
import { reportFile } from "./report";

export function runEstimate(command: Extract<Command, { kind: "estimate" }>, io: Io): number {
  const { file } = command;
  // The host profile's budget counts here; its capabilities are check's business.
  const resolved = policyFor(file, { capabilities: undefined, budget: command.budget, host: command.host });
  if (!resolved.ok) {
    io.err(hostErrorLines(resolved.errors));
    return 2;
  }
  const report = reportFile(file, { budget: resolved.policy.budget });
  if (report.readError !== undefined) {
    io.err(readErrorLine(file, report.readError));
    if (command.json) {
      const result: EstimateJson = {
        file,
        ok: false,
        error: `cannot read: ${report.readError}`,
        estimate: null,
        budget: null,
        exceeded: [],
        problems: [],
      };
      io.out(jsonText(result));
    }
    return 1;
  }
  const estimate = report.errors === 0 ? report.analysis?.estimates?.total : undefined;
  const budget = report.analysis?.budget;
  const overBudget = report.problems.filter((problem) => problem.kind === "budget_exceeded");
  const exceeded = overBudget.map(({ source }) => ({
    budget: source?.budget ?? "",
    field: ESTIMATE_LIMITS.find((limit) => limit.name === source?.budget)?.field ?? "",
    estimated: source?.estimated ?? 0,
    limit: source?.limit ?? 0,
  }));
  const ok = estimate !== undefined && exceeded.length === 0;

  if (command.json) {
    const result: EstimateJson = {
      file,
      ok,
      estimate: estimate ?? null,
      budget: budget ?? null,
      exceeded: estimate ? exceeded : [],
      problems: report.problems.map(problemJson),
    };
    io.out(jsonText(result));
    return ok ? 0 : 1;
  }

  if (!estimate || !budget) {
    const lines = report.problems.flatMap((problem) => problemLines(file, problem, io.style));
    io.out(`${[...lines, summaryLine(report, io.style)].join("\n")}\n`);
    return 1;
  }
  const others = report.problems.filter((problem) => problem.kind !== "budget_exceeded");
  const rows = ESTIMATE_LIMITS.map((limit) => ({
    label: limit.label,
    estimated: estimate[limit.figure],
    limit: budget[limit.field],
    over: exceeded.some((e) => e.budget === limit.name),
  }));
  const lines = [
    ...others.flatMap((problem) => problemLines(file, problem, io.style)),
    ...estimateLines(file, rows, io.style),
  ];
  io.out(`${lines.join("\n")}\n`);
  return ok ? 0 : 1;
}
