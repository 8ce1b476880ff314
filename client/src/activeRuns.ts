// The runs going on now. The server reports each run's events as notifications carrying its
// run id (the runtime's event stream, then runFinished); they are routed to that run's session
// in the order they arrive. A notification may overtake the answer that told the client the id,
// so events for an id nobody listens to yet wait a little. A session reads the stream as it
// comes: it keeps every event in the run log (the graph reduces them to step states), prints
// transitions and failed attempts to the output, and knows which steps are running (started,
// neither finished nor failed) and which step the run failed in, because the events say so.

import * as vscode from "vscode";
import { State, type LanguageClient } from "vscode-languageclient/node";
import type { JsonValue, RunEvent } from "@rlm-plan/core";
import type { RunLog, RunRecord, StepPath, StepRef } from "./runLog";
import type { RunOutput } from "./runOutput";
import { stepId } from "./graph/runSteps";
import {
  RunEventNotification,
  RunFinishedNotification,
  type RunFinishedParams,
} from "@rlm-plan/language-server/protocol";

type SessionInput =
  | { readonly kind: "event"; readonly event: RunEvent }
  | { readonly kind: "finished"; readonly params: RunFinishedParams };

/** How long events for an unknown run id are kept waiting for their session. */
const EARLY_EVENT_TTL_MS = 60_000;

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
    private readonly log: RunLog,
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

  /** Ends a run the server can no longer report on (it stopped or restarted). */
  interrupt(message: string): void {
    if (this.ended) return;
    const running = this.currentStep;
    this.end({
      status: "interrupted",
      error: { phase: "execute", kind: "interrupted", message },
      ...(running ? { failedStep: running, ...(running.path ? { errorAt: running.path } : {}) } : {}),
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

  /** The step the error names and its step_failed event reported (a static error names a place only). */
  private failedStep(errorPath: JsonValue | undefined): { failedStep?: StepRef; errorAt?: StepPath } {
    if (!isStepPath(errorPath)) return {};
    const path = errorPath as StepPath;
    const failed = this.failed.get(stepId(path));
    return { ...(failed ? { failedStep: failed } : {}), errorAt: path };
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
  private readonly early = new Map<string, { events: SessionInput[]; since: number }>();
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
      client.onNotification(RunEventNotification.type, (p) => this.route(p.runId, { kind: "event", event: p.event })),
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

  private route(runId: string, event: SessionInput): void {
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
