// The rich event stream of a run: every event names its step by the step's JSON path in the
// plan (and its source range when the plan came from a file), so a log line, an error and a
// graph node name the same step. It is separate from the reference-compatible transition list,
// which stays exactly as the reference writes it. Events carry counters, error kinds and, for a
// failure, the error's message (cut to MAX_EVENT_MESSAGE_CHARS, passed through the run's secret
// mask when the run has one, and masked again at every output boundary): never a prompt, model
// text, tool argument or value. Transitions stay content-free.

import type { JsonPath } from "../json";
import type { SourceRange } from "../text/planDocument";
import type { BudgetRemaining, Transition } from "./transitions";

/** The step an event is about. */
export interface StepIdentity {
  /** The step's JSON path in the root plan, e.g. ["steps", 2, "plans", 1, "steps", 0]. */
  readonly path: JsonPath;
  /** As transitions write it: context(search), tool(count_items), model(p), rlm, final, ... */
  readonly operation: string;
  readonly bind: string | null;
  /** 1 for the root plan's steps, one more per rlm, parallel branch or retry body. */
  readonly depth: number;
  /** The attempt of the innermost enclosing retry (1-based), when the step runs inside one. */
  readonly attempt?: number;
  /** Where the step is in the plan's file, when the run started from a document. */
  readonly range?: SourceRange;
}

interface EventTiming {
  /** Milliseconds from the start of the run. */
  readonly elapsed_ms: number;
}

export interface StepStartedEvent extends StepIdentity, EventTiming {
  readonly type: "step_started";
}

/** The step completed; `transition` is exactly the entry of the transition list. */
export interface TransitionEvent extends StepIdentity, EventTiming {
  readonly type: "transition";
  readonly transition: Transition;
}

/** The step completed (after its transition): how long it took and what is left. */
export interface StepFinishedEvent extends StepIdentity, EventTiming {
  readonly type: "step_finished";
  readonly duration_ms: number;
  readonly remaining: Readonly<BudgetRemaining>;
}

/** An event's error message is cut to this many characters (with "…"). */
export const MAX_EVENT_MESSAGE_CHARS = 1000;

/** What an event says about an error: its phase, kind and (masked) message, the failing step's path. */
export interface EventError {
  readonly phase: string;
  readonly kind: string;
  /** Why it failed, as the run's outcome would say it: secrets masked, cut to MAX_EVENT_MESSAGE_CHARS. */
  readonly message: string;
  /** The innermost step that failed (it may be nested inside the event's step). */
  readonly path?: JsonPath;
  /** That step's place in the plan's file, when the run started from a document. */
  readonly range?: SourceRange;
}

/** The step failed: the error unwinds through it (and through every step that encloses it). */
export interface StepFailedEvent extends StepIdentity, EventTiming {
  readonly type: "step_failed";
  readonly duration_ms: number;
  readonly remaining: Readonly<BudgetRemaining>;
  readonly error: EventError;
}

/** One attempt of a retry step failed; `retrying` says whether another attempt follows. */
export interface AttemptFailedEvent extends StepIdentity, EventTiming {
  readonly type: "attempt_failed";
  /** The attempt that failed (1-based) and how many the step allows. */
  readonly attempt: number;
  readonly attempts: number;
  readonly retrying: boolean;
  readonly duration_ms: number;
  readonly remaining: Readonly<BudgetRemaining>;
  readonly error: EventError;
}

export type RunEvent = StepStartedEvent | TransitionEvent | StepFinishedEvent | StepFailedEvent | AttemptFailedEvent;

export type RunEventType = RunEvent["type"];

/** Parallel branches: `concurrent` runs up to max_parallel at once; `sequential` is the reference's order. */
export type ParallelMode = "concurrent" | "sequential";

export const PARALLEL_MODES: readonly ParallelMode[] = ["concurrent", "sequential"];
