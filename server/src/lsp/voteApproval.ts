// `rlmPlan.server.voteApproval` (protocol.ts VoteApprovalCommand): the editor's "Approve…" and
// "Deny…" on a waiting run. The vote and what follows it are the core's (voteOnRun), as for
// `rlm-plan runs approve|deny`; when the run is the voter's to go on with, the server resumes it
// as its resume command does. The answer leaves through the masked connection.

import { parseStepPath, stepPathText } from "@rlm-plan/core/json";
import { JournalStore, voteOnRun } from "@rlm-plan/core/journal";
import { ErrorCodes, LSPErrorCodes, ResponseError } from "vscode-languageserver";
import { VoteApprovalCommand } from "../protocol";
import type { PlanRunner } from "./runPlan";

const USAGE = `${VoteApprovalCommand.command} needs [{"dir", "id", "vote": "approve"|"deny", "as", "reason", "step"?}]`;

export function voteApproval(
  args: readonly unknown[],
  runner: Pick<PlanRunner, "resume">,
): VoteApprovalCommand.Result | ResponseError<void> {
  const a = (args[0] ?? {}) as Record<string, unknown>;
  const nonEmpty = (v: unknown): v is string => typeof v === "string" && v.trim() !== "";
  if (
    !nonEmpty(a.dir) ||
    typeof a.id !== "number" ||
    !Number.isSafeInteger(a.id) ||
    (a.vote !== "approve" && a.vote !== "deny") ||
    (a.step !== undefined && typeof a.step !== "string")
  )
    return new ResponseError(ErrorCodes.InvalidParams, USAGE);
  // Who and why are the audit's: never guessed (as `runs approve` needs --as and --reason).
  if (!nonEmpty(a.as)) return new ResponseError(ErrorCodes.InvalidParams, `a vote needs who casts it ("as")`);
  if (!nonEmpty(a.reason)) return new ResponseError(ErrorCodes.InvalidParams, `a vote needs a reason ("reason")`);
  const step = a.step === undefined ? undefined : parseStepPath(a.step);
  if (a.step !== undefined && step === undefined)
    return new ResponseError(ErrorCodes.InvalidParams, `"step" needs a step path as runs show prints it (steps/2)`);
  const { dir, id, vote, as, reason } = a as {
    dir: string;
    id: number;
    vote: "approve" | "deny";
    as: string;
    reason: string;
  };
  let store: JournalStore | undefined;
  let result;
  try {
    store = JournalStore.openExisting(dir);
    if (!store) return new ResponseError(LSPErrorCodes.RequestFailed, `there is no run journal in ${dir}`);
    result = voteOnRun(store, id, {
      ...(step !== undefined ? { step: stepPathText(step) } : {}),
      decision: vote,
      approver: as,
      reason,
    });
  } catch (error) {
    const why = error instanceof Error ? error.message : String(error);
    return new ResponseError(LSPErrorCodes.RequestFailed, `the run journal in ${dir} could not be read: ${why}`);
  } finally {
    store?.close();
  }
  if (!result.ok) return new ResponseError(LSPErrorCodes.RequestFailed, `Cannot ${vote}: ${result.refusal}`);
  const answer = {
    step: result.request.body.step,
    call: result.request.body.capability,
    hash: result.request.hash,
    state: result.state.state === "timed_out" ? "pending" : result.state.state,
    next: result.next,
  } as const;
  if (result.next !== "resume") return answer;
  // The decision is in and the run is ours to go on with: resumed as rlmPlan.server.resume does.
  const resumed = runner.resume([{ dir, id, ...(a.env !== undefined ? { env: a.env } : {}) }]);
  if (resumed instanceof ResponseError)
    return new ResponseError(LSPErrorCodes.RequestFailed, `The vote is recorded, but ${resumed.message}`);
  return { ...answer, resumed };
}
