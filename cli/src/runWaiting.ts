// A run held for approval (docs/approvals.md), as `rlm-plan run` says it: which step waits for
// what, how to approve it, and `--wait`'s wait for the decision, read from the journal (polled:
// the approvers vote from other processes) until the run may go on, then resumed by `run` itself.

import type { JournalStore } from "@rlm-plan/core/journal";
import type { PlanError } from "@rlm-plan/core/run";
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

/**
 * Waits until run `id` may go on (every request decided or past its deadline), reading the
 * journal in `dir`; false when `signal` aborts first.
 */
export async function waitForDecision(
  open: () => JournalStore | undefined,
  id: number,
  signal: AbortSignal,
): Promise<boolean> {
  // The journal's modules are loaded already: the run that waits was recorded.
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const { stillWaiting } = require("@rlm-plan/core/journal") as typeof import("@rlm-plan/core/journal");
  while (!signal.aborted) {
    const store = open();
    try {
      if (!store || stillWaiting(store, id) === undefined) return true;
    } finally {
      store?.close();
    }
    await new Promise<void>((resolve) => {
      const timer = setTimeout(resolve, POLL_MS);
      signal.addEventListener("abort", () => (clearTimeout(timer), resolve()), { once: true });
    });
  }
  return false;
}
