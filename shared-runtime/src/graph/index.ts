// The plan graph: the model and the words on its nodes. The layout (elkjs) and the renderers
// are imported from their own modules (graph/layout, graph/svg, graph/dot, graph/mermaid), so
// loading the runtime never loads the layout engine.

export * from "./model";
export * from "./labels";
export { dataUses, planCosts, type DataUse, type PlanCosts, type StepCost } from "./planFacts";
