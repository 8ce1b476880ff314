// A vote on a waiting run and what follows it, decided once for every front end (`runs approve|deny`,
// the language server's vote command): the vote is cast (castVote), then the run waits for more
// votes, or its own `run --wait` process goes on, or a worker of its queue takes it up, or the
// voter resumes it. Also a run's requests as the editor shows them, with their votes.

import {
  approvalLog,
  castVote,
  openRequests,
  requestState,
  waitingProcess,
  type ApprovalEntry,
  type ApprovalOutcome,
  type ApprovalOutcomeKind,
  type RequestState,
  type VoteResult,
} from "./approvals";
import type { JournalStore } from "./journalStore";
import { runDetail } from "./queries";

/** Who goes on with the run once the vote is in. */
export type AfterVote =
  | { readonly next: "waits"; readonly approvals: number; readonly quorum: number }
  | { readonly next: "own-process"; readonly pid: number }
  | { readonly next: "worker" }
  | { readonly next: "resume" };

export type RunVoteResult = Extract<VoteResult, { ok: false }> | (Extract<VoteResult, { ok: true }> & AfterVote);

/** Casts the vote on run `runId` and says who goes on: the voter resumes only on `next: "resume"`. */
export function voteOnRun(
  store: JournalStore,
  runId: number,
  vote: Parameters<typeof castVote>[2],
  now: number = Date.now(),
): RunVoteResult {
  const result = castVote(store, runId, vote, now);
  if (!result.ok) return result;
  const { state, request } = result;
  if (state.state === "pending")
    return { ...result, next: "waits", approvals: state.approvers.length, quorum: request.body.quorum };
  const pid = waitingProcess(store, runId);
  if (pid !== undefined) return { ...result, next: "own-process", pid };
  // A worker's job has no plan file here: a worker of its queue takes it up (queue/approvalWait.ts).
  if (runDetail(store, runId)?.origin === "worker") return { ...result, next: "worker" };
  return { ...result, next: "resume" };
}

/** A request of a run's approvals log with its votes and state, as an editor lists it. */
export interface ApprovalRequestView {
  readonly request: number;
  readonly step: string;
  /** The call asked for: `tool(send)`, `model(…)`. */
  readonly call: string;
  /** Masked, as recorded. */
  readonly arguments: string;
  readonly hash: string;
  readonly rule: number;
  readonly approvers: readonly string[];
  readonly quorum: number;
  /** Milliseconds since the epoch. */
  readonly deadline: number;
  /** What closed it (its outcome), else what its votes decide now (`pending` while it waits). */
  readonly state: RequestState["state"] | ApprovalOutcomeKind;
  readonly votes: readonly {
    readonly approver: string;
    readonly decision: "approve" | "deny";
    readonly reason: string;
    readonly at: number;
  }[];
}

/** Every request of the run, oldest first, with its state and every vote recorded on it. */
export function approvalRequests(store: JournalStore, runId: number, now: number = Date.now()): ApprovalRequestView[] {
  const log = approvalLog(store, runId);
  const open = new Set(openRequests(log).map((r) => r.seq));
  const requests = log.filter((e): e is ApprovalEntry & { type: "request" } => e.type === "request");
  return requests.map((request) => ({
    request: request.seq,
    step: request.body.step,
    call: request.body.capability,
    arguments: request.body.arguments,
    hash: request.hash,
    rule: request.body.rule,
    approvers: request.body.approvers,
    quorum: request.body.quorum,
    deadline: request.body.deadline,
    state: open.has(request.seq)
      ? requestState(log, request, now).state
      : (log.find((e) => e.type === "outcome" && e.body.request === request.seq)?.body as ApprovalOutcome).outcome,
    votes: log
      .filter(
        (e): e is ApprovalEntry & { type: "vote" } =>
          e.type === "vote" && e.body.request === request.seq && e.hash === request.hash,
      )
      .map((e) => ({ approver: e.body.approver, decision: e.body.decision, reason: e.body.reason, at: e.at })),
  }));
}
