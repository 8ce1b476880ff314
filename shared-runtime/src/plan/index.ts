// The static plan layer, as one entry (`@rlm-plan/core/plan`): the AST's types, parsing, the walk
// over steps, budgets, capabilities, costs, counts and estimates, and problems' words: what a front
// end needs of a plan with no host and no run (`rlm-plan check` loads nothing more through it).
// The editor's features also read the semantic model's parts, tokens, snippets and value types here.

export * from "./ast";
export { countPlanSteps, planSteps, type WalkedPlanStep } from "./walk";
export * from "./parse";
export * from "./budget";
export * from "./capabilities";
export * from "./costRows";
export * from "./count";
export * from "./estimate";
export * from "./modelCost";
export {
  modelStepBounds,
  planMoney,
  planTokenBound,
  staticInputBound,
  stepMoney,
  type CallBound,
  type ModelStepBound,
  type TokenEstimate,
} from "./planMoney";
export * from "./problems";
export { builtinOf, DEFAULT_DATA_LIMITS, type DataLimits } from "./dataLimits";
export { argumentKeys } from "./toolArgumentChecks";
export type { PlanModel, RetryCost } from "./semanticModel";
export type { ModelBinding, ModelReference } from "./scopeWalk";
export { bindingNameProblem } from "./names";
export { planTokens, type PlanToken, type PlanTokenKind, type StepSpan } from "./planTokens";
export { fieldValueSnippet, formChoiceSnippet, formSnippet } from "./snippets";
export { samePath, stepPositions } from "./stepChain";
export type { ToolKnowledge } from "./toolKnowledge";
export type { TypeHost } from "./types/planTypes";
export { compactType, knownFields, type ValueType } from "./types/valueType";
export * from "./whatIf";
export { stepRunFlow, type StepRunFlow } from "./stepRunFlow";
