// One run's session in the editor: it reads the run's events as they come (a language server's
// run notifications, or a debug run's forwarded events: the same stream) and keeps every event in
// the run log (the graph reduces them to step states), prints transitions and failed attempts to
// the output, and knows which steps are running (started, neither finished nor failed) and which
// step the run failed in, because the events say so. It needs nothing of VS Code at run time.

import type { JsonValue, RunEvent } from "@rlm-plan/core";
import type { RunFinishedParams } from "@rlm-plan/language-server/protocol";
import type { RunLog, RunRecord, StepPath, StepRef } from "./runLog";
import type { RunOutput } from "./runOutput";
import { stepId } from "./graph/runSteps";

/** How a run ended: its result and its time (what RunFinishedNotification says). */
export type RunEnd = Pick<RunFinishedParams, "result" | "elapsedMs">;

/** What a session writes to the run log. */
export type RunSessionLog = Pick<RunLog, "addEvent" | "addTransition" | "finish">;

export type SessionInput =
  { readonly kind: "event"; readonly event: RunEvent } | { readonly kind: "finished"; readonly params: RunEnd };

export class RunSession {
  /** Steps started and neither finished nor failed, by step id, in the order they started. */
  private readonly running = new Map<string, StepRef>();
  /** Steps a step_failed event named, by step id. */
  private readonly failed = new Map<string, StepRef>();
  private resolveDone!: (record: RunRecord) => void;
  /** Resolves with the record when the run has ended, however it ended. */
  readonly done = new Promise<RunRecord>((resolve) => (this.resolveDone = resolve));
  private ended = false;
  /** Called as each step starts, for progress messages. */
  onStepStarted: ((step: StepRef) => void) | undefined;

  constructor(
    readonly runId: string,
    readonly record: RunRecord,
    private readonly log: RunSessionLog,
    private readonly output: RunOutput,
  ) {}

  get isDone(): boolean {
    return this.ended;
  }

  /** The step that started last and is still running, as the events said. */
  get currentStep(): StepRef | undefined {
    return [...this.running.values()].pop();
  }

  handle(input: SessionInput): void {
    if (this.ended) return;
    if (input.kind === "finished") {
      this.finish(input.params);
      return;
    }
    const { event } = input;
    this.log.addEvent(this.record, event);
    const id = stepId(event.path);
    const step: StepRef = { operation: event.operation, bind: event.bind, path: [...event.path] };
    switch (event.type) {
      case "step_started":
        this.running.delete(id);
        this.running.set(id, step);
        this.onStepStarted?.(step);
        break;
      case "step_finished":
        this.running.delete(id);
        break;
      case "step_failed":
        this.running.delete(id);
        this.failed.set(id, step);
        break;
      case "transition": {
        const logged = { ...event.transition, path: step.path };
        this.log.addTransition(this.record, logged);
        this.output.transition(this.record, logged);
        break;
      }
      case "attempt_failed":
        this.output.attemptFailed(this.record, event);
        break;
    }
  }

  /**
   * Ends a run nobody can report on any more: the server stopped or restarted (interrupted), or
   * the debug session was stopped before the adapter said how the run ended (cancelled).
   */
  interrupt(message: string, status: "interrupted" | "cancelled" = "interrupted"): void {
    if (this.ended) return;
    const running = this.currentStep;
    this.end({
      status,
      error: { phase: "execute", kind: status, message },
      ...(running ? { failedStep: running, ...(running.path ? { errorAt: running.path } : {}) } : {}),
    });
  }

  private finish(params: RunEnd): void {
    const { result } = params;
    const common = {
      durationMs: params.elapsedMs,
      checkpoints: [...result.checkpoints],
      ...(result.budgetRemaining ? { budgetRemaining: { ...result.budgetRemaining } } : {}),
    };
    if (result.ok) {
      this.end({ ...common, status: "succeeded", value: result.value });
      return;
    }
    const status = result.error.kind === "cancelled" ? "cancelled" : "failed";
    this.end({ ...common, status, error: result.error, ...this.failedStep(result.error.path) });
  }

  /** The step the error names and its step_failed event reported (a static error names a place only). */
  private failedStep(errorPath: JsonValue | undefined): { failedStep?: StepRef; errorAt?: StepPath } {
    if (!isStepPath(errorPath)) return {};
    const path = errorPath as StepPath;
    const failed = this.failed.get(stepId(path));
    return { ...(failed ? { failedStep: failed } : {}), errorAt: path };
  }

  private end(outcome: Parameters<RunSessionLog["finish"]>[1]): void {
    this.ended = true;
    this.log.finish(this.record, outcome);
    this.output.finished(this.record);
    this.resolveDone(this.record);
  }
}

function isStepPath(value: JsonValue | undefined): boolean {
  return Array.isArray(value) && value.every((segment) => typeof segment === "string" || typeof segment === "number");
}
