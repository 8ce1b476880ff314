// The Approvals page's server side: the runs waiting for a person with their open requests (the
// core's approvals log, journal/approvals.ts), and a vote from the page, recorded by the one vote
// of `runs approve|deny` (runsApprove.ts). When the vote decides and no process of the run waits
// for it, the run is resumed in a process of its own (`rlm-plan run --resume RUN`), as `runs
// approve` resumes it, so the server never runs a plan's tools itself.

import { spawn, type ChildProcess } from "node:child_process";
import { approvalLog, listRuns, openRequests, requestState, type JournalStore } from "@rlm-plan/core/journal";
import { decideVote, type VoteDone } from "../approvalDecision";
import type { PendingApproval, VoteForm } from "./uiApi";

/** Every open request of every waiting run, oldest run first. */
export function pendingApprovals(store: JournalStore, now: number = Date.now()): PendingApproval[] {
  const out: PendingApproval[] = [];
  for (const run of listRuns(store, { status: "waiting" }).reverse()) {
    const log = approvalLog(store, run.id);
    for (const request of openRequests(log)) {
      const state = requestState(log, request, now);
      const r = request.body;
      out.push({
        run: run.id,
        plan: run.planFile ?? run.plan,
        label: run.label,
        request: request.seq,
        step: r.step,
        capability: r.capability,
        arguments: r.arguments,
        hash: request.hash,
        quorum: r.quorum,
        approvers: r.approvers,
        approved: state.state === "pending" || state.state === "approved" ? state.approvers : [],
        requester: r.requester,
        requesterMayApprove: r.requester_may_approve,
        deadline: new Date(r.deadline).toISOString(),
        askedAt: new Date(request.at).toISOString(),
      });
    }
  }
  return out;
}

/** The page's vote read from its JSON body, or what is wrong with it. */
export function voteForm(body: unknown): VoteForm | string {
  if (typeof body !== "object" || body === null) return "the vote needs a JSON object";
  const { run, decision, approver, reason, step } = body as Record<string, unknown>;
  if (typeof run !== "number" || !Number.isSafeInteger(run) || run < 1) return "the vote needs its run's number";
  if (decision !== "approve" && decision !== "deny") return "the vote needs a decision: approve or deny";
  // Who and why are the audit's, as `runs approve --as NAME --reason TEXT` requires them.
  if (typeof approver !== "string" || approver.trim() === "") return "the vote needs the approver's name";
  if (typeof reason !== "string" || reason.trim() === "") return "the vote needs a reason";
  if (step !== undefined && typeof step !== "string") return "the vote's step is a step path (steps/2)";
  return { run, decision, approver: approver.trim(), reason: reason.trim(), ...(step ? { step } : {}) };
}

/** Records the vote; a decided run nobody waits for is resumed by `resume` (the CLI, as a child). */
export function voteFromPage(
  store: JournalStore,
  form: VoteForm,
  resume: (args: readonly string[]) => ChildProcess,
): VoteDone {
  const done = decideVote(store, form.run, form);
  if (done.ok && done.resume) resume(["run", "--resume", String(form.run), "--journal", store.dir]);
  return done;
}

/** Starts `rlm-plan ARGS` (this CLI, as it was started) with no terminal; its outcome is the journal's. */
export function cliChild(command: readonly string[]): (args: readonly string[]) => ChildProcess {
  return (args) => {
    const [file, ...rest] = command as [string, ...string[]];
    const child = spawn(file, [...rest, ...args], { stdio: "ignore" });
    child.on("error", () => undefined);
    return child;
  };
}
