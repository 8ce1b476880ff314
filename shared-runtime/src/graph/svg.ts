// A laid-out plan graph as one SVG document: a `<g class="step">` per step (with its path,
// op and state as data attributes, a `<title>` for tooltips, and a badge on its corner when it
// can need approval), a `<g class="plan">` per
// nested plan, a `<path class="edge">` per edge. Colours are CSS custom properties with
// fallbacks: the editor's theme (`--vscode-*`) when shown in VS Code, a light scheme elsewhere.
// Given a window, only what meets it is drawn (the editor's view of a big graph), in a document
// the window's size whose viewBox is the window: placed at the window's corner, it sits where it
// would in the whole drawing.

import type { Box, GraphLayout, Point } from "./layout";
import { METRICS, planCaption, stepApproval, stepLines, stepSummary } from "./labels";
import type { GraphEdge, PlanGraph } from "./graphModel";
import { GRAPH_STYLE } from "./style";
import { xmlAttribute, xmlText } from "../text/xmlText";

export { GRAPH_STYLE };

/** What a drawing leaves out: by default nothing. */
export interface SvgOptions {
  /** Draw only the nodes and edges that meet this box (the layout's coordinates). */
  readonly within?: Box;
  /** Each step's `<title>` (its summary, for tooltips): a view with its own hover text needs none. */
  readonly titles?: boolean;
  /** The text in the boxes: a view zoomed out too far to read it can leave it out. */
  readonly labels?: boolean;
  /**
   * The stylesheet inside the drawing (default): a page whose content security policy admits no
   * inline style links GRAPH_STYLE as a file instead (`rlm-plan ui`).
   */
  readonly stylesheet?: boolean;
  /** A run's state of each step by id (ok, failed, running, cancelled, skipped): a class on its group, styled by GRAPH_STYLE. */
  readonly states?: Readonly<Record<string, string>>;
}

export function renderSvg(graph: PlanGraph, layout: GraphLayout, options: SvgOptions = {}): string {
  const { within, titles = true, labels = true, stylesheet = true, states = {} } = options;
  const width = Math.ceil(within?.width ?? layout.width);
  const height = Math.ceil(within?.height ?? layout.height);
  const corner = within ? `${n(within.x)} ${n(within.y)}` : "0 0";
  const out: string[] = [
    `<svg xmlns="http://www.w3.org/2000/svg" class="rlm-graph" width="${width}" height="${height}" viewBox="${corner} ${width} ${height}">`,
    stylesheet ? `<style>${GRAPH_STYLE}</style>` : "",
    "<defs>",
    arrow("arrow-order", "arrow"),
    arrow("arrow-data", "arrow data"),
    "</defs>",
  ];
  // Nodes in the graph's order, each container before what it holds, so nothing is hidden
  // under its own box; edges last, on top.
  for (const node of graph.nodes) {
    const box = layout.boxes.get(node.id);
    if (!box || (within && !meets(box, within))) continue;
    if (node.kind === "plan") {
      out.push(
        `<g class="plan ${node.role}" data-id="${attr(node.id)}">`,
        `<rect x="${n(box.x)}" y="${n(box.y)}" width="${n(box.width)}" height="${n(box.height)}" rx="8"/>`,
        node.role === "root" || !labels
          ? ""
          : `<text class="caption" x="${n(box.x + 8)}" y="${n(box.y + 15)}">${text(planCaption(node))}</text>`,
        "</g>",
      );
      continue;
    }
    const classes = ["step", `op-${node.op}`];
    if (node.overBudget.length > 0) classes.push("over-budget");
    if (node.problems.some((problem) => !problem.hostDependent)) classes.push("problem");
    else if (node.problems.length > 0) classes.push("warning");
    if (node.collapsed) classes.push("collapsed");
    const approval = stepApproval(node);
    if (approval) classes.push("needs-approval");
    const state = states[node.id];
    // A state is one of the run's words, never the plan's: anything else is not a class.
    if (state !== undefined && /^[a-z]+$/.test(state)) classes.push(state);
    const lines = labels ? stepLines(node) : [];
    const lineClass = ["title", "detail", "cost", "mark"];
    // The approval mark is stepLines' last line when the step has one.
    const classOfLine = (i: number) => (approval && i === lines.length - 1 ? "approval" : (lineClass[i] ?? "mark"));
    out.push(
      `<g class="${classes.join(" ")}" data-id="${attr(node.id)}" data-op="${node.op}"${node.bind === undefined ? "" : ` data-bind="${attr(node.bind)}"`} data-steps="${node.worstCase.steps}" tabindex="0">`,
      titles ? `<title>${text(stepSummary(node, graph))}</title>` : "",
      `<rect x="${n(box.x)}" y="${n(box.y)}" width="${n(box.width)}" height="${n(box.height)}" rx="6"/>`,
      ...lines.map(
        (line, i) =>
          `<text class="${classOfLine(i)}" x="${n(box.x + METRICS.padding)}" y="${n(box.y + METRICS.padding + (i + 1) * METRICS.lineHeight - 4)}">${text(line)}</text>`,
      ),
      approval ? approvalBadge(approval.words, box, titles) : "",
      "</g>",
    );
  }
  for (const edge of graph.edges) {
    const points = layout.routes.get(edge.id);
    if (points && points.length > 1 && (!within || meets(bounds(points), within))) out.push(edgePath(edge, points));
  }
  out.push("</svg>");
  return `${out.filter((line) => line !== "").join("\n")}\n`;
}

