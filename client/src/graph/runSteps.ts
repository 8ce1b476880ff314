// A run's states by step, for the plan graph: the one place the graph reads a run's events.
// Today they come from the run log (each transition matched to its step's path by
// activeRuns.ts) and the session's open step; the run pipeline's events with step paths can
// replace this function alone.

import { pathId } from "@rlm-plan/core/graph/ids";
import type { StepRunState } from "./messages";
import type { RunRecord, StepPath, StepRef } from "../runLog";

/** The graph's id of a step (the runtime's pathId of its JSON path). */
export function stepId(path: StepPath): string {
  return pathId(path);
}

/**
 * Each step's state: ok (with its duration and the budget left) for every completed step,
 * running for the open step, failed for the step the run failed in; once the run is over,
 * every other step of `stepIds` is skipped.
 */
export function stepStates(
  record: RunRecord,
  stepIds: readonly string[],
  running: StepRef | undefined,
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
    if (running?.path) states[stepId(running.path)] = { state: "running" };
    return states;
  }
  const failed = record.failedStep?.path ?? (record.status === "succeeded" ? undefined : record.errorAt);
  if (failed && record.status !== "succeeded") states[stepId(failed)] = { state: "failed" };
  for (const id of stepIds) states[id] ??= { state: "skipped" };
  return states;
}

/** One line on the run for the graph's status bar. */
export function runSummary(record: RunRecord): string {
  const after = record.durationMs === undefined ? "" : ` after ${(record.durationMs / 1000).toFixed(1)} s`;
  return record.status === "running"
    ? `Run ${record.number} · running`
    : `Run ${record.number} · ${record.status}${after}`;
}
