// A run's approvals log (docs/approvals.md): every request for approval, vote and outcome, in order,
// in the journal's `approvals` table, which only grows (schema.ts' triggers refuse an UPDATE or a
// DELETE of a run still kept). What a request's state is, whose vote counts and when a request
// timed out is decided here, once, for the run's gate, `runs approve`/`deny` and `runs show`.

import type { JsonObject } from "../json";
import type { JournalStore } from "./journalStore";
import { processAlive } from "./liveness";

/** What a request holds: the action (masked for display; its hash is of the whole) and the rule's terms. */
export interface ApprovalRequest {
  /** The step, as `runs show` prints paths ("steps/2"). */
  readonly step: string;
  readonly kind: "tool" | "model";
  readonly name: string;
  readonly capability: string;
  /** The canonical arguments (a model call's request), masked. */
  readonly arguments: string;
  /** The budget left when the step asked: the worst case of what is left to run. */
  readonly remaining: JsonObject;
  /** The rule's index in the profile's `approvals`. */
  readonly rule: number;
  readonly approvers: readonly string[];
  readonly quorum: number;
  readonly on_timeout: "deny" | "fail";
  readonly requester_may_approve: boolean;
  /** Who started the run. */
  readonly requester: string;
  /** Milliseconds since the epoch after which the request has timed out. */
  readonly deadline: number;
}

export interface ApprovalVote {
  readonly request: number;
  readonly decision: "approve" | "deny";
  readonly approver: string;
  readonly reason: string;
}

export type ApprovalOutcomeKind = "approved" | "denied" | "timed_out" | "void";

export interface ApprovalOutcome {
  readonly request: number;
  readonly outcome: ApprovalOutcomeKind;
  /** For `void`: the hash of the action the step asks for now. */
  readonly superseded_by?: string;
}

interface EntryBase {
  readonly seq: number;
  readonly path: string;
  readonly occurrence: number;
  readonly hash: string;
  /** Milliseconds since the epoch. */
  readonly at: number;
}

export type ApprovalEntry =
  | (EntryBase & { readonly type: "request"; readonly body: ApprovalRequest })
  | (EntryBase & { readonly type: "vote"; readonly body: ApprovalVote })
  | (EntryBase & { readonly type: "outcome"; readonly body: ApprovalOutcome });

export type NewApprovalEntry = ApprovalEntry extends infer E
  ? E extends ApprovalEntry
    ? Omit<E, "seq">
    : never
  : never;

/** A request's state: what its counted votes decide, or its deadline. */
export type RequestState =
  | { readonly state: "approved"; readonly approvers: readonly string[] }
  | { readonly state: "denied"; readonly by: string; readonly reason: string }
  | { readonly state: "timed_out" }
  | { readonly state: "pending"; readonly approvers: readonly string[] };

interface Row {
  seq: number;
  type: string;
  path: string;
  occurrence: number;
  hash: string;
  at: number;
  body: string;
}

/** The run's log, in order. */
export function approvalLog(store: JournalStore, runId: number): ApprovalEntry[] {
  const rows = store.db
    .prepare("SELECT seq, type, path, occurrence, hash, at, body FROM approvals WHERE run_id = ? ORDER BY seq")
    .all(runId) as Row[];
  return rows.map((row) => ({ ...row, body: JSON.parse(row.body) }) as ApprovalEntry);
}

/** Appends entries to the run's log in one transaction (numbered after what is there); returns them numbered. */
export function appendApprovals(
  store: JournalStore,
  runId: number,
  entries: readonly NewApprovalEntry[],
): ApprovalEntry[] {
  const db = store.db;
  const written: ApprovalEntry[] = [];
  db.transaction(() => {
    const last = db.prepare("SELECT max(seq) AS seq FROM approvals WHERE run_id = ?").get(runId) as {
      seq: number | null;
    };
    let seq = last.seq ?? 0;
    const insert = db.prepare(
      "INSERT INTO approvals (run_id, seq, type, path, occurrence, hash, at, body) VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
    );
    for (const entry of entries) {
      seq += 1;
      insert.run(
        runId,
        seq,
        entry.type,
        entry.path,
        entry.occurrence,
        entry.hash,
        entry.at,
        JSON.stringify(entry.body),
      );
      written.push({ ...entry, seq } as ApprovalEntry);
    }
  }).immediate();
  return written;
}

