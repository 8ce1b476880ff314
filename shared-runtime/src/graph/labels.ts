// The words on a graph node, in one place: every renderer (SVG, DOT, Mermaid, the webview)
// and the layout's box sizes use these lines, so a node says the same thing everywhere.

import type { Budget } from "../plan/budget";
import { ESTIMATE_LIMITS, type Estimate } from "../plan/estimate";
import type { GraphPlanNode, GraphStepNode, PlanGraph } from "./model";

/** Text metrics the layout and the drawings assume: a 12px sans-serif font, about 7px a character. */
export const METRICS = { charWidth: 7, lineHeight: 16, padding: 8, captionHeight: 22 } as const;

/** Counters a cost line names, after the step count. */
const CALLS: readonly (readonly [keyof Estimate, string])[] = [
  ["model_calls", "model"],
  ["tool_calls", "tool"],
  ["context_ops", "context"],
];

/** "3 steps · 1 model · 2 context": the step count, then every call counter that is not zero. */
export function costText(estimate: Estimate): string {
  const parts = [`${estimate.steps} ${estimate.steps === 1 ? "step" : "steps"}`];
  for (const [figure, name] of CALLS) if (estimate[figure] > 0) parts.push(`${estimate[figure]} ${name}`);
  return parts.join(" · ");
}

/** The first line of a step: its op and, when it binds one, the name (`model → answer`). */
export function stepTitle(node: GraphStepNode): string {
  return node.bind === undefined ? node.op : `${node.op} → ${node.bind}`;
}

/** The lines a step node shows, top to bottom. */
export function stepLines(node: GraphStepNode): string[] {
  const lines = [stepTitle(node), node.detail, costText(node.worstCase)];
  const marks: string[] = [];
  if (node.overBudget.length > 0) marks.push(`over budget: ${node.overBudget.join(", ")}`);
  if (node.problems.length > 0)
    marks.push(`${node.problems.length} ${node.problems.length === 1 ? "problem" : "problems"}`);
  if (node.collapsed) marks.push(`+${node.collapsed.steps} nested steps`);
  if (marks.length > 0) lines.push(marks.join(" · "));
  return lines;
}

/** A plan container's caption: its label and one run's worst case. */
export function planCaption(node: GraphPlanNode): string {
  return `${node.label} · ${costText(node.worstCase)}`;
}

/** The run's worst case against the budget, figure by figure: "steps 5/64, model calls 1/8, ...". */
export function budgetText(total: Estimate, budget: Budget | undefined): string {
  return ESTIMATE_LIMITS.map(
    (limit) => `${limit.label} ${total[limit.figure]}${budget ? `/${budget[limit.field]}` : ""}`,
  ).join(", ");
}

/** A step's longer description (SVG `<title>`, tooltips): costs, the run's total, grant, problems. */
export function stepSummary(node: GraphStepNode, graph: PlanGraph): string {
  const lines = [
    `${stepTitle(node)}: ${node.detail}`,
    `worst case: ${costText(node.worstCase)}`,
    `run total at this step: ${budgetText(node.runningTotal, graph.budget)}`,
  ];
  if (node.capability)
    lines.push(
      `needs ${node.capability}${node.granted === undefined ? "" : node.granted ? " (granted)" : " (not granted)"}`,
    );
  for (const problem of node.problems) lines.push(`${problem.hostDependent ? "warning" : "error"}: ${problem.message}`);
  return lines.join("\n");
}
