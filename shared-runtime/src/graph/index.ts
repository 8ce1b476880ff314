// The plan graph's model, as the runtime's index exports it. The words on nodes (labels), the
// layout (elkjs) and the renderers are imported from their own modules (graph/labels,
// graph/layout, graph/svg, graph/dot, graph/mermaid), so loading the runtime never loads the
// layout engine, and the adapter onto the semantic model (graph/planFacts) stays private. The
// wire form carries exact counts through JSON (the server's reply, the webview's messages).

export {
  buildPlanGraph,
  pathId,
  ROOT_PLAN_ID,
  type GraphApproval,
  type GraphEdge,
  type GraphNode,
  type GraphOptions,
  type GraphPlanNode,
  type GraphProblem,
  type GraphStepNode,
  type PlanGraph,
} from "./graphModel";
export {
  graphFromWire,
  graphToWire,
  type WireApproval,
  type WireCount,
  type WireEstimate,
  type WireGraph,
  type WirePlanNode,
  type WireStepNode,
} from "./wire";
