// What debuggers need of plan files, as one entry (`@rlm-plan/core/debug`): steps by line and
// the nearest step a breakpoint moves to, console expressions and breakpoint conditions.

export * from "./stepLines";
export * from "./expression";
