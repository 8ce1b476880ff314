// What a run shows a debugger before each step (and when a step fails): where it is, the
// nested plans it is inside, the bindings in scope, the budget and the checkpoints, plus a
// read-only evaluator over that scope. Values here are the run's own: for debuggers on the
// same machine, never for transitions or logs.

import type { JsonPath, JsonValue } from "../json";
import type { Expr, Step } from "../plan/ast";
import type { Budget } from "../plan/budget";
import type { PlanError } from "./errors";
import type { BudgetRemaining } from "./transitions";

/** One nested plan the run is inside: the root, an rlm sub-plan, parallel branch i, retry attempt n. */
export type RunFrame =
  | { readonly kind: "root"; readonly path: JsonPath }
  | { readonly kind: "rlm"; readonly path: JsonPath; readonly step: JsonPath }
  | { readonly kind: "branch"; readonly path: JsonPath; readonly step: JsonPath; readonly branch: number }
  | {
      readonly kind: "attempt";
      readonly path: JsonPath;
      readonly step: JsonPath;
      readonly attempt: number;
      readonly attempts: number;
    };

export type Evaluation =
  { readonly ok: true; readonly value: JsonValue } | { readonly ok: false; readonly error: PlanError };

export interface StepPause {
  /** The step's JSON path in the plan document. */
  readonly path: JsonPath;
  readonly step: Step;
  /** Outermost first; the last frame is the plan the step belongs to. */
  readonly frames: readonly RunFrame[];
  /**
   * Every binding the step can see (outer plans' included), in binding order. Like evaluate,
   * read it while the hook holds the run: it is the run's live scope, not a copy.
   */
  readonly bindings: ReadonlyMap<string, JsonValue>;
  /** The host's named inputs (JSON values or context handles). */
  readonly inputs: ReadonlyMap<string, unknown>;
  /** Text-file inputs not opened yet (a run opens one when a step first reads it), in the profile's order. */
  readonly unreadInputs: readonly string[];
  readonly budget: { readonly limits: Budget; readonly remaining: Readonly<BudgetRemaining> };
  /** Milliseconds of run time so far (paused time excluded unless the run counts it). */
  readonly elapsedMs: number;
  readonly checkpoints: readonly string[];
  /** Evaluates a plan expression in this scope without changing the run. */
  evaluate(expr: Expr): Evaluation;
}

export interface PauseHooks {
  /**
   * Called before each step (after the previous one completed); the run waits while the returned
   * promise is pending. Cancellation still ends a paused run.
   */
  readonly beforeStep?: (pause: StepPause) => void | Promise<void>;
  /** Called once when a step fails, at the innermost step, before the failure unwinds (or is retried). */
  readonly onStepFailed?: (pause: StepPause, error: PlanError) => void | Promise<void>;
  /**
   * Whether time spent waiting in the hooks counts against the time limit. Default false: the
   * run's clock (the time limit, steps' duration_ms, a pause's elapsedMs) stops while a debugger
   * holds the run. Events' elapsed_ms stay on the wall clock, the one the journal times calls on,
   * so that a run's steps and calls line up (RunStart.clockStart).
   */
  readonly countPausedTime?: boolean;
}
