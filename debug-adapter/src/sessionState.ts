// What the DAP session's request handlers share: the session's state and the few ways of
// answering, as one interface so the handler modules beside session.ts read it without importing
// the session class (which imports them).

import type { DebugProtocol } from "@vscode/debugprotocol";
import type { PlanError, RunOutcome } from "@rlm-plan/core";
import type { StepLine } from "@rlm-plan/core/debug";
import type { StepPause } from "@rlm-plan/core/run";
import type { RecordedRun } from "@rlm-plan/core/session";

/**
 * A restart from the step at `at`: the steps before it answered from the run `recorded`. `fork`:
 * a recorded run's replay goes live from there, a new run recorded as its fork (session.fork()).
 */
export interface RestartFrom {
  readonly recorded: RecordedRun;
  readonly at: readonly (string | number)[];
  readonly fork?: boolean;
}
import type { sessionMask } from "@rlm-plan/core/session";
import type { Breakpoints } from "./breakpoints";
import type { Prepared } from "./launch";
import type { StepMode, Stepping } from "./stepping";
import type { TimeTravel } from "./timeTravel";
import type { VariableStore } from "./variables";

/** The run's one thread: stepping follows one branch after another. */
export const THREAD_ID = 1;

/** A run stopped before a step until a continue or step command. */
export interface Held {
  readonly pause: StepPause;
  readonly error: PlanError | undefined;
  readonly resume: (mode: StepMode) => void;
}

export interface SessionState {
  readonly breakpoints: Breakpoints;
  exceptionFilters: Set<string>;
  readonly variableStore: VariableStore;
  readonly mask: ReturnType<typeof sessionMask>;
  program: string;
  steps: Map<string, StepLine>;
  cancel: AbortController;
  /** The live run's journal entry (Restart Frame reads the steps before the restarted one from it). */
  recorded: { readonly dir: string; readonly id: number } | undefined;
  /** A restart from a step: the run goes through the steps before it without stopping. */
  restartAt: string | undefined;
  prepared: Prepared | undefined;
  countPausedTime: boolean;
  stepping: Stepping;
  pauseRequested: boolean;
  held: Held | undefined;
  entryStop: boolean;
  ended: boolean;
  startedAt: number;
  /**
   * `seen`: the steps the run has come to (each beforeStep) since it started. `skip`: how many of
   * them a run resumed after an approval passes without stopping: those the held run went through,
   * up to the held step (stopped at already; the user went on from there). `heldAt`: `seen` when
   * the run stopped at a step held for approval.
   */
  passing: { seen: number; skip: number; heldAt: number };
  /** A replayed recorded run's steps as they were, to go back and forth through. */
  travel: TimeTravel | undefined;
  running: Promise<unknown> | undefined;

  sendResponse(response: DebugProtocol.Response): void;
  sendEvent(event: DebugProtocol.Event): void;
  /** An error response the client does not pop up. */
  fail(response: DebugProtocol.Response, message: string): void;
  output(category: "console" | "stdout" | "stderr", text: string): void;
  /** The run, from the prepared launch (a restart: again from a step, the steps before it answered from the journal). */
  run(prepared: Prepared, countPausedTime: boolean, restart?: RestartFrom): Promise<void>;
  stopRun(): Promise<void>;
  /** The run's end, said once; `location`: the failed step's place in the plan file (1-based). */
  finish(outcome: RunOutcome, mocked?: boolean, location?: { readonly line: number; readonly column: number }): void;
  /** The pause the views show: an earlier step of a recorded run, or where the run is held. */
  viewed(): { pause: StepPause; error: PlanError | undefined } | undefined;
  toClientLine(line: number): number;
  toClientColumn(column: number): number;
  toClientPath(path: string): string;
}

export function errorText(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

/** A run that ended before the interpreter ran it (the adapter's own failure, a failed restart). */
export function failedOutcome(kind: "runtime_error" | "cancelled", message: string): RunOutcome {
  return {
    ok: false,
    error: { phase: "execute", kind, message },
    transitions: [],
    checkpoints: [],
    budget_remaining: { steps: 0, model_calls: 0, tool_calls: 0, context_ops: 0, output_bytes: 0 },
  };
}
