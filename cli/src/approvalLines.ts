// What `check` and `estimate` say of approvals (docs/approvals.md): each step that can need
// approval under the host profile, at its place in the plan, and the worst-case number of
// approvals the plan can ask for (the core's forecast, host/approvalSteps.ts), as text lines,
// GitHub notices (`check --format github`) or JSON.

import { lineColumn, type PlanAnalysis } from "@rlm-plan/core/analysis";
import { exactJsonText } from "@rlm-plan/core/json";
import { approvalStepText, type ApprovalForecast } from "@rlm-plan/core/session";
import { annotationPath } from "./checkFormats";
import { shownFile } from "./guardedOutput";
import { commandData, commandProperty } from "./sink";

/** A plan's forecast with what places it in the file. */
export interface PlanApprovals {
  readonly file: string;
  readonly text: string;
  readonly document: PlanAnalysis["document"];
  readonly forecast: ApprovalForecast;
}

interface Place {
  readonly line: number;
  readonly column: number;
  readonly message: string;
}

function places({ text, document, forecast }: PlanApprovals): Place[] {
  return forecast.steps.map((step) => {
    const range = document.rangeOf(step.path, "key");
    const at = range ? lineColumn(text, range.offset) : { line: 0, character: 0 };
    return {
      line: at.line + 1,
      column: at.character + 1,
      message: `${step.capability} at ${approvalStepText(step)} needs approval${step.condition !== undefined ? ` when ${step.condition}` : ""} (approval rule ${step.rule}), at worst ${times(exactJsonText(step.worstCase))}`,
    };
  });
}

function total(forecast: ApprovalForecast): string {
  const count = exactJsonText(forecast.worstCase);
  const steps = forecast.steps.length;
  return `at worst ${count} approval${count === "1" ? "" : "s"} (${steps} step${steps === 1 ? "" : "s"} can need approval)`;
}

function times(count: string): string {
  return `${count} time${count === "1" ? "" : "s"}`;
}

/**
 * A checked plan's forecast, when its profile has approval rules and the plan has no error; kept
 * in `into` by the plan's file when given (check's many files).
 */
export function planApprovals(
  session: { readonly text: string | undefined; approvalForecast(): ApprovalForecast | undefined },
  report: { readonly file: string; readonly errors: number; readonly analysis?: PlanAnalysis | undefined },
  into?: Map<string, PlanApprovals>,
): PlanApprovals | undefined {
  const forecast = report.errors === 0 ? session.approvalForecast() : undefined;
  if (!forecast || !report.analysis) return undefined;
  const plan = { file: report.file, text: session.text ?? "", document: report.analysis.document, forecast };
  into?.set(report.file, plan);
  return plan;
}

/** "FILE:LINE:COL: tool(send) at steps/1 needs approval (approval rule 0), at worst 2 times" a step, then the total. */
export function approvalLines(plan: PlanApprovals | undefined): string[] {
  if (!plan) return [];
  const shown = shownFile(plan.file);
  return [
    ...places(plan).map((p) => `${shown}:${p.line}:${p.column}: ${p.message}`),
    `${shown}: ${total(plan.forecast)}`,
  ];
}

/** `check --format github`: a notice a step (shown on its line in a pull request), then each plan's total. */
export function approvalNotices(plans: ReadonlyMap<string, PlanApprovals> | undefined, cwd: string): string[] {
  return [...(plans?.values() ?? [])].flatMap((plan) => planNotices(plan, cwd));
}

function planNotices(plan: PlanApprovals, cwd: string): string[] {
  const path = commandProperty(annotationPath(plan.file, cwd));
  const title = "title=rlm-plan approval";
  return [
    ...places(plan).map(
      (p) => `::notice file=${path},line=${p.line},col=${p.column},${title}::${commandData(p.message)}`,
    ),
    `::notice file=${path},${title}::${commandData(total(plan.forecast))}`,
  ];
}

/** The forecast as JSON: steps with their paths as printed, counts exact. */
export function approvalJson(forecast: ApprovalForecast): Record<string, unknown> {
  return {
    worstCase: forecast.worstCase,
    steps: forecast.steps.map((step) => ({
      step: approvalStepText(step),
      capability: step.capability,
      rule: step.rule,
      conditional: step.conditional,
      ...(step.condition !== undefined ? { condition: step.condition } : {}),
      worstCase: step.worstCase,
    })),
  };
}