/** The latest request of the step's `occurrence`-th call, and whether an outcome closed it. */
export function requestOf(
  log: readonly ApprovalEntry[],
  path: string,
  occurrence: number,
): { readonly request: ApprovalEntry & { type: "request" }; readonly outcome?: ApprovalOutcome } | undefined {
  let found: (ApprovalEntry & { type: "request" }) | undefined;
  for (const entry of log)
    if (entry.type === "request" && entry.path === path && entry.occurrence === occurrence) found = entry;
  if (!found) return undefined;
  const outcome = outcomeOf(log, found.seq);
  return { request: found, ...(outcome ? { outcome } : {}) };
}

/** The requests no outcome has closed, oldest first. */
export function openRequests(log: readonly ApprovalEntry[]): (ApprovalEntry & { type: "request" })[] {
  return log.filter(
    (entry): entry is ApprovalEntry & { type: "request" } =>
      entry.type === "request" && outcomeOf(log, entry.seq) === undefined,
  );
}

function outcomeOf(log: readonly ApprovalEntry[], request: number): ApprovalOutcome | undefined {
  const entry = log.find((e) => e.type === "outcome" && e.body.request === request);
  return entry?.type === "outcome" ? entry.body : undefined;
}

/**
 * What the votes for `request` decide at `now`: a vote counts only with the request's hash, from
 * one of its approvers (not its requester unless the rule allows), once per approver. One
 * counted denial denies; the quorum of distinct approvers approves; past the deadline it timed out.
 */
export function requestState(
  log: readonly ApprovalEntry[],
  request: ApprovalEntry & { type: "request" },
  now: number,
): RequestState {
  const approvers: string[] = [];
  for (const entry of log) {
    if (entry.type !== "vote" || entry.body.request !== request.seq || entry.hash !== request.hash) continue;
    if (voteRefusal(request.body, entry.body.approver) !== undefined) continue;
    if (entry.body.decision === "deny") return { state: "denied", by: entry.body.approver, reason: entry.body.reason };
    if (!approvers.includes(entry.body.approver)) approvers.push(entry.body.approver);
    if (approvers.length >= request.body.quorum) return { state: "approved", approvers };
  }
  if (now > request.body.deadline) return { state: "timed_out" };
  return { state: "pending", approvers };
}

/** Why `approver` may not vote on the request, or undefined when they may. */
export function voteRefusal(request: ApprovalRequest, approver: string): string | undefined {
  if (!request.approvers.includes(approver))
    return `${JSON.stringify(approver)} is not an approver of this step (approvers: ${request.approvers.join(", ")})`;
  if (!request.requester_may_approve && approver === request.requester)
    return `${JSON.stringify(approver)} started the run and may not approve it (the rule says requester_may_approve: false)`;
  return undefined;
}

export type VoteResult =
  | {
      readonly ok: true;
      readonly request: ApprovalEntry & { type: "request" };
      /** The request's state with this vote counted. */
      readonly state: RequestState;
    }
  | { readonly ok: false; readonly refusal: string };

/**
 * Records `approver`'s vote on the run's open request (the one at `step` when several are open),
 * bound to that request's hash; refused, with why, when there is none, it is decided or past its
 * deadline, or the approver may not vote or already did.
 */
