// The wait for a decision on a run held for approval (docs/approvals.md), shared by every process
// that waits for the approvers itself (`run --wait`, the debugger's Continue): the journal is read
// again and again (the approvers vote from other processes, which can only tell the journal) until
// every request of the run is decided or past its deadline, and the waiter may resume the run.

import { stillWaiting } from "./approvals";
import { JournalStore } from "./journalStore";

/** How often the journal is read for votes. */
const POLL_MS = 250;

/**
 * Waits until run `id` of the journal in `dir` may go on (every request decided or timed out);
 * false when `signal` aborts first. A journal that cannot be opened ends the wait too: the resume
 * that follows says why.
 */
export async function waitForDecision(dir: string, id: number, signal: AbortSignal): Promise<boolean> {
  while (!signal.aborted) {
    const store = openQuietly(dir);
    try {
      if (!store || stillWaiting(store, id) === undefined) return true;
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

function openQuietly(dir: string): JournalStore | undefined {
  try {
    return JournalStore.openExisting(dir);
  } catch {
    return undefined;
  }
}
