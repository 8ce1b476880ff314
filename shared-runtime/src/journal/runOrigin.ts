// Who started a run, as the journal records it and `runs list --origin` filters it.

/**
 * `step` is one step run alone (`run PLAN --step PATH --bindings JSON`, Test This Step);
 * `schedule` a worker's run of a schedule's iteration (`rlm-plan schedule add`), labelled with its name.
 */
export type RunOrigin = "cli" | "editor" | "debugger" | "test" | "worker" | "step" | "schedule";

/** Every origin, in the order `runs list --origin` offers them. */
export const RUN_ORIGINS: readonly RunOrigin[] = Object.freeze([
  "cli",
  "editor",
  "debugger",
  "test",
  "worker",
  "step",
  "schedule",
]);
