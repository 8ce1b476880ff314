// A recorded run to continue (`run --resume`, the editor's Resume, a worker's retried job), to
// replay (the debugger's "Debug Recorded Run") or to fork from a step (`run --from`): found in its journal, its recorded options read
// once (journal/runLookup.ts), and what a session must be opened with to run it again. The
// session's `resume` and `replay` (planSession.ts) are the only way to run one.

import { isAbsolute } from "node:path";
import { JournalError, JournalStore } from "../journal/journalStore";
import { ResumeRefusal, resumePoint, type ResumePoint } from "../journal/replay";
import { recordedRun as recordedPoint } from "../journal/replayRun";
import { latestUnfinishedJobRun, recordedOptionsOf, type RecordedOptions } from "../journal/runLookup";
import { stillWaiting } from "../journal/approvals";
import { runDetail } from "../journal/queries";
import type { PlanSessionOptions } from "./sessionOptions";

export type { RecordedOptions } from "../journal/runLookup";

/** A recorded run as the journal holds it, with its options typed. */
export interface RecordedRun {
  readonly id: number;
  /** The journal's folder. */
  readonly dir: string;
  /** The plan file it ran (a queued job's: the plan's name). */
  readonly planFile: string | undefined;
  readonly hostFile: string | undefined;
  readonly options: RecordedOptions;
  readonly point: ResumePoint;
  /** The journal, held open for a resume until its run ends; closed at once for a replay. */
  readonly store: JournalStore | undefined;
}

export type RecordedRunLookup =
  | { readonly ok: true; readonly run: RecordedRun }
  /** `refused`: the run cannot be resumed or replayed (said why); `error`: something else went wrong. */
  | { readonly ok: false; readonly kind: "refused" | "error"; readonly message: string };

/**
 * Run `id` of the journal in `dir`, to resume (a run that did not finish; the journal is created
 * when missing and stays open), to replay or to fork (any run of an existing journal). Its plan must have
 * come from a file; a resume's mocks must have been a file. Journal notices go to `onNotice`.
 */
export function openRecordedRun(
  dir: string,
  id: number,
  purpose: "resume" | "replay" | "fork",
  onNotice?: (message: string) => void,
): RecordedRunLookup {
  let store: JournalStore | undefined;
  try {
    store = purpose === "resume" ? JournalStore.open(dir) : JournalStore.openExisting(dir);
    if (!store) return { ok: false, kind: "refused", message: `there is no run journal in ${dir}` };
    for (const notice of store.notices) onNotice?.(notice);
    const point = purpose === "resume" ? resumePoint(store, id) : recordedPoint(store, id);
    // A step run alone: resumed, replayed or forked as a run of the plan it would run the whole
    // plan. The step is run again instead.
    if (point.run.origin === "step")
      throw new ResumeRefusal(
        `run ${id} ran one step alone (${point.run.label ?? "?"}): run it again with rlm-plan run PLAN --step ${point.run.label ?? "PATH"} --bindings JSON`,
      );
    const run = recordedRunOf(point, dir, purpose === "resume" ? store : undefined);
    if (run.planFile === undefined) throw new ResumeRefusal(`run ${id} was not started from a plan file`);
    const mocks = run.options.mocks;
    // A replay mocks every call itself; a resume or a fork runs with the run's own mocks.
    if (purpose !== "replay" && mocks !== undefined && !isAbsolute(mocks))
      throw new ResumeRefusal(`run ${id}'s mocks were given by the editor, not a file, and were not recorded`);
    if (purpose !== "resume") store.close();
    return { ok: true, run };
  } catch (error) {
    store?.close();
    const known = error instanceof ResumeRefusal || error instanceof JournalError;
    return {
      ok: false,
      kind: known ? "refused" : "error",
      message: error instanceof Error ? error.message : String(error),
    };
  }
}

/**
 * Why the latest run of a worker's job ("QUEUE/ID") in the journal in `dir` cannot go on yet: it
 * is `waiting` and an approval it asked for is still pending (not decided, not timed out); else
 * undefined, and the job goes on (`unfinishedJobRun` resumes it once the votes decided).
 */
export function jobAwaitingApproval(dir: string, job: string): string | undefined {
  let store: JournalStore | undefined;
  try {
    store = JournalStore.open(dir);
    const id = latestUnfinishedJobRun(store, job);
    if (id === undefined || runDetail(store, id)?.status !== "waiting") return undefined;
    return stillWaiting(store, id);
  } finally {
    store?.close();
  }
}

/**
 * The latest unfinished run of a worker's job ("QUEUE/ID") in the journal in `dir`, held open to
 * resume; undefined when there is none or it cannot be resumed (the job then runs anew).
 */
export function unfinishedJobRun(dir: string, job: string): RecordedRun | undefined {
  let store: JournalStore | undefined;
  try {
    store = JournalStore.open(dir);
    const id = latestUnfinishedJobRun(store, job);
    if (id === undefined) {
      store.close();
      return undefined;
    }
    return recordedRunOf(resumePoint(store, id), dir, store);
  } catch (error) {
    store?.close();
    if (error instanceof ResumeRefusal) return undefined;
    throw error;
  }
}

/**
 * A test case's run that ended waiting for approval, held open for the test runner (or the worker
 * of a queued case) to resume once the case's votes decided: its own host answers it, so the
 * refusal of a case's run to others does not apply; `now` is the case's clock (a request it lets
 * time out is past its deadline). Throws ResumeRefusal (still pending, claimed).
 */
export function caseRunToContinue(dir: string, id: number, now: number = Date.now()): RecordedRun {
  const store = JournalStore.open(dir);
  try {
    return recordedRunOf(resumePoint(store, id, "case", now), dir, store);
  } catch (error) {
    store.close();
    throw error;
  }
}

/** What a session that runs the recorded run again is opened with: its plan, host profile, inputs and mocks. */
export function recordedSessionOptions(
  run: RecordedRun,
): Pick<PlanSessionOptions, "file" | "hostProfile" | "inputFiles" | "inputValues" | "mocks"> {
  const { options } = run;
  return {
    ...(run.planFile !== undefined ? { file: run.planFile } : {}),
    ...(run.hostFile !== undefined ? { hostProfile: run.hostFile } : {}),
    ...(options.inputs ? { inputFiles: options.inputs } : {}),
    ...(options.inputValues && Object.keys(options.inputValues).length > 0 ? { inputValues: options.inputValues } : {}),
    ...(options.mocks !== undefined && isAbsolute(options.mocks) ? { mocks: { file: options.mocks } } : {}),
  };
}

function recordedRunOf(point: ResumePoint, dir: string, store: JournalStore | undefined): RecordedRun {
  const { run } = point;
  return {
    id: run.id,
    dir,
    planFile: run.plan_file ?? undefined,
    hostFile: run.host_file ?? undefined,
    options: recordedOptionsOf(run),
    point,
    store,
  };
}
