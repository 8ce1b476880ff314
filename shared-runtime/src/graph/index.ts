// The plan graph: model, layout and renderers (SVG, Graphviz DOT, Mermaid).

export * from "./model";
export { dataUses, planCosts, type DataUse, type PlanCosts, type StepCost } from "./planFacts";
