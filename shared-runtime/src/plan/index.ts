// The static plan layer, as one entry (`@rlm-plan/core/plan`): the AST's types, parsing, the walk
// over steps, budgets, capabilities, costs, counts and estimates, and problems' words: what a front
// end needs of a plan with no host and no run (`rlm-plan check` loads nothing more through it).

export * from "./ast";
export { countPlanSteps, planSteps, type WalkedPlanStep } from "./walk";
export * from "./parse";
export * from "./budget";
export * from "./capabilities";
export * from "./costRows";
export * from "./count";
export * from "./estimate";
export * from "./problems";
