// A run held for approval (docs/approvals.md), as `rlm-plan run` says it: which step waits for
// what, how to approve it, and `--wait`'s wait for the decision (the core's waitForDecision, which
// the debugger's Continue shares) until the run may go on, then resumed by `run` itself.

import type { PlanError } from "@rlm-plan/core/run";
import type { Prompter } from "./approvalPrompt";
import { lineText } from "./guardedOutput";

/** `run`'s exit status for a run that waits for approval: not a failure, not done. */
export const WAITING_STATUS = 3;

/** The lines that say a run waits, and how to go on (`journal`: " --journal DIR" when needed). */
export function waitingLines(error: PlanError, run: number | undefined, journal: string): string[] {
  const hash = typeof error["hash"] === "string" ? error["hash"] : "";
  const lines = [
    `rlm-plan: run ${run ?? "(not recorded)"} waits for approval of ${lineText(String(error["capability"] ?? ""))} at ${lineText(String(error["step"] ?? ""))} (approval rule ${String(error["rule"])}: ${String(error["approvals"])} of ${String(error["quorum"])} approvals; action sha256 ${hash})`,
  ];
  if (typeof error["voided"] === "string")
    lines.push(
      `rlm-plan: the approvals given for action sha256 ${error["voided"]} are void: the action changed since (its arguments, the plan or the host profile); approve the new one`,
    );
  if (run !== undefined)
    lines.push(
      `rlm-plan: approve with: rlm-plan runs approve ${run}${journal} --as NAME --reason TEXT (or deny with rlm-plan runs deny); the run goes on once the quorum approves`,
    );
  return lines;
}

/** Where a run that ended waiting for approval is recorded, for `--wait`. */
export interface Waiting {
  run?: { readonly id: number; readonly dir: string };
}

/**
 * `run --wait`: while the run ends waiting, waits for the votes (asking the person at the terminal
 * meanwhile: `prompt`), then runs it again as `run --resume` (`again`, with run's arguments) until
 * it ends otherwise; the exit status.
 */
export async function keepWaiting(
  first: number,
  args: { readonly wait?: boolean; readonly json: boolean },
  waits: Waiting,
  stderr: { write(text: string): unknown },
  cancel: { readonly signal: AbortSignal; readonly status: number },
  again: (argv: readonly string[]) => Promise<number>,
  prompt?: Prompter,
): Promise<number> {
  let status = first;
  while (status === WAITING_STATUS && args.wait && waits.run) {
    const { id, dir } = waits.run;
    if (!args.json) stderr.write("rlm-plan: waiting for the approvers (Ctrl-C stops waiting; the run stays waiting)\n");
    const asking = prompt?.(id, dir);
    try {
      // The journal's modules are loaded already: the run that waits was recorded.
      // eslint-disable-next-line @typescript-eslint/no-require-imports
      const { waitForDecision } = require("@rlm-plan/core/journal") as typeof import("@rlm-plan/core/journal");
      if (!(await waitForDecision(dir, id, cancel.signal))) return cancel.status;
    } finally {
      asking?.close();
    }
    waits.run = undefined;
    status = await again(["--resume", String(id), "--journal", dir, "--wait", ...(args.json ? ["--json"] : [])]);
  }
  return status;
}
