// What a running plan reports: its transitions (the reference's record of finished steps) and its
// event stream, with error messages masked and cut; a listener's failure never changes the run.

import type { JsonPath } from "../json";
import type { SourceRange } from "../text/planDocument";
import type { PlanError } from "./errors";
import { MAX_EVENT_MESSAGE_CHARS, type EventError, type RunEvent, type StepIdentity } from "./events";
import type { BudgetRemaining, StepStarted, Transition } from "./transitions";

/** The listeners of a run and what shapes what they are told. */
export interface ReportOptions {
  /** Called as each step completes, in sequence order. Exceptions thrown here are ignored. */
  readonly onTransition?: (transition: Transition) => void;
  readonly onStepStart?: (event: StepStarted) => void;
  /** The rich event stream (step identity, attempts, failures). Exceptions thrown here are ignored. */
  readonly onEvent?: (event: RunEvent) => void;
  /**
   * The run's secret mask: an event's error message passes through it before any listener sees
   * it (a tool's error may quote its output). Output boundaries mask again whatever they print.
   */
  readonly mask?: { mask(text: string): string };
  /** Where a step is in the plan's file, for events (runs started from a document). */
  readonly rangeOf?: (path: JsonPath) => SourceRange | undefined;
}

export class RunReporter {
  readonly transitions: Transition[] = [];

  constructor(private readonly options: ReportOptions) {}

  /** A step finished: its transition, then its events. Times are in run time, relative to the start. */
  finished(identity: StepIdentity, elapsedMs: number, durationMs: number, remaining: BudgetRemaining): void {
    const transition: Transition = {
      sequence: this.transitions.length + 1,
      operation: identity.operation,
      bind: identity.bind,
      status: "ok",
      elapsed_ms: Math.round(elapsedMs),
      duration_ms: Math.round(durationMs),
      remaining,
    };
    this.transitions.push(transition);
    this.notify(() => this.options.onTransition?.(transition));
    this.emit({ type: "transition", ...identity, elapsed_ms: transition.elapsed_ms, transition });
    this.emit({
      type: "step_finished",
      ...identity,
      elapsed_ms: transition.elapsed_ms,
      duration_ms: transition.duration_ms,
      remaining: transition.remaining,
    });
  }

  stepStarted(identity: StepIdentity, elapsedMs: number, depth: number): void {
    const { operation, bind, path } = identity;
    this.emit({ type: "step_started", ...identity, elapsed_ms: elapsedMs });
    this.notify(() => this.options.onStepStart?.({ operation, bind, path, depth }));
  }

  /** What an event says about an error: its message masked and cut (it may quote a tool's output). */
  eventError(error: PlanError): EventError {
    const { phase, kind } = error;
    const message = eventMessage(error.message, this.options.mask);
    if (!Array.isArray(error.path)) return { phase, kind, message };
    const path = error.path as JsonPath;
    const range = this.options.rangeOf?.(path);
    return { phase, kind, message, path, ...(range ? { range } : {}) };
  }

  emit(event: RunEvent): void {
    const listener = this.options.onEvent;
    if (listener) this.notify(() => listener(event));
  }

  /** Listener failures are the listener's problem; they never change the run. */
  private notify(call: () => void): void {
    try {
      call();
    } catch {
      // ignored on purpose
    }
  }
}

/** An error's message for an event: masked first (a cut could split a secret), then cut. */
function eventMessage(text: string, mask: ReportOptions["mask"]): string {
  const masked = mask ? mask.mask(text) : text;
  return masked.length > MAX_EVENT_MESSAGE_CHARS ? `${masked.slice(0, MAX_EVENT_MESSAGE_CHARS - 1)}…` : masked;
}
