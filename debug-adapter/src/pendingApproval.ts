// A debugged run held for approval (docs/approvals.md): the approval gate refuses the call before
// it is made, and the step's failure (approval_pending) is a stop at the step, whatever the
// exception filters, with the action in a "Pending approval" scope, read from the run's approvals
// log by the core (approvalRequests). Continue lets the run end `waiting`, waits for the decision
// as `run --wait` does (the core's waitForDecision), then resumes the run once through the
// journal's resume, passing the steps before the held one without stopping: the gate then makes
// the call (approved) or fails the step (approval_denied, approval_timeout).

import { StoppedEvent } from "@vscode/debugadapter";
import type { DebugProtocol } from "@vscode/debugprotocol";
import type { JsonValue, PlanError, RunOutcome } from "@rlm-plan/core";
import { approvalRequests, JournalStore, waitForDecision, type ApprovalRequestView } from "@rlm-plan/core/journal";
import { openRecordedRun, type SessionRun, type SessionRunOptions } from "@rlm-plan/core/session";
import type { Prepared } from "./launchArguments";
import { failedOutcome, THREAD_ID, type SessionState } from "./sessionState";

/** The stop reason of a step held for approval (clients show the description). */
const APPROVAL_REASON = "approval";

export function isHeldForApproval(error: PlanError | undefined): boolean {
  return error?.kind === "approval_pending";
}

/** The stop at a held step, with how to decide and what Continue does. */
export function approvalStop(s: SessionState, error: PlanError): DebugProtocol.StoppedEvent {
  const event = new StoppedEvent(APPROVAL_REASON, THREAD_ID) as DebugProtocol.StoppedEvent;
  const hash = String(error["hash"] ?? "");
  event.body.description = `Waiting for approval: ${String(error["capability"])} at ${String(error["step"])} (${String(error["approvals"])} of ${String(error["quorum"])} approvals; action sha256 ${hash.slice(0, 12)})`;
  event.body.text = `${approveWith(s)}; ${WHAT_CONTINUE_DOES}`;
  sayWaiting(s, error, WHAT_CONTINUE_DOES);
  s.passing.heldAt = s.passing.seen;
  return event;
}

const WHAT_CONTINUE_DOES = "Continue waits for the decision, then the run goes on";

/** The console's lines for a run held for approval: the action's place and hash, and how to decide. */
function sayWaiting(s: SessionState, error: PlanError, then: string): void {
  s.output(
    "console",
    `rlm-plan: run ${s.recorded?.id ?? "(not recorded)"} waits for approval of ${String(error["capability"])} at ${String(error["step"])} (approval rule ${String(error["rule"])}; action sha256 ${String(error["hash"] ?? "")})\nrlm-plan: ${approveWith(s)}; ${then}\n`,
  );
}

/** How to decide on the run's pending request, from a terminal or the editor. */
function approveWith(s: SessionState): string {
  const run = s.recorded;
  const command = run ? `rlm-plan runs approve ${run.id} --journal ${run.dir} --as NAME --reason TEXT` : "";
  return `approve with: ${command} (or deny with rlm-plan runs deny), or from the editor's notification`;
}

/** The "Pending approval" scope's entries: the request the run is held at, as its approvals log holds it. */
export function pendingApprovalEntries(s: SessionState, error: PlanError): [string, JsonValue][] | undefined {
  const request = heldRequest(s, String(error["hash"] ?? ""));
  if (!request) return undefined;
  return [
    ["call", request.call],
    ["step", request.step],
    // Masked when recorded, as every recorded request is.
    ["arguments", parsedOrText(request.arguments)],
    ["hash", request.hash],
    ["rule", request.rule],
    ["approvers", [...request.approvers]],
    ["quorum", request.quorum],
    [
      "votes",
      request.votes.map((v) => ({
        approver: v.approver,
        vote: v.decision,
        reason: v.reason,
        at: new Date(v.at).toISOString(),
      })),
    ],
    ["state", request.state],
    ["deadline", new Date(request.deadline).toISOString()],
  ];
}

