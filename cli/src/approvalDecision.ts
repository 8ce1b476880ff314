// What a vote on a waiting run says and who goes on with the run (docs/approvals.md): the core's
// voteOnRun casts it, and this puts its result in the words every front end of the CLI prints
// (`runs approve|deny`, `run --wait`'s prompt, `rlm-plan ui`'s Approvals page).

import { voteOnRun, type JournalStore } from "@rlm-plan/core/journal";

/** What a vote did: refused (and why), or recorded, what to say of it, and whether the caller resumes the run. */
export type VoteDone =
  | { readonly ok: false; readonly refusal: string }
  | {
      readonly ok: true;
      readonly said: readonly string[];
      /** The votes decided and no process of the run waits for them: whoever voted resumes it. */
      readonly resume: boolean;
    };

/**
 * Records a vote (the core's castVote) and says what it decided: the one vote of `runs approve`,
 * `runs deny` and `rlm-plan ui`'s Approvals page.
 */
export function decideVote(
  store: JournalStore,
  id: number,
  vote: {
    readonly decision: "approve" | "deny";
    readonly approver: string;
    readonly reason: string;
    readonly step?: string;
  },
): VoteDone {
  const result = voteOnRun(store, id, vote);
  if (!result.ok) return result;
  const { request, state } = result;
  const what = `${request.body.capability} at ${request.body.step} of run ${id} (action sha256 ${request.hash})`;
  const said = [`${vote.approver} ${vote.decision === "approve" ? "approved" : "denied"} ${what}`];
  if (result.next === "waits") {
    said.push(
      `${result.approvals} of ${result.quorum} approvals: the run waits for ${result.quorum - result.approvals} more`,
    );
    return { ok: true, said, resume: false };
  }
  const decided = state.state === "approved" ? "the quorum approved" : "denied";
  if (result.next === "own-process")
    said.push(`${decided}: run ${id}'s own process (${result.pid}) waits for it and goes on`);
  else if (result.next === "worker")
    said.push(`${decided}: run ${id} is a worker's job; a worker of its queue goes on with it`);
  else said.push(`${decided}: resuming run ${id}`);
  return { ok: true, said, resume: result.next === "resume" };
}