export function castVote(
  store: JournalStore,
  runId: number,
  vote: {
    readonly step?: string;
    readonly decision: "approve" | "deny";
    readonly approver: string;
    readonly reason: string;
  },
  now: number = Date.now(),
): VoteResult {
  const log = approvalLog(store, runId);
  const open = openRequests(log).filter((r) => vote.step === undefined || r.body.step === vote.step);
  if (open.length === 0)
    return {
      ok: false,
      refusal:
        vote.step === undefined
          ? `run ${runId} has no step waiting for approval`
          : `run ${runId} has no step waiting for approval at ${vote.step}`,
    };
  if (open.length > 1)
    return {
      ok: false,
      refusal: `run ${runId} has ${open.length} steps waiting for approval (${open.map((r) => r.body.step).join(", ")}): pass --step PATH`,
    };
  const request = open[0]!;
  const before = requestState(log, request, now);
  if (before.state === "timed_out")
    return {
      ok: false,
      refusal: `the request for ${request.body.step} timed out at ${new Date(request.body.deadline).toISOString()}: resume the run (rlm-plan run --resume ${runId}) to end it as its rule says (on_timeout: ${request.body.on_timeout})`,
    };
  if (before.state !== "pending")
    return {
      ok: false,
      refusal: `the request for ${request.body.step} is already ${before.state}: resume the run to go on`,
    };
  const refusal = voteRefusal(request.body, vote.approver);
  if (refusal !== undefined) return { ok: false, refusal };
  if (before.approvers.includes(vote.approver))
    return {
      ok: false,
      refusal: `${JSON.stringify(vote.approver)} already approved ${request.body.step}: the quorum needs different approvers`,
    };
  appendApprovals(store, runId, [
    {
      type: "vote",
      path: request.path,
      occurrence: request.occurrence,
      hash: request.hash,
      at: now,
      body: { request: request.seq, decision: vote.decision, approver: vote.approver, reason: vote.reason },
    },
  ]);
  return { ok: true, request, state: requestState(approvalLog(store, runId), request, now) };
}

/**
 * Why a waiting run cannot go on yet (a request still pending: not decided, not timed out), or
 * undefined when every open request is decided and a resume will act on it.
 */
export function stillWaiting(store: JournalStore, runId: number, now: number = Date.now()): string | undefined {
  const log = approvalLog(store, runId);
  for (const request of openRequests(log)) {
    const state = requestState(log, request, now);
    if (state.state !== "pending") continue;
    return `run ${runId} is waiting for approval of ${request.body.step} (${state.approvers.length} of ${request.body.quorum} approvals, until ${new Date(request.body.deadline).toISOString()}): rlm-plan runs approve ${runId} --as NAME --reason TEXT, or runs deny`;
  }
  return undefined;
}

/** The digests of the plan and host profile run `runId` runs under: part of every action's hash. */
export function runDigests(
  store: JournalStore,
  runId: number,
): { readonly plan: string; readonly host: string | null } {
  const row = store.db.prepare("SELECT plan_digest, host_digest FROM runs WHERE id = ?").get(runId) as
    { plan_digest: string; host_digest: string | null } | undefined;
  return { plan: row?.plan_digest ?? "", host: row?.host_digest ?? null };
}

/**
 * The process that recorded run `runId`, when it said it waits for the decision itself (`run
 * --wait`, the debugger: recorded in the run's options) and is alive: a vote then leaves the resume
 * to it. The run may be waiting or still running: a debugger stopped at the held step, or a run
 * between asking and ending, has not ended it yet, and a resume by the voter would be refused.
 */
export function waitingProcess(store: JournalStore, runId: number): number | undefined {
  const row = store.db
    .prepare(
      "SELECT status, pid, machine, process, json_extract(details, '$.options.wait') AS waits FROM runs WHERE id = ?",
    )
    .get(runId) as
    { status: string; pid: number | null; machine: string | null; process: string | null; waits: unknown } | undefined;
  if (!row || (row.status !== "waiting" && row.status !== "running") || !row.waits || row.pid === process.pid)
    return undefined;
  return processAlive(row.pid, row.machine, row.process) ? (row.pid ?? undefined) : undefined;
}
