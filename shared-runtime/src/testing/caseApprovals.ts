// A test case's approvals (docs/approvals.md, "Testing approvals"): when the case's run ends
// waiting for approval, the case's votes on each held call are cast through the one vote
// (voteOnRun), so the rules apply as to `runs approve` (approvers, the requester, quorum, the
// action's hash), and the run is resumed through the session, until it ends otherwise. The runner
// and the worker of a queued case both run their case through here. A case may instead let a
// request time out: the run is then resumed on a clock past the request's deadline, so its rule's
// on_timeout applies without waiting real time. Also how often each step asked, for
// `expect.approvals`, read from the run's approvals log.

import { voteOnRun } from "../journal/approvalVote";
import { approvalLog, openRequests, requestState, type ApprovalEntry } from "../journal/approvals";
import { JournalStore } from "../journal/journalStore";
import { ResumeRefusal } from "../journal/replay";
import type { RunReport } from "../run/startRun";
import { caseRunToContinue, type RecordedRun } from "../session/recordedRun";
import type { SessionRun } from "../session/runLife";
import { pointerOf, type AssertionFailure } from "./assertions";
import type { ApprovalAnswer, Expectations } from "./testCase";

/** A case's run under way and the watcher of its steps (a resumed run gets a new one: it sees every step again). */
export interface CaseRunning {
  readonly run: SessionRun;
  readonly steps: { readonly completed: readonly string[]; readonly started: ReadonlySet<string> };
}

export interface AnsweredRun {
  /** The last run's report: the case's outcome. */
  readonly report: RunReport;
  readonly running: CaseRunning;
  /** A refused vote, or a held call the case gives no (or not enough) votes for. */
  readonly failures: AssertionFailure[];
  /** Requests for approval per step (JSON Pointer), when the run was recorded and the case has `expect.approvals`. */
  readonly approvals?: ReadonlyMap<string, number>;
}

/** Whether the run ended waiting for approval (its status `waiting`). */
export function waitsForApproval(report: RunReport): boolean {
  return !report.outcome.ok && report.outcome.error.kind === "approval_pending";
}

/**
 * Waits for the case's run to end; while it ends waiting for approval, casts the case's votes and
 * resumes it (`resume`: through the session, with a new step watcher). A run that is not recorded
 * has no approvals (its gate failed the held call already).
 */
export async function runAnsweringApprovals(
  first: CaseRunning,
  answers: readonly ApprovalAnswer[],
  expect: Expectations,
  resume: (
    recorded: RecordedRun,
    clock: (() => number) | undefined,
  ) => { ok: true; running: CaseRunning } | { ok: false; refusal: string },
  signal?: AbortSignal,
): Promise<AnsweredRun> {
  let running = first;
  for (;;) {
    const report = await running.run.done;
    await running.run.settled(signal);
    const recorded = running.run.recorded;
    const ended = (failures: AssertionFailure[]): AnsweredRun => ({
      report,
      running,
      failures,
      // Read only for a case that asserts them: a dataset of a million cases opens no journal more.
      ...(recorded && expect.approvals ? { approvals: requestCounts(recorded.dir, recorded.id) } : {}),
    });
    if (!waitsForApproval(report) || !recorded || signal?.aborted) return ended([]);
    const store = JournalStore.open(recorded.dir);
    let cast: Cast;
    try {
      cast = castAnswers(store, recorded.id, answers);
    } finally {
      store.close();
    }
    const problem = "failure" in cast ? cast : undefined;
    // A case that expects its run to wait (error kind approval_pending) is held to that alone.
    if (problem?.pending && expect.error?.kind === "approval_pending") return ended([]);
    if (problem) return ended([problem.failure]);
    // A request the case lets time out is decided at a clock past its deadline: no real time waits.
    const after = "failure" in cast ? undefined : cast.timedOutAt;
    const clock = after === undefined ? undefined : () => Math.max(Date.now(), after);
    let continued: RecordedRun;
    try {
      continued = caseRunToContinue(recorded.dir, recorded.id, clock?.());
    } catch (error) {
      if (error instanceof ResumeRefusal) return ended([{ assertion: "approvals", message: error.message }]);
      throw error;
    }
    const resumed = resume(continued, clock);
    if (!resumed.ok) return ended([{ assertion: "approvals", message: resumed.refusal }]);
    running = resumed.running;
  }
}

/**
 * Casts the answers on every open request of the run, in the order the case lists them, until
 * each is decided; the first refused vote, or a request the answers leave pending, is the case's failure.
 */
type Cast =
  | { readonly failure: AssertionFailure; readonly pending: boolean }
  /** Every open request decided; past this time, those the case lets time out have. */
  | { readonly timedOutAt?: number };

function castAnswers(store: JournalStore, runId: number, answers: readonly ApprovalAnswer[]): Cast {
  const log = approvalLog(store, runId);
  let timedOutAt: number | undefined;
  for (const request of openRequests(log)) {
    const step = stepOf(request);
    let decided = false;
    for (const answer of answers) {
      if (answer.step !== undefined && answer.step !== step) continue;
      if (answer.vote === "timeout") {
        timedOutAt = Math.max(timedOutAt ?? 0, request.body.deadline + 1);
        decided = true;
        break;
      }
      const result = voteOnRun(store, runId, {
        step: request.body.step,
        decision: answer.vote,
        approver: answer.as,
        reason: answer.reason,
      });
      if (!result.ok)
        return {
          pending: false,
          failure: {
            assertion: "approvals",
            message: `the vote of ${JSON.stringify(answer.as)} on ${step} was refused: ${result.refusal}`,
            at: answer.at,
          },
        };
      if (result.next !== "waits") {
        decided = true;
        break;
      }
    }
    if (!decided) return { pending: true, failure: pendingFailure(store, runId, request, step) };
  }
  return timedOutAt === undefined ? {} : { timedOutAt };
}

function pendingFailure(
  store: JournalStore,
  runId: number,
  request: ApprovalEntry & { type: "request" },
  step: string,
): AssertionFailure {
  const { body } = request;
  const state = requestState(approvalLog(store, runId), request, Date.now());
  const given = state.state === "pending" ? state.approvers.length : 0;
  return {
    assertion: "approvals",
    message:
      `the call of ${body.capability} at ${step} waits for approval (approval rule ${body.rule}, approvers: ${body.approvers.join(", ")}; ${given} of ${body.quorum}): ` +
      (given === 0
        ? `the case gives no vote for it: add "approvals": [{"step": "${step}", "vote": "approve", "as": "NAME"}]`
        : `the case's votes give ${given} of the ${body.quorum} it needs`),
  };
}

/** How many times each step asked for approval in the run (a request voided by a changed action is not counted). */
export function requestCounts(dir: string, runId: number): Map<string, number> {
  const store = JournalStore.open(dir);
  try {
    const log = approvalLog(store, runId);
    const voided = new Set(
      log.flatMap((e) => (e.type === "outcome" && e.body.outcome === "void" ? [e.body.request] : [])),
    );
    const counts = new Map<string, number>();
    for (const entry of log)
      if (entry.type === "request" && !voided.has(entry.seq))
        counts.set(stepOf(entry), (counts.get(stepOf(entry)) ?? 0) + 1);
    return counts;
  } finally {
    store.close();
  }
}

/** A request's step as the test file names steps: a JSON Pointer. */
function stepOf(request: ApprovalEntry): string {
  return pointerOf(JSON.parse(request.path) as (string | number)[]);
}
