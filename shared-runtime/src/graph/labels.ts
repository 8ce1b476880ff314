// The words on a graph node, in one place: every renderer (SVG, DOT, Mermaid, the webview)
// and the layout's box sizes use these lines, so a node says the same thing everywhere.

import type { Budget } from "../plan/budget";
import { ESTIMATE_LIMITS, type Estimate } from "../plan/estimate";
import type { GraphPlanNode, GraphStepNode, PlanGraph } from "./graphModel";

/** Text metrics the layout and the drawings assume: a 12px sans-serif font (the title line bold). */
export const METRICS = { fontSize: 12, lineHeight: 16, padding: 8, captionHeight: 22 } as const;

/**
 * Advance widths, in thousandths of an em, of the printable ASCII characters (U+0020 to U+007E)
 * in DejaVu Sans and DejaVu Sans Bold as Chromium measures them. DejaVu is what `system-ui` and
 * `sans-serif` are on most Linux desktops, and it is wider than Segoe UI, Helvetica, Arial,
 * Ubuntu and Roboto: a line measured with it fits its box in any of them.
 */
const BOOK = [
  318, 401, 460, 838, 636, 950, 780, 275, 390, 390, 500, 838, 318, 361, 318, 337, 636, 636, 636, 636, 636, 636, 636,
  636, 636, 636, 337, 337, 838, 838, 838, 531, 1000, 684, 686, 698, 770, 632, 575, 775, 752, 295, 295, 656, 557, 863,
  748, 787, 603, 787, 695, 635, 611, 732, 684, 989, 685, 611, 685, 390, 337, 390, 838, 500, 500, 613, 635, 550, 635,
  615, 352, 635, 634, 278, 278, 579, 278, 974, 634, 612, 635, 635, 411, 521, 392, 634, 592, 818, 592, 592, 525, 636,
  337, 636, 838,
];
const BOLD = [
  348, 456, 521, 838, 696, 1002, 872, 306, 457, 457, 523, 838, 380, 415, 380, 365, 696, 696, 696, 696, 696, 696, 696,
  696, 696, 696, 400, 400, 838, 838, 838, 580, 1000, 774, 762, 734, 830, 683, 683, 821, 837, 372, 372, 775, 637, 995,
  837, 850, 733, 850, 770, 720, 682, 812, 774, 1103, 771, 724, 725, 457, 365, 457, 838, 500, 500, 675, 716, 593, 716,
  678, 435, 716, 712, 343, 343, 665, 343, 1042, 712, 687, 716, 716, 493, 595, 478, 712, 652, 924, 645, 652, 582, 712,
  365, 712, 838,
];
/** The other characters the labels write ("·", "→", "×", "…"), book and bold; any other counts as a whole em. */
const OTHERS: Readonly<Record<string, readonly [number, number]>> = {
  "\u00b7": [318, 380],
  "\u2192": [838, 838],
  "\u00d7": [838, 838],
  "\u2026": [1000, 1000],
};

/** How wide a line of a node is drawn, in pixels at METRICS.fontSize (its widest likely font: see BOOK). */
export function textWidth(text: string, bold = false): number {
  const table = bold ? BOLD : BOOK;
  let units = 0;
  for (const character of text) {
    const code = character.codePointAt(0) as number;
    units +=
      code >= 0x20 && code <= 0x7e ? (table[code - 0x20] as number) : (OTHERS[character]?.[bold ? 1 : 0] ?? 1000);
  }
  return (units * METRICS.fontSize) / 1000;
}

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

/**
 * The lines a step node shows, top to bottom; the approval mark, when the step has one, is the
 * last (the SVG styles it apart).
 */
export function stepLines(node: GraphStepNode): string[] {
  const lines = [stepTitle(node), node.detail, costText(node.worstCase)];
  const marks: string[] = [];
  if (node.overBudget.length > 0) marks.push(`over budget: ${node.overBudget.join(", ")}`);
  if (node.problems.length > 0)
    marks.push(`${node.problems.length} ${node.problems.length === 1 ? "problem" : "problems"}`);
  if (node.collapsed) marks.push(`+${node.collapsed.steps} nested steps`);
  if (marks.length > 0) lines.push(marks.join(" · "));
  const approval = stepApproval(node);
  if (approval) lines.push(approval.mark);
  return lines;
}

/**
 * What a step's box says of approval: its own (a rule of the host profile can hold it), or that
 * of the steps hidden inside it when it is collapsed; undefined when neither. `mark` is the line
 * on the box, `words` the sentence for tooltips and the SVG's <title>.
 */
export function stepApproval(node: GraphStepNode): { readonly mark: string; readonly words: string } | undefined {
  const own = node.approval;
  if (own) {
    const times = String(own.worstCase);
    const when = own.condition === undefined ? "" : ` when ${own.condition}`;
    return {
      mark: `${own.condition === undefined ? "needs" : "may need"} approval ×${times}`,
      words: `needs approval${when} (rule ${own.rule}: ${own.quorum} of ${own.approvers.join(", ")}), at worst ${timesText(times)}`,
    };
  }
  const hidden = node.collapsed?.approvals;
  if (!hidden) return undefined;
  const times = String(hidden.worstCase);
  const steps = `${hidden.steps} nested step${hidden.steps === 1 ? "" : "s"}`;
  return {
    mark: `nested approvals ×${times}`,
    words: `${steps} can need approval, at worst ${timesText(times)} in all`,
  };
}

function timesText(count: string): string {
  return `${count} time${count === "1" ? "" : "s"}`;
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

/** A step's longer description (SVG `<title>`, tooltips): costs, the run's total, grant, approval, problems. */
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
  const approval = stepApproval(node);
  if (approval) lines.push(approval.words);
  for (const problem of node.problems) lines.push(`${problem.hostDependent ? "warning" : "error"}: ${problem.message}`);
  return lines.join("\n");
}
