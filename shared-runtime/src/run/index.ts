// The run pipeline as a front end meets it, as one entry (`@rlm-plan/core/run`): its options,
// handle and report (startRun.ts; a run itself starts through the plan session), the event
// stream, transitions and outcomes, observers, and the names of operations as runs print them.

export * from "./startRun";
export * from "./events";
export * from "./transitions";
export * from "./observer";
export { operationName, type ExecuteOptions } from "./interpreter";
