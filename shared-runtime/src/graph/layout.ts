// Lays a plan graph out with ELK's layered algorithm (elkjs): steps top to bottom, nested plans
// as compound nodes inside the step that owns them (parallel branches side by side), edges
// routed through the hierarchy. Runs the same in Node (the CLI's SVG) and in a browser (the
// editor's webview), so both draw the same picture. Coordinates are absolute.

import type { ElkExtendedEdge, ElkNode } from "elkjs/lib/elk-api";
import { METRICS, planCaption, stepLines, textWidth } from "./labels";
import type { GraphNode, PlanGraph } from "./graphModel";

export interface Box {
  readonly x: number;
  readonly y: number;
  readonly width: number;
  readonly height: number;
}

export interface Point {
  readonly x: number;
  readonly y: number;
}

export interface GraphLayout {
  readonly width: number;
  readonly height: number;
  /** Every node's box, by node id. */
  readonly boxes: ReadonlyMap<string, Box>;
  /** Every edge's route (start, bends, end), by edge id. */
  readonly routes: ReadonlyMap<string, readonly Point[]>;
}

/**
 * Options of every level: each plan (and each step holding plans) is laid out on its own,
 * inside out, steps top to bottom in the plan's order (crossing minimization off keeps parallel
 * branches left to right as written, and a plan always reads in order). Laying out level by
 * level also keeps a 1,000-step plan fast: each level is a short chain.
 */
const LEVEL_OPTIONS = {
  "elk.algorithm": "layered",
  "elk.direction": "DOWN",
  "elk.layered.spacing.nodeNodeBetweenLayers": "28",
  "elk.spacing.nodeNode": "24",
  "elk.edgeRouting": "ORTHOGONAL",
  "elk.layered.crossingMinimization.strategy": "NONE",
  // Parallel branches are unconnected: one row, not packed as separate components.
  "elk.separateConnectedComponents": "false",
  "elk.json.shapeCoords": "ROOT",
  "elk.json.edgeCoords": "ROOT",
};

/** What `new ELK()` gives: the one call the layout makes. */
export interface ElkEngine {
  layout(graph: ElkNode): Promise<ElkNode>;
}

/** Loads elkjs's constructor; called on the first layout that needs it. */
export type ElkLoader = () => Promise<new () => ElkEngine>;

/**
 * elkjs is 1.5 MiB of JavaScript that a column (below) never needs: Node imports it on the first
 * layout that does; the editor's webview loads it as a script of its own (graphView.ts), so the
 * view's page starts without it.
 */
let loadElk: ElkLoader = async () => {
  // A require, not import(): the CLI's bundle runs from V8's code cache, where import() has no
  // loader. elkjs's module.exports is its class, which is also its own `default`.
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const elk = require("elkjs/lib/elk.bundled.js") as typeof import("elkjs/lib/elk.bundled.js");
  return elk.default;
};
let engine: Promise<ElkEngine> | undefined;

/** Where elkjs comes from (the webview's script); the engine is made again on next use. */
export function setElkLoader(loader: ElkLoader): void {
  loadElk = loader;
  engine = undefined;
}

/** A plan of only leaf steps longer than this is placed as a column without elkjs (see below). */
export const COLUMN_LAYOUT_STEPS = 100;

