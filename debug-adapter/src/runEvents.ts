// What the run tells the client as it goes, in the custom events of the wire contract
// (server/src/protocol.ts, shared with the client): the run's start and journal entry, every
// event of the run's stream (a transition also as a console line), and at the end its value or
// error (what `rlm-plan run --json` reports) with the exited and terminated events.

import { Event, ExitedEvent, OutputEvent, Source, TerminatedEvent } from "@vscode/debugadapter";
import type { DebugProtocol } from "@vscode/debugprotocol";
import { basename } from "node:path";
import type { RunEvent, RunOutcome } from "@rlm-plan/core";
import {
  DebugRunEvent,
  DebugRunJournalEvent,
  DebugRunResultEvent,
  DebugRunStartedEvent,
  type DebugEventType,
} from "@rlm-plan/language-server/protocol";
import { isHeldForApproval, stillWaitingText } from "./pendingApproval";
import type { SessionState } from "./sessionState";

/** Sends a custom event of the wire contract; its body is checked against the event's type. */
function sendCustom<Body>(s: SessionState, type: DebugEventType<Body>, body: Body): void {
  s.sendEvent(new Event(type.event, body));
}

export function reportStarted(s: SessionState, body: DebugRunStartedEvent.Body): void {
  sendCustom(s, DebugRunStartedEvent.type, body);
}

export function reportJournal(s: SessionState, body: DebugRunJournalEvent.Body): void {
  sendCustom(s, DebugRunJournalEvent.type, body);
}

/** One event of the run's stream, forwarded whole (the editor's log of a debug run is a normal run's). */
export function reportRunEvent(s: SessionState, event: RunEvent): void {
  if (event.type === "transition") {
    const t = event.transition;
    const bind = t.bind === null ? "" : ` -> ${t.bind}`;
    s.output("console", `${String(t.sequence).padStart(3)}  ${t.operation}${bind}  ${t.status}  ${t.duration_ms} ms\n`);
  }
  sendCustom(s, DebugRunEvent.type, { event });
}

/** The run's end, said once (a restart's cancelled run and the adapter's own failure end quietly or once). */
export function finishRun(
  s: SessionState,
  outcome: RunOutcome,
  mocked = false,
  location?: { readonly line: number; readonly column: number },
): void {
  if (s.ended) return;
  s.ended = true;
  const waiting = !outcome.ok && isHeldForApproval(outcome.error);
  if (outcome.ok) {
    s.output("stdout", `${JSON.stringify(outcome.value, null, 2)}\n`);
    s.output("console", `rlm-plan: ok: ${outcome.transitions.length} steps\n`);
  } else if (waiting) {
    s.output("stderr", stillWaitingText(s, outcome.error));
  } else {
    const e = outcome.error;
    // Located as `rlm-plan run` locates it, and linked to the step's place in the client.
    const at = location ? `${s.program}:${location.line}:${location.column}: ` : "";
    const event = new OutputEvent(
      `rlm-plan: ${at}run failed: ${e.message} [${e.phase}/${e.kind}]\n`,
      "stderr",
    ) as DebugProtocol.OutputEvent;
    if (location) {
      event.body.source = new Source(basename(s.program), s.toClientPath(s.program));
      event.body.line = s.toClientLine(location.line - 1);
      event.body.column = s.toClientColumn(location.column - 1);
    }
    s.sendEvent(event);
  }
  // For the extension's run log and Plan Runs view: what `rlm-plan run --json` reports.
  sendCustom(s, DebugRunResultEvent.type, {
    ...(outcome.ok ? { ok: true, value: outcome.value } : { ok: false, error: outcome.error }),
    ...(mocked ? { mocked: true } : {}),
    checkpoints: outcome.checkpoints,
    budget_remaining: outcome.budget_remaining,
    elapsed_ms: Math.round(performance.now() - s.startedAt),
  });
  // A run that still waits for approval is no failure: `rlm-plan run`'s status 3.
  s.sendEvent(new ExitedEvent(outcome.ok ? 0 : waiting ? 3 : 1));
  s.sendEvent(new TerminatedEvent());
}
