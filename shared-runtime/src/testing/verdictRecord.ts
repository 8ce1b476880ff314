// The test runner's verdict on a case, kept on the case's run in the journal (journal/caseVerdicts.ts):
// the run's status says how the run ended, the verdict whether the case met its expectations.

import { recordVerdict } from "../journal/caseVerdicts";
import { JournalStore } from "../journal/journalStore";
import type { SecretMask } from "../mask/secretMask";
import type { AssertionFailure } from "./assertions";

/** Records the case's failures (none: it passed), masked; a journal that cannot take it is a notice, not a failed case. */
export async function recordCaseVerdict(
  journal: { readonly dir: string; readonly runId: number },
  failures: readonly AssertionFailure[],
  mask: SecretMask,
  onNotice?: (message: string) => void,
): Promise<void> {
  // A baseline failure's run comparison stays out: `runs diff` makes it again from the two runs.
  const kept = failures.map(({ assertion, message, expected, actual }) => ({
    assertion,
    message,
    ...(expected !== undefined ? { expected } : {}),
    ...(actual !== undefined ? { actual } : {}),
  }));
  try {
    const store = JournalStore.open(journal.dir);
    try {
      await recordVerdict(store, journal.runId, mask.maskValue({ ok: kept.length === 0, failures: kept }));
    } finally {
      store.close();
    }
  } catch (error) {
    onNotice?.(mask.mask(`the case's verdict could not be recorded in the run journal: ${(error as Error).message}`));
  }
}