/** The latest request for the action with `hash` in the run's log; read again at each look (votes come in). */
function heldRequest(s: SessionState, hash: string): ApprovalRequestView | undefined {
  const run = s.recorded;
  if (!run) return undefined;
  let store: JournalStore | undefined;
  try {
    store = JournalStore.openExisting(run.dir);
    return store
      ? approvalRequests(store, run.id)
          .filter((r) => r.hash === hash)
          .at(-1)
      : undefined;
  } catch {
    return undefined;
  } finally {
    store?.close();
  }
}

function parsedOrText(text: string): JsonValue {
  try {
    return JSON.parse(text) as JsonValue;
  } catch {
    return text;
  }
}

/**
 * Follows the run to its end, said once: a run that ends held for approval goes on once the
 * approvers decide, and the run resumed is followed in turn.
 */
export async function followRun(
  s: SessionState,
  first: SessionRun,
  prepared: Prepared,
  options: SessionRunOptions,
): Promise<void> {
  let run = first;
  for (;;) {
    const report = await run.done;
    // A run cancelled to restart from a step ends quietly: the restarted run goes on.
    if (s.restartAt !== undefined) return run.settled(s.cancel.signal);
    const next =
      !report.outcome.ok && isHeldForApproval(report.outcome.error)
        ? await resumeWhenDecided(s, prepared, options, report.outcome.error)
        : undefined;
    if (next && "done" in next) {
      await run.settled(s.cancel.signal);
      run = next;
      continue;
    }
    s.finish(next ?? report.outcome, report.mocked, next ? undefined : report.location);
    // The result is out; the trace is sent (bounded; at once given up when the run is cancelled).
    return run.settled(s.cancel.signal);
  }
}

/**
 * After a run ended held for approval: waits for the decision, then the run resumed (its steps up
 * to the held one passed without stopping); a failed outcome when it cannot be resumed; undefined
 * when the session ends first (the run stays waiting in the journal, resumable later).
 */
async function resumeWhenDecided(
  s: SessionState,
  prepared: Prepared,
  options: SessionRunOptions,
  error: PlanError,
): Promise<SessionRun | RunOutcome | undefined> {
  const run = s.recorded;
  if (!run) return undefined;
  // Run Without Debugging has no stop to say it: the console does.
  if (!options.onStepFailed) sayWaiting(s, error, "the run goes on once they decide");
  s.output(
    "console",
    `rlm-plan: waiting for the approvers of run ${run.id} (Stop ends the session; the run stays waiting)\n`,
  );
  if (!(await waitForDecision(run.dir, run.id, s.cancel.signal))) return undefined;
  const found = openRecordedRun(run.dir, run.id, "resume");
  if (!found.ok) return failedOutcome("runtime_error", `run ${run.id} cannot go on: ${found.message}`);
  // Set before the resumed run comes to its first step.
  s.passing = { seen: 0, skip: s.passing.heldAt, heldAt: s.passing.heldAt };
  const resumed = prepared.session.resume(found.run, options);
  if (!resumed.ok) return failedOutcome("runtime_error", `run ${run.id} cannot go on: ${resumed.refusal}`);
  s.output("console", `rlm-plan: the approvers decided: run ${run.id} goes on\n`);
  return resumed.run;
}

/** The end of a session whose run still waits: what decides it and resumes it. */
export function stillWaitingText(s: SessionState, error: PlanError): string {
  const run = s.recorded;
  const where = `${String(error["capability"])} at ${String(error["step"])}`;
  if (!run) return `rlm-plan: the run waits for approval of ${where}\n`;
  return `rlm-plan: run ${run.id} stays waiting for approval of ${where}: the vote that decides it resumes it (rlm-plan runs approve ${run.id} --journal ${run.dir} --as NAME --reason TEXT), or rlm-plan run --resume ${run.id} once decided\n`;
}
