// `rlm-plan estimate FILE`: the plan's worst case beside the budget. Exit 1 when the plan has
// errors (printed as check prints them) or goes over the budget, else 0. What is over budget
// is what the validator reports (budget_exceeded problems), and the table is the model's rows
// of worst case against budget (costRows): no second copy of the rule.

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
import type { AnalysisPolicy } from "@rlm-plan/core/analysis";
import { hostErrorLines, sessionFor } from "./checkSession";
import { readErrorOf, reportText } from "./report";
import { costJson, moneyOver } from "./costText";
import { approvalJson, approvalLines, planApprovals } from "./approvalLines";

/** The session's budget and data limits: the profile's capabilities are check's business. */
function estimatePolicy({ budget, dataLimits, costs }: AnalysisPolicy): AnalysisPolicy {
  return { budget, ...(dataLimits ? { dataLimits } : {}), ...(costs ? { costs } : {}) };
}

export function runEstimate(command: Extract<Command, { kind: "estimate" }>, io: Io): number {
  const { file } = command;
  // The host profile's budget counts here; its capabilities are check's business.
  const resolved = sessionFor(
    file,
    { capabilities: undefined, budget: command.budget, host: command.host },
    io.sink.mask,
  );
  if (!resolved.ok && !("readError" in resolved)) {
    io.err(hostErrorLines(resolved.errors));
    return 2;
  }
  // Its context.max_results and built-in tools name the silent caps listed.
  const report = resolved.ok
    ? reportText(file, resolved.session.text ?? "", estimatePolicy(resolved.session.policy))
    : { file, readError: readErrorOf(resolved.code, resolved.readError) };
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
        cost: null,
        problems: [],
        silentCaps: [],
      };
      io.sink.stdout.json(jsonText(result));
    }
    return 1;
  }
  const model = report.analysis?.model;
  const estimate = report.errors === 0 ? model?.total : undefined;
  const budgetInForce = report.analysis?.budget;
  const rows = estimate ? model?.rows(estimate) : undefined;
  const money = estimate ? report.analysis?.money : undefined;
  const exceeded = [
    ...(rows ?? [])
      .filter((row) => row.over)
      .map((row) => ({ budget: row.name, field: row.field, estimated: row.estimate, limit: row.limit })),
    ...(money && moneyOver(money)
      ? [
          {
            budget: "cost",
            field: "max_cost",
            // No figure when some call is unpriced: never a silent 0.
            estimated: money.unpriced.length > 0 ? null : money.cost,
            limit: money.maxCost as number,
          },
        ]
      : []),
  ];
  const ok = estimate !== undefined && exceeded.length === 0;

  // Under a profile with approval rules: the steps that can need approval, and how often at worst.
  const planned = resolved.ok ? planApprovals(resolved.session, report) : undefined;
  const forecast = planned?.forecast;
  if (command.json) {
    const result: EstimateJson = {
      file,
      ok,
      estimate: estimate ?? null,
      budget: budgetInForce ?? null,
      exceeded: estimate ? exceeded : [],
      cost: money ? costJson(money) : null,
      problems: report.problems.map(problemJson),
      silentCaps: report.hints.map(problemJson),
      ...(forecast ? { approvals: approvalJson(forecast) } : {}),
    };
    io.sink.stdout.json(jsonText(result));
    return ok ? 0 : 1;
  }

  if (!estimate || !budgetInForce || !rows) {
    const lines = report.problems.flatMap((problem) => problemLines(file, problem, io.style));
    io.out(`${[...lines, summaryLine(report, io.style)].join("\n")}\n`);
    return 1;
  }
  const others = report.problems.filter((problem) => problem.kind !== "budget_exceeded");
  const lines = [
    ...others.flatMap((problem) => problemLines(file, problem, io.style)),
    // Where a count or a sum reads a capped result: the worst case is right, the value may not be.
    ...report.hints.flatMap((hint) => problemLines(file, hint, io.style)),
    ...estimateLines(file, rows, io.style, money),
    ...approvalLines(planned),
  ];
  io.out(`${lines.join("\n")}\n`);
  return ok ? 0 : 1;
}
