// The core's front door (`@rlm-plan/core`): a façade of what most front ends need, at most 60
// names (architecture.front-door holds it): the plan session, the static analysis, the plan
// graph, the types that cross the wire (run events, transitions, outcomes, errors, ranges, JSON),
// and the plan format's vocabulary. Everything else is a subsystem's own entry (package.json
// "exports": `@rlm-plan/core/plan`, `/text`, `/run`, `/host`, `/debug`, ...), loaded by the few
// front ends that need it. Names are listed one by one (no `export *`), so the door cannot widen
// by accident.

// The session: every front end opens a plan through it.
export {
  openPlanSession,
  openPlanSessionSync,
  PlanSession,
  type PlanSessionOptions,
  type SessionFailure,
} from "./session";

// The analysis: what editors and `check` ask of a plan's text.
export { analyzePlanText, type AnalysisPolicy, type LocatedProblem, type PlanAnalysis } from "./analysis";
export type { PlanModel } from "./plan/semanticModel";

// The graph, as the server sends it and the client draws it.
export { buildPlanGraph, graphToWire, type WireGraph, type WirePlanNode, type WireStepNode } from "./graph";

// Types on the wire: a run's events and outcome, errors, ranges, budgets, counts, JSON values.
export type { AttemptFailedEvent, RunEvent } from "./run/events";
export type { BudgetRemaining, RunOutcome, Transition } from "./run/transitions";
export type { PlanError } from "./run/errors";
export type { RunHandle } from "./run/runContract";
export type { SourceRange } from "./text/pathRanges";
export type { JsonPath, JsonValue } from "./json";
export type { Budget } from "./plan/budget";
export type { Count } from "./plan/count";
export type { Estimate } from "./plan/estimate";

// The vocabulary: the plan format's field tables and help, read by completion, hover and snippets.
export {
  ACTION_FIELDS,
  CONTEXT_ACTIONS,
  DISCRIMINATORS,
  MAP_TRANSFORMS,
  OPERATIONS,
  PARTITION_STRATEGIES,
  PLAN_FIELDS,
  REDUCERS,
  REFERENCE_FIELDS,
  REFERENCE_KINDS,
  SELECTOR_CONSTANTS,
  SELECTOR_FIELDS,
  SELECTOR_TYPES,
  STEP_FIELDS,
  STRATEGY_FIELDS,
  type FieldTable,
} from "./plan/ast";
export { BUDGET_FIELDS, DEFAULT_BUDGET } from "./plan/budget";
export { FIXED_CAPABILITIES } from "./plan/capabilities";
export { ACTION_HELP, OPERATION_HELP, REFERENCE_HELP } from "./plan/vocabularyHelp";
