// What the run tells the client as it goes: each transition on the console and as an
// `rlmPlan.transition` event, and at the end its value or error, an `rlmPlan.result` event (what
// `rlm-plan run --json` reports) and the exited and terminated events.

import { Event, ExitedEvent, TerminatedEvent } from "@vscode/debugadapter";
import type { RunOutcome, Transition } from "@rlm-plan/core";
import type { SessionState } from "./sessionState";

export function reportTransition(s: SessionState, t: Transition): void {
  const bind = t.bind === null ? "" : ` -> ${t.bind}`;
  s.output("console", `${String(t.sequence).padStart(3)}  ${t.operation}${bind}  ${t.status}  ${t.duration_ms} ms\n`);
  // For the extension's Plan Runs view; counters only, like every transition.
  s.sendEvent(new Event("rlmPlan.transition", t));
}

/** The run's end, said once (a restart's cancelled run and the adapter's own failure end quietly or once). */
export function finishRun(s: SessionState, outcome: RunOutcome, mocked = false): void {
  if (s.ended) return;
  s.ended = true;
  if (outcome.ok) {
    s.output("stdout", `${JSON.stringify(outcome.value, null, 2)}\n`);
    s.output("console", `rlm-plan: ok: ${outcome.transitions.length} steps\n`);
  } else {
    const e = outcome.error;
    s.output("stderr", `rlm-plan: run failed: ${e.message} [${e.phase}/${e.kind}]\n`);
  }
  // For the extension's run log and Plan Runs view: what `rlm-plan run --json` reports.
  s.sendEvent(
    new Event("rlmPlan.result", {
      ok: outcome.ok,
      ...(mocked ? { mocked: true } : {}),
      ...(outcome.ok ? { value: outcome.value } : { error: outcome.error }),
      checkpoints: outcome.checkpoints,
      budget_remaining: outcome.budget_remaining,
      elapsed_ms: Math.round(performance.now() - s.startedAt),
    }),
  );
  s.sendEvent(new ExitedEvent(outcome.ok ? 0 : 1));
  s.sendEvent(new TerminatedEvent());
}
