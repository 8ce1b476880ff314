// The plan graph drawn, as one entry (`@rlm-plan/core/graph/render`): the wire form a client
// receives and the renderers. Apart from the graph's model (`@rlm-plan/core/graph`), so what draws
// a graph (the webview, `rlm-plan graph`) never loads the analysis; the layout engine (elkjs) is
// an entry of its own, `@rlm-plan/core/graph/layout`, loaded only where an SVG is drawn.

export type {
  PlanGraph,
  GraphApproval,
  GraphEdge,
  GraphNode,
  GraphPlanNode,
  GraphStepNode,
  GraphProblem,
} from "./graphModel";
export * from "./wire";
export type { Box, GraphLayout, Point } from "./layout";
export * from "./svg";
export * from "./dot";
export * from "./mermaid";
