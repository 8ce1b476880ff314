// Resuming a run that did not finish: what the journal holds of it (ResumePoint), the checks that
// refuse a resume (a finished run, one still running, a plan or host profile changed since), and
// the book of recorded replies a resumed run is answered from. A completed step's model and tool
// calls are answered from the book, matched by the calling step, how many times that step had
// called before, and the request's key (canonical.ts): the same calls in the same places get the
// same answers, and a request that differs (an input file changed since) is made for real.

import { hostname } from "node:os";
import { stillWaiting } from "./approvals";
import { digestOf } from "./requestKey";
import { processAlive, processIdentity } from "./liveness";
import { CALL_COLUMNS, EVENT_COLUMNS, RUN_COLUMNS, type CallRow, type EventRow, type RunRow } from "./rows";
import type { JournalStore } from "./journalStore";

export interface ResumePoint {
  readonly run: RunRow;
  readonly events: readonly EventRow[];
  readonly calls: readonly CallRow[];
  /** Run time the earlier part spent (its last event). */
  readonly elapsedMs: number;
}

/** Why a run cannot be resumed, said so a user knows what to do. */
export class ResumeRefusal extends Error {}

/**
 * The recorded run `id` if it may be resumed; throws ResumeRefusal otherwise. `by: "case"` is the
 * test runner going on with its own case's run, under the case's host (its mocks or cassette),
 * once the case's votes decided (testing/caseApprovals.ts); anyone else is refused a case's run.
 */
export function resumePoint(
  store: JournalStore,
  id: number,
  by: "user" | "case" = "user",
  now: number = Date.now(),
): ResumePoint {
  const db = store.db;
  const run = db.prepare(`SELECT ${RUN_COLUMNS} FROM runs WHERE id = ?`).get(id) as RunRow | undefined;
  if (!run) throw new ResumeRefusal(`there is no run ${id} in the run journal ${store.file}`);
  // A test case's run answered from its mocks or cassette: resumed as a plain run it would call
  // the real tools and providers. The case is run again instead.
  if (run.origin === "test" && by !== "case")
    throw new ResumeRefusal(
      `run ${id} is the run of the test case ${run.label ?? "(unlabelled)"}: run its test again with rlm-plan test`,
    );
  if (run.status === "ok" || run.status === "failed")
    throw new ResumeRefusal(
      `run ${id} finished (${run.status}${run.error_kind ? `: ${run.error_kind}` : ""}); only a run that did not finish (interrupted or cancelled) can be resumed`,
    );
  if (run.status === "running" && processAlive(run.pid, run.machine, run.process))
    throw new ResumeRefusal(`run ${id} is still running (process ${run.pid}); stop it first or wait for it`);
  if (run.status === "waiting") claimWaitingRun(store, run, now);
  const events = db.prepare(`SELECT ${EVENT_COLUMNS} FROM events WHERE run_id = ? ORDER BY seq`).all(id) as EventRow[];
  const calls = db.prepare(`SELECT ${CALL_COLUMNS} FROM calls WHERE run_id = ? ORDER BY seq`).all(id) as CallRow[];
  const elapsedMs = events.reduce((max, e) => Math.max(max, e.elapsed_ms), 0);
  return { run, events, calls, elapsedMs };
}

/**
 * A waiting run goes on once, whoever asks first (`runs approve`, `run --resume`, `run --wait`):
 * refused while a request is still pending, and taken from `waiting` to `running` in one guarded
 * write, so a second process asking at the same moment is refused.
 */
function claimWaitingRun(store: JournalStore, run: RunRow, now: number): void {
  const waiting = stillWaiting(store, run.id, now);
  if (waiting !== undefined) throw new ResumeRefusal(waiting);
  const claimed = store.db
    .prepare(
      "UPDATE runs SET status = 'running', pid = ?, machine = ?, process = ? WHERE id = ? AND status = 'waiting'",
    )
    .run(process.pid, hostname(), processIdentity(), run.id);
  if (claimed.changes !== 1) throw new ResumeRefusal(`run ${run.id} is being resumed by another process`);
}

/** Refuses a resume whose plan or host profile is not the recorded one. */
export function checkSameInputs(
  point: ResumePoint,
  planText: string,
  hostProfile: { file: string; text: string } | undefined,
): void {
  const change = inputChange(point, planText, hostProfile);
  if (change === undefined) return;
  throw new ResumeRefusal(
    change.what === "plan"
      ? `${change.message}: a resumed run must run the plan it started with; run it anew instead`
      : `${change.message}: a resumed run must run under the profile it started with; run it anew instead`,
  );
}

/** What changed since a recorded run, the plan first: its file and both digests; undefined when neither did. */
export function inputChange(
  point: ResumePoint,
  planText: string,
  hostProfile: { file: string; text: string } | undefined,
): { readonly what: "plan" | "host profile"; readonly message: string } | undefined {
  const { run } = point;
  if (digestOf(planText) !== run.plan_digest)
    return {
      what: "plan",
      message: `the plan ${run.plan_file ?? "(text)"} changed since run ${run.id} (recorded sha256 ${short(run.plan_digest)}, now ${short(digestOf(planText))})`,
    };
  const now = hostProfile ? digestOf(hostProfile.text) : null;
  if (now !== run.host_digest)
    return {
      what: "host profile",
      message: `the host profile ${run.host_file ?? hostProfile?.file ?? ""} changed since run ${run.id} (recorded sha256 ${short(run.host_digest)}, now ${short(now)})`,
    };
  return undefined;
}

// A step held for approval did not run either: it asks again (and acts on the votes) on resume.
const STOPPED = new Set(["cancelled", "time_limit_exceeded", "approval_pending"]);

/** The recorded replies of a run, each given out once. */
export class ReplayBook {
  private readonly replies = new Map<string, CallRow>();
  /** Per step path: how many of its runs ended (finished or failed) in earlier segments. */
  private readonly ended = new Map<string, number>();

  constructor(point: ResumePoint) {
    for (const call of point.calls)
      if ((call.status === "ok" || call.status === "error") && call.replayable === 1)
        this.replies.set(`${call.path}#${call.occurrence}`, call);
    for (const event of point.events) {
      if (event.type !== "step_finished" && event.type !== "step_failed") continue;
      const body = JSON.parse(event.body) as { path: unknown; error?: { kind?: string } };
      // A step the stop cut short (cancelled, out of time) did not complete: it runs again.
      if (event.type === "step_failed" && STOPPED.has(body.error?.kind ?? "")) continue;
      const path = JSON.stringify(body.path);
      this.ended.set(path, (this.ended.get(path) ?? 0) + 1);
    }
  }

  /** Whether the `occurrence`-th run of the step at `path` ended before the resume. */
  completed(path: string, occurrence: number): boolean {
    return occurrence <= (this.ended.get(path) ?? 0);
  }

  /** The recorded answer to this call, as a function that returns or throws it; undefined to call for real. */
  take(path: string, occurrence: number, key: string): (() => Promise<unknown>) | undefined {
    const id = `${path}#${occurrence}`;
    const call = this.replies.get(id);
    if (!call || call.request_key !== key) return undefined;
    this.replies.delete(id);
    if (call.status === "error") {
      const message = call.error ?? "the call failed";
      return () => Promise.reject(new Error(message));
    }
    return () => Promise.resolve(JSON.parse(call.reply ?? "null") as unknown);
  }
}

function short(digest: string | null): string {
  return digest ? digest.slice(0, 12) : "(none)";
}
