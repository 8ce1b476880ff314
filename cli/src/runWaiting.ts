// A run held for approval (docs/approvals.md), as `rlm-plan run` says it: which step waits for
// what, how to approve it, and `--wait`'s wait for the decision, read from the journal (polled:
// the approvers vote from other processes) until the run may go on, then resumed by `run` itself.

import type { JournalStore } from "@rlm-plan/core/journal";
import type { PlanError } from "@rlm-plan/core/run";
import type { Prompter } from "./approvalPrompt";
import { lineText } from "./guardedOutput";

/** `run`'s exit status for a run that waits for approval: not a failure, not done. */
export const WAITING_STATUS = 3;

/** How often `--wait` reads the journal for votes. */
const POLL_MS = 250;

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
      if (!(await waitForDecision(dir, id, cancel.signal))) return cancel.status;
    } finally {
      asking?.close();
    }
    waits.run = undefined;
    status = await again(["--resume", String(id), "--journal", dir, "--wait", ...(args.json ? ["--json"] : [])]);
  }
  return status;
}

/** Waits until run `id` may go on (every request decided or past its deadline); false when `signal` aborts first. */
async function waitForDecision(dir: string, id: number, signal: AbortSignal): Promise<boolean> {
  // The journal's modules are loaded already: the run that waits was recorded.
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const journal = require("@rlm-plan/core/journal") as typeof import("@rlm-plan/core/journal");
  while (!signal.aborted) {
    const store = openStore(journal, dir);
    try {
      if (!store || journal.stillWaiting(store, id) === undefined) return true;
    } finally {
      store?.close();
    }
    await new Promise<void>((resolve) => {
      // The listener goes with its poll: one left per poll would pile up (Node warns at 11).
      const stop = () => (clearTimeout(timer), resolve());
      const timer = setTimeout(() => (signal.removeEventListener("abort", stop), resolve()), POLL_MS);
      signal.addEventListener("abort", stop, { once: true });
    });
  }
  return false;
}

/** The journal in `dir`, or undefined when it cannot be opened now (read again on the next poll). */
function openStore(journal: typeof import("@rlm-plan/core/journal"), dir: string): JournalStore | undefined {
  try {
    return journal.JournalStore.openExisting(dir);
  } catch {
    return undefined;
  }
}
