// A run's states by step, for the plan graph: a reduction of the runtime's event stream as the
// server forwarded it (and the run log keeps it), in order. Nothing here infers a state: a step
// is running from its step_started to its step_finished (ok) or step_failed (failed, or
// cancelled), and every failed attempt the stream reports (a step's step_failed inside a retry
// attempt, the retry step's attempt_failed) stays on the step with its masked reason, whatever
// the later attempts did.

import { pathId } from "@rlm-plan/core/editor";
import type { RunEvent } from "@rlm-plan/core";
import type { StepFailure, StepRunState } from "./messages";
import type { RunRecord, StepPath } from "../runLog";

/** How many failures a step's state lists (the newest); `failures` counts them all. */
export const MAX_FAILURES_LISTED = 5;

/** The graph's id of a step (the runtime's pathId of its JSON path). */
export function stepId(path: StepPath): string {
  return pathId(path);
}

/** What the reduction reads of a run: its status and the events it kept. */
export type RunEvents = Pick<RunRecord, "status" | "events" | "droppedEvents">;

interface Building {
  state: StepRunState["state"];
  durationMs?: number;
  remaining?: Readonly<Record<string, number>>;
  failures: StepFailure[];
  failureCount: number;
  /** The last failure came from an attempt_failed with no attempt left: the step_failed that follows repeats it. */
  lastAttemptFinal: boolean;
}

/**
 * Each step's state after `record.events`, in order. Once the run is over, a step still running
 * was stopped with it (cancelled), and every other step of `stepIds` is skipped, unless the log
 * dropped events (a long run): then what the dropped events said is unknown and stays unmarked.
 * A run with no events (a debug run, a run logged before events were kept) has no states.
 */
export function stepStates(record: RunEvents, stepIds: readonly string[]): Record<string, StepRunState> {
  if (!record.events) return {};
  const steps = new Map<string, Building>();
  const at = (path: StepPath): Building => {
    const id = stepId(path);
    let step = steps.get(id);
    if (!step) {
      step = { state: "running", failures: [], failureCount: 0, lastAttemptFinal: false };
      steps.set(id, step);
    }
    return step;
  };
  for (const event of record.events) reduce(at(event.path), event);
  const ended = record.status !== "running";
  const complete = !record.droppedEvents;
  const states: Record<string, StepRunState> = {};
  for (const [id, step] of steps) {
    let state = step.state;
    if (ended && state === "running") {
      if (!complete) continue;
      state = "cancelled";
    }
    states[id] = {
      state,
      ...(step.durationMs !== undefined ? { durationMs: step.durationMs } : {}),
      ...(step.remaining ? { remaining: step.remaining } : {}),
      ...(step.failureCount > 0 ? { failures: step.failureCount, lastFailures: step.failures } : {}),
    };
  }
  if (ended && complete) for (const id of stepIds) states[id] ??= { state: "skipped" };
  return states;
}

function reduce(step: Building, event: RunEvent): void {
  switch (event.type) {
    case "step_started":
      step.state = "running";
      step.lastAttemptFinal = false;
      return;
    case "step_finished":
      step.state = "ok";
      step.durationMs = event.duration_ms;
      step.remaining = { ...event.remaining };
      return;
    case "transition":
      return;
    case "attempt_failed":
      addFailure(step, {
        phase: event.error.phase,
        kind: event.error.kind,
        message: event.error.message,
        attempt: event.attempt,
        attempts: event.attempts,
      });
      step.lastAttemptFinal = !event.retrying;
      return;
    case "step_failed":
      step.state = event.error.kind === "cancelled" ? "cancelled" : "failed";
      step.durationMs = event.duration_ms;
      if (!step.lastAttemptFinal)
        addFailure(step, {
          phase: event.error.phase,
          kind: event.error.kind,
          message: event.error.message,
          ...(event.attempt !== undefined ? { attempt: event.attempt } : {}),
        });
      step.lastAttemptFinal = false;
      return;
  }
}

function addFailure(step: Building, failure: StepFailure): void {
  step.failureCount++;
  step.failures.push(failure);
  if (step.failures.length > MAX_FAILURES_LISTED) step.failures.shift();
}

/** How many retry attempts of the run failed (each attempt_failed event). */
export function failedAttempts(record: RunEvents): number {
  return (record.events ?? []).filter((event) => event.type === "attempt_failed").length;
}

/** One line on the run for the graph's status bar. */
export function runSummary(record: RunRecord): string {
  const after = record.durationMs === undefined ? "" : ` after ${(record.durationMs / 1000).toFixed(1)} s`;
  const failed = failedAttempts(record);
  const attempts = failed === 0 ? "" : ` · ${failed} failed attempt${failed === 1 ? "" : "s"}`;
  return record.status === "running"
    ? `Run ${record.number} · running${attempts}`
    : `Run ${record.number} · ${record.status}${after}${attempts}`;
}
