// The static analysis, as one entry (`@rlm-plan/core/analysis`): of a plan's text (analysis.ts)
// and of a model's reply that should hold a plan (replyAnalysis.ts, for `rlm-plan report`).

export * from "../analysis";
export * from "../replyAnalysis";
// What running one step alone needs (the editor's Test This Step): the bindings it reads, as a template.
export { bindingsProblem, bindingsTemplate, stepScope, type StepScope } from "../plan/stepScope";
