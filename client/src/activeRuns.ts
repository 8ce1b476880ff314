// The runs going on now. The server reports each run's events as notifications carrying its
// run id (the runtime's event stream, then runFinished); they are routed to that run's session
// in the order they arrive. A notification may overtake the answer that told the client the id,
// so events for an id nobody listens to yet wait a little. Each session (runSession.ts) reads
// its stream as it comes.

import * as vscode from "vscode";
import { State, type LanguageClient } from "vscode-languageclient/node";
import type { RunLog, RunRecord } from "./runLog";
import type { RunOutput } from "./runOutput";
import { RunSession, type SessionInput } from "./runSession";
import { RunEventNotification, RunFinishedNotification } from "@rlm-plan/language-server/protocol";

/** How long events for an unknown run id are kept waiting for their session. */
const EARLY_EVENT_TTL_MS = 60_000;

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
