// A test case's verdict in the journal: the test runner records whether the case met its
// expectations (and which failed) on the case's run, and the history of each case (FILE#CASE)
// reads them back: pass and fail over time, and the cases that flip (flaky: both passed and failed
// among their recent runs at one plan digest). What `rlm-plan ui`'s Tests page shows.

import type { JsonValue } from "../json";
import type { JournalStore } from "./journalStore";

/** What the test runner judged of a case's run (already masked): whether it passed, and each failed expectation. */
export interface CaseVerdict {
  readonly ok: boolean;
  readonly failures: readonly VerdictFailure[];
}

/** A failed expectation: which (value, error, steps, costs, baseline), why, and the values compared. */
export type VerdictFailure = { readonly assertion: string; readonly message: string } & Readonly<
  Partial<Record<"expected" | "actual", JsonValue>>
>;

/**
 * Records the verdict on the case's run (a no-op for a run the journal no longer holds), in the
 * store's next group commit and unsynced: the next synced batch (any run's) syncs it. A synced
 * commit of its own per case made a test run of 400 instant cases 1.5-1.9x slower.
 */
export async function recordVerdict(store: JournalStore, runId: number, verdict: CaseVerdict): Promise<void> {
  let failed: unknown;
  let done = false;
  const text = JSON.stringify(verdict);
  await store.commitSoon(
    {
      writeRows: (db) => {
        if (!done) db.prepare("UPDATE runs SET verdict = ? WHERE id = ?").run(text, runId);
      },
      settled: (committed, error) => {
        done = committed;
        if (!committed) failed = error ?? new Error("the verdict was not committed");
      },
      // A fresh file after damage holds no such run: the verdict goes with the run it judged.
      damaged: () => undefined,
      unsynced: () => undefined,
    },
    false,
  );
  if (failed !== undefined) throw failed instanceof Error ? failed : new Error(String(failed));
}

/** The verdict column read back, as a run summary carries it: none for a run without one (not a test run, or recorded before verdicts). */
export function verdictOf(text: string | null): { verdict?: CaseVerdict } {
  return text === null ? {} : { verdict: JSON.parse(text) as CaseVerdict };
}

/** One run of a case, as its history lists it. */
export interface CaseRunEntry {
  readonly id: number;
  /** ISO 8601. */
  readonly startedAt: string;
  readonly planDigest: string;
  /** pass or fail as judged; `unjudged` when the run ended without a verdict (interrupted, or recorded before verdicts). */
  readonly verdict: "pass" | "fail" | "unjudged";
}

/** A test case (its journal label, FILE#CASE) and its recent runs. */
export interface CaseHistory {
  readonly label: string;
  readonly plan: string;
  /** Newest first, at most `perCase`. */
  readonly runs: readonly CaseRunEntry[];
  /** Passed and failed among its recent runs at the plan digest of its newest run. */
  readonly flaky: boolean;
}

export interface CaseHistoryOptions {
  /** How many recent runs of each case are read (and judged for flakiness); default 20. */
  readonly perCase?: number;
  /** Cases whose label holds this text. */
  readonly label?: string;
}

/** Every test case the journal has runs of, flaky ones first, then by label. */
export function caseHistories(store: JournalStore, options: CaseHistoryOptions = {}): CaseHistory[] {
  const perCase = options.perCase ?? 20;
  const rows = store.db
    .prepare(
      `SELECT id, label, plan_name, plan_digest, started_at, json_extract(verdict, '$.ok') AS ok FROM (
         SELECT *, row_number() OVER (PARTITION BY label ORDER BY id DESC) AS nth FROM runs
         WHERE origin = 'test' AND label IS NOT NULL AND (@label IS NULL OR instr(label, @label) > 0))
       WHERE nth <= @perCase ORDER BY label, id DESC`,
    )
    .all({ label: options.label ?? null, perCase }) as {
    id: number;
    label: string;
    plan_name: string;
    plan_digest: string;
    started_at: number;
    ok: number | null;
  }[];
  const cases = new Map<string, { plan: string; runs: CaseRunEntry[] }>();
  for (const row of rows) {
    const entry = cases.get(row.label) ?? { plan: row.plan_name, runs: [] };
    cases.set(row.label, entry);
    entry.runs.push({
      id: row.id,
      startedAt: new Date(row.started_at).toISOString(),
      planDigest: row.plan_digest,
      verdict: row.ok === null ? "unjudged" : row.ok === 1 ? "pass" : "fail",
    });
  }
  const histories = [...cases].map(([label, { plan, runs }]) => {
    // Flaky: the same plan (its digest) both passed and failed; a changed plan is not a flip.
    const digest = runs[0]?.planDigest;
    const verdicts = new Set(runs.filter((run) => run.planDigest === digest).map((run) => run.verdict));
    return { label, plan, runs, flaky: verdicts.has("pass") && verdicts.has("fail") };
  });
  return histories.sort(
    (a, b) => Number(b.flaky) - Number(a.flaky) || (a.label < b.label ? -1 : a.label > b.label ? 1 : 0),
  );
}
