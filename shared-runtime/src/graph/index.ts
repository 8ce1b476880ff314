// The plan graph's model, as the runtime's index exports it. The words on nodes (labels), the
// layout (elkjs) and the renderers are imported from their own modules (graph/labels,
// graph/layout, graph/svg, graph/dot, graph/mermaid), so loading the runtime never loads the
// layout engine, and the adapter onto scopes and costs (graph/planFacts) stays private.

export {
  buildPlanGraph,
  pathId,
  ROOT_PLAN_ID,
  type GraphEdge,
  type GraphNode,
  type GraphOptions,
  type GraphPlanNode,
  type GraphProblem,
  type GraphStepNode,
  type PlanGraph,
} from "./model";
