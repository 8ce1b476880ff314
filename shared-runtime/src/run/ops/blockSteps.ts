// The steps that run plans inside a plan: parallel branches (one after another, or up to
// max_parallel at once, the first failure cancelling the rest) and retry attempts.

import type { JsonValue } from "../../json";
import type { ParallelMode } from "../events";
import type { ParallelStep, Plan, RetryStep } from "../../plan/ast";
import { FATAL_KINDS, RunFailure, type PlanError } from "../errors";
import type { RunFrame } from "../pause";
import type { Frame } from "../runFrame";

/** What a block step needs of the run it belongs to. */
export interface BlockStepRun {
  readonly parallelMode: ParallelMode;
  readonly maxParallel: number;
  /** The run stopped (cancelled, out of time): cancelled branches' work is not awaited then. */
  stopped(): boolean;
  /** Runs `plan` in a child scope of `frame`. */
  nested(plan: Plan, frame: Frame, runFrame: RunFrame, changes?: Partial<Frame>): Promise<JsonValue>;
  guard<T>(work: Promise<T>, frame: Frame): Promise<T>;
  /** Reports a failed attempt (an event); `begun` is when it started, in run time. */
  attemptFailed(step: RetryStep, frame: Frame, failed: AttemptFailure): void;
  /** Run time now (what `begun` is measured in). */
  clock(): number;
}

export interface AttemptFailure {
  readonly attempt: number;
  readonly retrying: boolean;
  readonly begun: number;
  readonly error: PlanError;
}

export async function parallelStep(run: BlockStepRun, step: ParallelStep, frame: Frame): Promise<JsonValue[]> {
  const branches = step.plans;
  if (run.parallelMode === "sequential" || branches.length <= 1) {
    const values: JsonValue[] = [];
    for (const [i, branch] of branches.entries()) values.push(await run.nested(branch, frame, branchFrame(step, i)));
    return values;
  }
  const controllers = branches.map(() => new AbortController());
  const frames = controllers.map((controller): Partial<Frame> => ({
    signal: AbortSignal.any([frame.signal, controller.signal]),
    pending: new Set(),
  }));
  const values: JsonValue[] = new Array<JsonValue>(branches.length);
  let next = 0;
  let failure: { error: unknown } | undefined;
  const worker = async (): Promise<void> => {
    while (next < branches.length && !failure) {
      const i = next++;
      try {
        values[i] = await run.nested(branches[i] as Plan, frame, branchFrame(step, i), frames[i]);
      } catch (error) {
        if (failure) continue;
        failure = { error };
        controllers.forEach((controller, j) => j !== i && controller.abort());
      }
    }
  };
  const width = Math.min(Math.max(1, run.maxParallel), branches.length);
  await Promise.all(Array.from({ length: width }, worker));
  if (!failure) return values;
  // Cancelled siblings' tools are gone (processes killed, requests aborted) before the step fails.
  const settling = frames.flatMap((f) => [...(f.pending ?? [])]);
  if (settling.length > 0 && !run.stopped()) await run.guard(Promise.all(settling), frame).catch(() => undefined);
  throw failure.error;
}

export async function retryStep(run: BlockStepRun, step: RetryStep, frame: Frame): Promise<JsonValue> {
  for (let attempt = 1; ; attempt++) {
    const begun = run.clock();
    try {
      const runFrame: RunFrame = {
        kind: "attempt",
        path: step.plan.path,
        step: step.path,
        attempt,
        attempts: step.attempts,
      };
      return await run.nested(step.plan, frame, runFrame, { attempt });
    } catch (error) {
      const fatal = !(error instanceof RunFailure) || FATAL_KINDS.has(error.error.kind);
      const retrying = !fatal && attempt < step.attempts;
      if (error instanceof RunFailure) run.attemptFailed(step, frame, { attempt, retrying, begun, error: error.error });
      if (!retrying) throw error;
    }
  }
}

function branchFrame(step: ParallelStep, branch: number): RunFrame {
  return { kind: "branch", path: (step.plans[branch] as Plan).path, step: step.path, branch };
}
