// Time travel through a replayed recorded run: before each step the replay reaches, the pause is
// kept as a snapshot (bindings, frames, budget and checkpoints copied as they were then), so the
// debugger can go back (DAP stepBack, reverseContinue) and forward again through what it has seen
// without running anything, then on past the newest step, where the replay goes on.

import type { JsonValue } from "@rlm-plan/core/json";
import type { Evaluation, StepPause } from "@rlm-plan/core/run";
import type { Expr } from "@rlm-plan/core/plan";

export class TimeTravel {
  private readonly snapshots: StepPause[] = [];
  /** The snapshot shown; the newest one is the replay's own pause. */
  private shown = -1;

  /** Keeps the pause the replay reached (it is the newest, and shown). */
  reached(pause: StepPause): void {
    this.snapshots.push(frozen(pause));
    this.shown = this.snapshots.length - 1;
  }

  /** Whether an earlier snapshot is shown (the replay itself waits at the newest one). */
  get inThePast(): boolean {
    return this.shown >= 0 && this.shown < this.snapshots.length - 1;
  }

  /** The snapshot shown, undefined before the first step. */
  get current(): StepPause | undefined {
    return this.snapshots[this.shown];
  }

  /** One step back; false at the first step. */
  back(): boolean {
    if (this.shown <= 0) return false;
    this.shown--;
    return true;
  }

  /** One step forward through what was seen; false at the newest step (the replay must go on). */
  forward(): boolean {
    if (!this.inThePast) return false;
    this.shown++;
    return true;
  }

  /** Back to the nearest earlier step `stops` holds, or to the first; true when it stopped on one. */
  backTo(stops: (pause: StepPause) => boolean): boolean {
    while (this.shown > 0) {
      this.shown--;
      if (stops(this.snapshots[this.shown] as StepPause)) return true;
    }
    return false;
  }

  /** Forward to the next seen step `stops` holds; false (at the newest) when none. */
  forwardTo(stops: (pause: StepPause) => boolean): boolean {
    while (this.inThePast) {
      this.shown++;
      if (this.inThePast && stops(this.snapshots[this.shown] as StepPause)) return true;
    }
    return false;
  }
}

/**
 * The pause as it is now: the live scope's bindings copied (JSON values are never changed in
 * place), and `evaluate` answering from that copy, so the console shows the step being shown.
 */
function frozen(pause: StepPause): StepPause {
  const bindings = new Map<string, JsonValue>(pause.bindings);
  return {
    path: pause.path,
    step: pause.step,
    frames: [...pause.frames],
    bindings,
    inputs: pause.inputs,
    unreadInputs: [...pause.unreadInputs],
    budget: { limits: pause.budget.limits, remaining: { ...pause.budget.remaining } },
    elapsedMs: pause.elapsedMs,
    checkpoints: [...pause.checkpoints],
    evaluate: (expr) => evaluateAt(pause, bindings, expr),
  };
}

/**
 * Evaluates `expr` in a kept snapshot: each variable is replaced by its value as it was then
 * (a literal), then the runtime's own evaluator (the pause's) reads fields, lists and inputs
 * exactly as a run does. A variable the snapshot does not hold was bound later in the run (or
 * never): that is said, never answered with the later value the live scope holds.
 */
function evaluateAt(pause: StepPause, bindings: ReadonlyMap<string, JsonValue>, expr: Expr): Evaluation {
  let unbound: string | undefined;
  const fixed = (e: Expr): Expr => {
    switch (e.kind) {
      case "var":
        if (!bindings.has(e.name)) {
          unbound ??= e.name;
          return e;
        }
        return { kind: "literal", value: bindings.get(e.name) as JsonValue };
      case "field":
        return { ...e, base: fixed(e.base) };
      case "list":
        return { ...e, items: e.items.map(fixed) };
      case "object":
        return { ...e, entries: e.entries.map(([key, value]) => [key, fixed(value)] as const) };
      default:
        return e;
    }
  };
  const rewritten = fixed(expr);
  if (unbound !== undefined)
    return {
      ok: false,
      error: {
        phase: "execute",
        kind: "unbound_variable",
        variable: unbound,
        message: `variable ${JSON.stringify(unbound)} is not bound yet at this step`,
      },
    };
  return pause.evaluate(rewritten);
}