export async function layoutPlanGraph(graph: PlanGraph): Promise<GraphLayout> {
  const root = graph.nodes[0];
  if (!root) return { width: 0, height: 0, boxes: new Map(), routes: new Map() };
  // A long plan with nothing nested shown (flat, or every nested plan folded) is a column:
  // elkjs's layered pipeline costs seconds for 1,000 boxes and would place them the same way.
  if (
    graph.nodes.length > COLUMN_LAYOUT_STEPS + 1 &&
    graph.nodes.every((node, i) => i === 0 || node.parent === root.id)
  )
    return columnLayout(graph);
  engine ??= loadElk().then((ELK) => new ELK());
  // A failed load is not kept: the next layout tries again.
  const elk = await engine.catch((error: unknown) => {
    engine = undefined;
    throw error;
  });
  const elkNodes = new Map<string, ElkNode>();
  for (const node of graph.nodes) {
    const elkNode: ElkNode = { id: node.id, ...size(node) };
    const parent = node.parent === undefined ? undefined : elkNodes.get(node.parent);
    if (parent) (parent.children ??= []).push(elkNode);
    elkNodes.set(node.id, elkNode);
  }
  // A node with children is a compound node: its caption (a plan's) or its lines (a step's that
  // owns nested plans) sit above its children, and it is at least as wide as its text.
  for (const node of graph.nodes) {
    const elkNode = elkNodes.get(node.id) as ElkNode;
    if (!elkNode.children) continue;
    const top =
      node.kind === "step"
        ? stepLines(node).length * METRICS.lineHeight + 2 * METRICS.padding
        : METRICS.captionHeight + 4;
    elkNode.layoutOptions = {
      ...LEVEL_OPTIONS,
      "elk.padding": `[top=${top},left=10,bottom=10,right=10]`,
      "elk.nodeSize.constraints": "[MINIMUM_SIZE]",
      "elk.nodeSize.minimum": `(${elkNode.width}, ${top})`,
    };
    delete elkNode.width;
    delete elkNode.height;
  }
  // Edges between steps of one plan are routed by ELK in that plan; a data edge into a nested
  // plan crosses levels and is drawn straight, from the bottom of its source to the top of its target.
  const parentOf = new Map(graph.nodes.map((node) => [node.id, node.parent]));
  const crossing: PlanGraph["edges"][number][] = [];
  for (const edge of graph.edges) {
    const parent = parentOf.get(edge.from);
    const holder = parent !== undefined && parent === parentOf.get(edge.to) ? elkNodes.get(parent) : undefined;
    const elkEdge: ElkExtendedEdge = { id: edge.id, sources: [edge.from], targets: [edge.to] };
    if (holder) (holder.edges ??= []).push(elkEdge);
    else crossing.push(edge);
  }
  const input: ElkNode = {
    id: "layout-root",
    layoutOptions: LEVEL_OPTIONS,
    children: [elkNodes.get(root.id) as ElkNode],
  };
  const laidOut = await elk.layout(input);
  const boxes = new Map<string, Box>();
  const routes = new Map<string, Point[]>();
  const collect = (node: ElkNode): void => {
    boxes.set(node.id, { x: node.x ?? 0, y: node.y ?? 0, width: node.width ?? 0, height: node.height ?? 0 });
    for (const edge of node.edges ?? []) {
      const points: Point[] = [];
      for (const section of edge.sections ?? [])
        points.push(section.startPoint, ...(section.bendPoints ?? []), section.endPoint);
      routes.set(edge.id, points);
    }
    for (const child of node.children ?? []) collect(child);
  };
  for (const child of laidOut.children ?? []) collect(child);
  for (const edge of crossing) {
    const from = boxes.get(edge.from);
    const to = boxes.get(edge.to);
    if (from && to)
      routes.set(edge.id, [
        { x: from.x + from.width / 2, y: from.y + from.height },
        { x: to.x + to.width / 2, y: to.y },
      ]);
  }
  return { width: laidOut.width ?? 0, height: laidOut.height ?? 0, boxes, routes };
}

/**
 * The root plan's steps one under another, centred, with elkjs's margins and spacings: order
 * edges straight down the middle, a data edge to the next step beside them, longer data edges
 * along the plan's left side. Linear in the steps.
 */
function columnLayout(graph: PlanGraph): GraphLayout {
  const [plan, ...steps] = graph.nodes as [GraphNode, ...GraphNode[]];
  const margin = 12;
  const gap = Number(LEVEL_OPTIONS["elk.layered.spacing.nodeNodeBetweenLayers"]);
  const sizes = steps.map(size);
  const column = sizes.reduce((widest, s) => Math.max(widest, s.width), -Infinity);
  const planBox = { x: margin, y: margin, width: column + 20, height: 0 };
  const boxes = new Map<string, Box>();
  const index = new Map<string, number>();
  const centre = planBox.x + 10 + column / 2;
  let y = planBox.y + METRICS.captionHeight + 4;
  steps.forEach((node, i) => {
    const { width, height } = sizes[i] as { width: number; height: number };
    boxes.set(node.id, { x: centre - width / 2, y, width, height });
    index.set(node.id, i);
    y += height + gap;
  });
  planBox.height = y - gap + 10 - planBox.y;
  boxes.set(plan.id, planBox);
  const routes = new Map<string, Point[]>();
  for (const edge of graph.edges) {
    const from = boxes.get(edge.from);
    const to = boxes.get(edge.to);
    if (!from || !to) continue;
    const next = (index.get(edge.to) ?? 0) - (index.get(edge.from) ?? 0) === 1;
    if (edge.kind === "order") {
      routes.set(edge.id, [
        { x: centre, y: from.y + from.height },
        { x: centre, y: to.y },
      ]);
    } else if (next) {
      routes.set(edge.id, [
        { x: centre - 24, y: from.y + from.height },
        { x: centre - 24, y: to.y },
      ]);
    } else {
      const lane = planBox.x + 5;
      routes.set(edge.id, [
        { x: from.x, y: from.y + from.height / 2 },
        { x: lane, y: from.y + from.height / 2 },
        { x: lane, y: to.y + to.height / 2 },
        { x: to.x, y: to.y + to.height / 2 },
      ]);
    }
  }
  return { width: planBox.width + 2 * margin, height: planBox.height + 2 * margin, boxes, routes };
}

function size(node: GraphNode): { width: number; height: number } {
  const lines = node.kind === "step" ? stepLines(node) : [planCaption(node)];
  // A step's first line is its title, drawn bold (GRAPH_STYLE).
  const widest = Math.max(...lines.map((line, i) => textWidth(line, node.kind === "step" && i === 0)));
  return {
    width: Math.max(120, Math.ceil(widest) + 2 * METRICS.padding),
    height: node.kind === "step" ? lines.length * METRICS.lineHeight + 2 * METRICS.padding : METRICS.captionHeight,
  };
}
