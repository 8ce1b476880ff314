// Debug runs in the run log and the output: the debug adapter's custom events (the wire contract's
// Debug* events, server/src/protocol.ts) read into a run session per debug session, the same
// session a language server's run gets (runSession.ts), so a debug run's log, failed attempts and
// failed step read as a normal run's. It needs nothing of VS Code at run time (debugPlan.ts wires it).

import {
  debugEventBody,
  DebugRunEvent,
  DebugRunJournalEvent,
  DebugRunResultEvent,
  DebugRunStartedEvent,
} from "@rlm-plan/language-server/protocol";
import type { RunLog } from "./runLog";
import type { RunOutput } from "./runOutput";
import { RunSession, type RunEnd, type RunSessionLog } from "./runSession";

/** A custom event as VS Code hands it to the extension (its body masked already). */
export interface DebugCustomEvent {
  readonly event: string;
  readonly body?: unknown;
}

export class DebugRuns {
  /** The run of each debug session (by its id) that started and has not ended. */
  private readonly sessions = new Map<string, RunSession>();

  constructor(
    private readonly log: RunSessionLog & Pick<RunLog, "begin">,
    private readonly output: RunOutput,
    /** A file's path (the plan's, the mocks') as the URI the run log names it by. */
    private readonly planUri: (path: string) => string,
  ) {}

  /** One custom event of debug session `sessionId`, in the order the adapter sent them. */
  receive(sessionId: string, event: DebugCustomEvent): void {
    const started = debugEventBody(event, DebugRunStartedEvent.type);
    if (started) {
      const mocks = started.mocks === undefined ? undefined : this.planUri(started.mocks);
      const record = this.log.begin(this.planUri(started.plan), started.hostProfile, `debug:${sessionId}`, mocks);
      this.sessions.set(sessionId, new RunSession(`debug:${sessionId}`, record, this.log, this.output));
      this.output.started(record);
      return;
    }
    const session = this.sessions.get(sessionId);
    if (!session) return;
    const journal = debugEventBody(event, DebugRunJournalEvent.type);
    if (journal) session.record.journal = { dir: journal.dir, id: journal.id, uid: journal.uid };
    const forwarded = debugEventBody(event, DebugRunEvent.type);
    if (forwarded) session.handle({ kind: "event", event: forwarded.event });
    const result = debugEventBody(event, DebugRunResultEvent.type);
    if (result) {
      this.sessions.delete(sessionId);
      session.handle({ kind: "finished", params: runEnd(result) });
    }
  }

  /** The debug session ended: a run whose end the adapter never said was stopped with it. */
  terminated(sessionId: string): void {
    const session = this.sessions.get(sessionId);
    this.sessions.delete(sessionId);
    session?.interrupt("the debug session was stopped", "cancelled");
  }
}

/** The adapter's result (what `rlm-plan run --json` reports) as a run's end. */
function runEnd(body: DebugRunResultEvent.Body): RunEnd {
  const common = { checkpoints: body.checkpoints, budgetRemaining: body.budget_remaining };
  return {
    elapsedMs: body.elapsed_ms,
    result: body.ok ? { ok: true, value: body.value, ...common } : { ok: false, error: body.error, ...common },
  };
}