/** Whether two boxes overlap (touching counts). */
export function meets(a: Box, b: Box): boolean {
  return a.x <= b.x + b.width && b.x <= a.x + a.width && a.y <= b.y + b.height && b.y <= a.y + a.height;
}

/** The box around an edge's points. */
export function bounds(points: readonly Point[]): Box {
  let [left, top, right, bottom] = [Infinity, Infinity, -Infinity, -Infinity];
  for (const { x, y } of points) {
    left = Math.min(left, x);
    right = Math.max(right, x);
    top = Math.min(top, y);
    bottom = Math.max(bottom, y);
  }
  return { x: left, y: top, width: right - left, height: bottom - top };
}

/**
 * A check mark in a circle on the box's top-right corner (drawn without a font, so it stays when
 * the labels do not), named for assistive technology whether or not tooltips are drawn.
 */
function approvalBadge(words: string, box: Box, titles: boolean): string {
  const [x, y] = [box.x + box.width, box.y];
  return [
    `<g class="approval-badge" role="img" aria-label="${attr(words)}">`,
    titles ? `<title>${text(words)}</title>` : "",
    `<circle cx="${n(x)}" cy="${n(y)}" r="7"/>`,
    `<path d="M${n(x - 3.5)} ${n(y)} L${n(x - 1)} ${n(y + 2.5)} L${n(x + 3.5)} ${n(y - 2.5)}"/>`,
    "</g>",
  ].join("");
}

function arrow(id: string, cls: string): string {
  return `<marker id="${id}" viewBox="0 0 10 10" refX="10" refY="5" markerWidth="7" markerHeight="7" orient="auto-start-reverse"><path class="${cls}" d="M 0 0 L 10 5 L 0 10 z"/></marker>`;
}

function edgePath(edge: GraphEdge, points: readonly Point[]): string {
  const d = points.map((p, i) => `${i === 0 ? "M" : "L"}${n(p.x)} ${n(p.y)}`).join(" ");
  const title = edge.variable === undefined ? "" : `<title>${text(edge.variable)}</title>`;
  return `<path class="edge ${edge.kind}" data-id="${attr(edge.id)}" d="${d}" marker-end="url(#arrow-${edge.kind})">${title}</path>`;
}

/** Coordinates with at most one decimal: smaller files, same picture. */
function n(value: number): string {
  return String(Math.round(value * 10) / 10);
}

/** A name a plan may still carry that XML cannot hold is drawn as U+FFFD. */
const text = (value: string): string => xmlText(value);
const attr = (value: string): string => xmlAttribute(value);
