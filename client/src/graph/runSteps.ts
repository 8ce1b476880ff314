// A run's states by step, for the plan graph: the one place the graph reads a run's events.
// They come from the run log (each transition matched to its step's path) and the steps still
// open, which `OpenSteps` follows from the server's step-started and transition events. Parallel
// branches run concurrently, so several steps can be open at once, one per running branch, plus
// the steps that enclose them.

import { pathId } from "@rlm-plan/core/graph/ids";
import type { StepRunState } from "./messages";
import type { Transition } from "@rlm-plan/core";
import type { LoggedTransition, RunRecord, StepPath, StepRef } from "../runLog";

/** The graph's id of a step (the runtime's pathId of its JSON path). */
export function stepId(path: StepPath): string {
  return pathId(path);
}

/**
 * Each step's state: ok (with its duration and the budget left) for every completed step,
 * running for every open step (started and not yet completed, even if an earlier attempt
 * completed it), failed for the step the run failed in and the steps enclosing it; once the run
 * is over, every other step of `stepIds` is skipped.
 */
export function stepStates(
  record: RunRecord,
  stepIds: readonly string[],
  open: readonly StepRef[],
): Record<string, StepRunState> {
  const states: Record<string, StepRunState> = {};
  for (const transition of record.transitions) {
    if (!transition.path) continue;
    states[stepId(transition.path)] = {
      state: "ok",
      durationMs: transition.duration_ms,
      remaining: { ...transition.remaining },
    };
  }
  if (record.status === "running") {
    for (const step of open) if (step.path) states[stepId(step.path)] = { state: "running" };
    return states;
  }
  const failed = record.failedStep?.path ?? (record.status === "succeeded" ? undefined : record.errorAt);
  // A run fails only when the error leaves every step around the failing one: they failed too
  // (a retry that recovered would have let the run go on).
  if (failed && record.status !== "succeeded")
    for (let end = 2; end <= failed.length; end++)
      if (failed[end - 2] === "steps" && typeof failed[end - 1] === "number")
        states[stepId(failed.slice(0, end))] = { state: "failed" };
  for (const id of stepIds) states[id] ??= { state: "skipped" };
  return states;
}

/**
 * The steps of a run that started and have not completed, in the order they started. A plan
 * runs one step at a time, so the open steps are one chain of enclosing steps per running
 * branch. A step that fails reports no transition: it stays open until the run ends, or until
 * another step of its plan starts (a retry's next attempt), which closes it and what it encloses.
 */
export class OpenSteps {
  private readonly steps: StepRef[] = [];

  /** Every open step, in the order they started. */
  get all(): readonly StepRef[] {
    return this.steps;
  }

  /** The step that started last and is still open. */
  get latest(): StepRef | undefined {
    return this.steps[this.steps.length - 1];
  }

  start(step: StepRef): void {
    if (step.path) {
      const plan = step.path.slice(0, -2);
      for (let i = this.steps.length - 1; i >= 0; i--) {
        const path = (this.steps[i] as StepRef).path;
        if (path && path.length > plan.length + 1 && startsWith(path, plan) && path[plan.length] === "steps") {
          this.steps.splice(i, 1);
        }
      }
    }
    this.steps.push(step);
  }

  /**
   * Closes the step a transition completes and returns the transition as the run log keeps it:
   * with that step's path (the one the server names, else the one matched by `close`).
   */
  complete(transition: Transition, path?: StepPath): LoggedTransition {
    const step = this.close(transition.operation, transition.bind, path);
    return { ...transition, ...(step?.path ? { path: step.path } : {}) };
  }

  /**
   * Removes and returns the open step a transition completes: the one at `path` when the
   * server names it (concurrent branches complete in any order), else the latest open step
   * with this operation and binding (and any opened after it).
   */
  private close(operation: string, bind: string | null, path?: StepPath): StepRef | undefined {
    if (path) {
      const at = this.steps.findIndex((step) => step.path !== undefined && samePath(step.path, path));
      if (at >= 0) return this.steps.splice(at, 1)[0];
    }
    for (let i = this.steps.length - 1; i >= 0; i--) {
      const step = this.steps[i] as StepRef;
      if (step.operation === operation && step.bind === bind) {
        this.steps.length = i;
        return step;
      }
    }
    return undefined;
  }

  /** The step a run failed in: the open step at the path its error names, else the latest. */
  failing(errorPath: StepPath | undefined): StepRef | undefined {
    const named = errorPath && this.steps.find((step) => step.path !== undefined && samePath(step.path, errorPath));
    return named || this.latest;
  }
}

function startsWith(path: StepPath, prefix: StepPath): boolean {
  return prefix.every((segment, i) => path[i] === segment);
}

function samePath(a: StepPath, b: StepPath): boolean {
  return a.length === b.length && startsWith(a, b);
}

/** One line on the run for the graph's status bar. */
export function runSummary(record: RunRecord): string {
  const after = record.durationMs === undefined ? "" : ` after ${(record.durationMs / 1000).toFixed(1)} s`;
  return record.status === "running"
    ? `Run ${record.number} · running`
    : `Run ${record.number} · ${record.status}${after}`;
}
