// What a running plan reports: its transitions (the reference's record of finished steps) and its
// one event stream, told to the run's observers in order, with error messages masked and cut; an
// observer's failure never changes the run. A transition goes out once, as the "transition" event.

import type { JsonPath } from "../json";
import type { SourceRange } from "../text/planDocument";
import type { PlanError } from "./errors";
import { MAX_EVENT_MESSAGE_CHARS, type EventError, type RunEvent, type StepIdentity } from "./events";
import { quietly, type RunObserver } from "./observer";
import type { BudgetRemaining, Transition } from "./transitions";

/** Who hears a run and what shapes what they are told. */
export interface ReportOptions {
  /**
   * What watches the run (a front end's printer, the run journal, the trace exporter; see
   * observer.ts): the only listeners a run has. Each hears every event once, in order; an
   * observer's exception is ignored.
   */
  readonly observers?: readonly RunObserver[];
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
  private readonly listeners: ((event: RunEvent) => void)[];

  constructor(private readonly options: ReportOptions) {
    this.listeners = (options.observers ?? []).flatMap((o) => (o.event ? [o.event.bind(o)] : []));
  }

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
    this.emit({ type: "transition", ...identity, elapsed_ms: transition.elapsed_ms, transition });
    this.emit({
      type: "step_finished",
      ...identity,
      elapsed_ms: transition.elapsed_ms,
      duration_ms: transition.duration_ms,
      remaining: transition.remaining,
    });
  }

  stepStarted(identity: StepIdentity, elapsedMs: number): void {
    this.emit({ type: "step_started", ...identity, elapsed_ms: elapsedMs });
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
    for (const listener of this.listeners) quietly(() => listener(event));
  }
}

/** An error's message for an event: masked first (a cut could split a secret), then cut. */
function eventMessage(text: string, mask: ReportOptions["mask"]): string {
  const masked = mask ? mask.mask(text) : text;
  return masked.length > MAX_EVENT_MESSAGE_CHARS ? `${masked.slice(0, MAX_EVENT_MESSAGE_CHARS - 1)}…` : masked;
}
