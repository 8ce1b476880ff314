// The run pipeline as a front end meets it, as one entry (`@rlm-plan/core/run`): its options,
// handle and report (startRun.ts; a run itself starts through the plan session), the event
// stream, transitions and outcomes, errors, observers, the pause a debugger sees, the host
// interface a runner implements, and the names of operations as runs print them.

export * from "./startRun";
export * from "./events";
export * from "./transitions";
export * from "./observer";
export { operationName, type ExecuteOptions } from "./interpreter";
export * from "./errors";
export type { Evaluation, RunFrame, StepPause } from "./pause";
export type { ContextRunner } from "./host";
export { ContextHandle } from "../context/contextHandle";
