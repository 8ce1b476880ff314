// What a debugger hook sees of a run held before (or at the failure of) a step: the step, its
// frames, the scope's bindings, inputs, budget, time and checkpoints, and an evaluate in that scope.

import type { JsonValue } from "../json";
import type { Expr, Step } from "../plan/ast";
import type { Budget } from "../plan/budget";
import { RunFailure } from "./errors";
import type { StepPause } from "./pause";
import type { Frame } from "./runFrame";
import type { BudgetRemaining } from "./transitions";

/** The run's state a pause shows, taken when the run is held. */
export interface HeldRun {
  readonly inputs: ReadonlyMap<string, unknown>;
  readonly unreadInputs: string[];
  readonly limits: Budget;
  readonly remaining: BudgetRemaining;
  readonly elapsedMs: number;
  /** The run's checkpoints (the pause shows those passed so far). */
  readonly checkpoints: readonly string[];
  resolve(expr: Expr, frame: Frame): JsonValue;
}

export function stepPause(step: Step, frame: Frame, held: HeldRun): StepPause {
  const vars = frame.vars;
  const checkpoints = held.checkpoints;
  const count = checkpoints.length;
  return {
    path: step.path,
    step,
    frames: [...frame.frames],
    // Bindings and checkpoints are read when asked (a run with thousands of bindings does not
    // copy them before every step); like evaluate, they are the run's state while it is held.
    get bindings() {
      return vars as ReadonlyMap<string, JsonValue>;
    },
    inputs: held.inputs,
    unreadInputs: held.unreadInputs,
    budget: { limits: held.limits, remaining: held.remaining },
    elapsedMs: held.elapsedMs,
    get checkpoints() {
      return checkpoints.slice(0, count);
    },
    // Valid while the hook holds the run: it reads the scope the step is about to run in.
    evaluate: (expr) => {
      try {
        return { ok: true, value: held.resolve(expr, frame) };
      } catch (error) {
        if (error instanceof RunFailure) return { ok: false, error: error.error };
        throw error;
      }
    },
  };
}
