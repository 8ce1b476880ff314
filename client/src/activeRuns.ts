// The runs going on now. The server reports each run's events as notifications carrying its
// run id (stepStarted, transition, runFinished); they are routed to that run's session in the
// order they arrive. A notification may overtake the answer that told the client the id, so
// events for an id nobody listens to yet wait a little. A session matches each transition to
// the step the server said started (`OpenSteps`: parallel branches run at once, so several
// steps can be open) to know where in the plan it is, and when a run fails it knows which step
// was running.

import * as vscode from "vscode";
import { State, type LanguageClient } from "vscode-languageclient/node";
import type { JsonValue, StepStarted, Transition } from "@rlm-plan/core";
import type { RunLog, RunRecord, StepPath, StepRef } from "./runLog";
import type { RunOutput } from "./runOutput";
import { OpenSteps } from "./graph/runSteps";
import {
  RunFinishedNotification,
  RunStepStartedNotification,
  RunTransitionNotification,
  type RunFinishedParams,
} from "./serverProtocol";

type RunEvent =
  | { readonly kind: "step"; readonly step: StepStarted }
  | { readonly kind: "transition"; readonly transition: Transition; readonly path?: readonly (string | number)[] }
  | { readonly kind: "finished"; readonly params: RunFinishedParams };

/** How long events for an unknown run id are kept waiting for their session. */
const EARLY_EVENT_TTL_MS = 60_000;

export class RunSession {
  /** Steps the server said started that have not completed yet. */
  private readonly open = new OpenSteps();
  private resolveDone!: (record: RunRecord) => void;
  /** Resolves with the record when the run has ended, however it ended. */
  readonly done = new Promise<RunRecord>((resolve) => (this.resolveDone = resolve));
  private ended = false;
  /** Called as each step starts, for progress messages. */
  onStepStarted: ((step: StepStarted) => void) | undefined;

  constructor(
    readonly runId: string,
    readonly record: RunRecord,
    private readonly log: RunLog,
    private readonly output: RunOutput,
  ) {}

  get isDone(): boolean {
    return this.ended;
  }

  /** The step that started last and is still running, as the server said. */
  get currentStep(): StepRef | undefined {
    return this.open.latest;
  }

  /** Every step running now: one chain of enclosing steps per running branch. */
  get openSteps(): readonly StepRef[] {
    return this.open.all;
  }

  handle(event: RunEvent): void {
    if (this.ended) return;
    switch (event.kind) {
      case "step":
        this.open.start({ operation: event.step.operation, bind: event.step.bind, path: [...event.step.path] });
        this.onStepStarted?.(event.step);
        break;
      case "transition": {
        const logged = this.open.complete(event.transition, event.path);
        this.log.addTransition(this.record, logged);
        this.output.transition(this.record, logged);
        break;
      }
      case "finished":
        this.finish(event.params);
        break;
    }
  }

  /** Ends a run the server can no longer report on (it stopped or restarted). */
  interrupt(message: string): void {
    if (this.ended) return;
    this.end({
      status: "interrupted",
      error: { phase: "execute", kind: "interrupted", message },
      ...this.failedStep(undefined),
    });
  }

  private finish(params: RunFinishedParams): void {
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

  /** The step that was running, and the place in the plan the error names (validation errors do). */
  private failedStep(errorPath: JsonValue | undefined): { failedStep?: StepRef; errorAt?: StepPath } {
    const running = this.open.failing(isStepPath(errorPath) ? (errorPath as StepPath) : undefined);
    return {
      ...(running ? { failedStep: running } : {}),
      ...(isStepPath(errorPath) ? { errorAt: errorPath as StepPath } : running?.path ? { errorAt: running.path } : {}),
    };
  }

  private end(outcome: Parameters<RunLog["finish"]>[1]): void {
    this.ended = true;
    this.log.finish(this.record, outcome);
    this.output.finished(this.record);
    this.resolveDone(this.record);
  }
}

export class ActiveRuns implements vscode.Disposable {
  private readonly sessions = new Map<string, RunSession>();
  private readonly early = new Map<string, { events: RunEvent[]; since: number }>();
  private readonly changed = new vscode.EventEmitter<void>();
  /** Fires when a run starts or ends. */
  readonly onDidChange = this.changed.event;
  private readonly subscriptions: vscode.Disposable[] = [];

  constructor(
    client: LanguageClient,
    private readonly log: RunLog,
    private readonly output: RunOutput,
  ) {
    this.subscriptions.push(
      client.onNotification(RunStepStartedNotification.type, (p) =>
        this.route(p.runId, { kind: "step", step: p.step }),
      ),
      client.onNotification(RunTransitionNotification.type, (p) =>
        this.route(p.runId, { kind: "transition", transition: p.transition, ...(p.path ? { path: p.path } : {}) }),
      ),
      client.onNotification(RunFinishedNotification.type, (p) => this.route(p.runId, { kind: "finished", params: p })),
      client.onDidChangeState((event) => {
        if (event.newState !== State.Running) {
          this.interruptAll("the language server stopped during the run; run the plan again");
        }
      }),
      this.changed,
    );
  }

  /** The runs going on now, oldest first. */
  running(): RunSession[] {
    return [...this.sessions.values()];
  }

  /** Starts routing a run's events to a new session (and replays any that came early). */
  start(runId: string, record: RunRecord): RunSession {
    const session = new RunSession(runId, record, this.log, this.output);
    this.sessions.set(runId, session);
    this.output.started(record);
    void session.done.then(() => {
      this.sessions.delete(runId);
      this.changed.fire();
    });
    this.changed.fire();
    const early = this.early.get(runId);
    this.early.delete(runId);
    for (const event of early?.events ?? []) session.handle(event);
    return session;
  }

  interruptAll(message: string): void {
    for (const session of this.sessions.values()) session.interrupt(message);
    this.early.clear();
  }

  dispose(): void {
    this.interruptAll("VS Code closed the window during the run");
    for (const subscription of this.subscriptions) subscription.dispose();
  }

  private route(runId: string, event: RunEvent): void {
    const session = this.sessions.get(runId);
    if (session) {
      session.handle(event);
      return;
    }
    const now = Date.now();
    for (const [id, entry] of this.early) if (now - entry.since > EARLY_EVENT_TTL_MS) this.early.delete(id);
    const entry = this.early.get(runId) ?? { events: [], since: now };
    entry.events.push(event);
    this.early.set(runId, entry);
  }
}

function isStepPath(value: JsonValue | undefined): boolean {
  return Array.isArray(value) && value.every((segment) => typeof segment === "string" || typeof segment === "number");
}
