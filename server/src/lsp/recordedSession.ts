// The plan session of a recorded run, for the editor's resume, "Rerun From Here" and the scope it
// shows first: the run found in its journal by the core (openRecordedRun), its plan file read
// from disk, its host profile, inputs and mocks as recorded, the client's keys for this run.

import {
  openPlanSessionSync,
  openRecordedRun,
  recordedSessionOptions,
  type PlanSession,
  type RecordedRun,
  type SessionFailure,
} from "@rlm-plan/core/session";
import { basename } from "node:path";

/** Run `id` of the journal in `dir` with its session, or why not (`verb`: "resumed", "forked"). */
export function openRecordedSession(
  dir: string,
  id: number,
  purpose: "resume" | "fork",
  env: Record<string, string>,
): { session: PlanSession; recorded: RecordedRun } | { message: string } {
  const verb = purpose === "resume" ? "resumed" : "forked";
  const found = openRecordedRun(dir, id, purpose);
  if (!found.ok) return { message: `Run ${id} cannot be ${verb}: ${found.message}` };
  const recorded = found.run;
  const opened = openPlanSessionSync({ ...recordedSessionOptions(recorded), clientEnv: env });
  if (!opened.ok) {
    recorded.store?.close();
    return { message: `Run ${id} cannot be ${verb}: ${opened.mask.mask(failureText(opened.failure))}` };
  }
  return { session: opened.session, recorded };
}

export function failureText(failure: SessionFailure): string {
  return "message" in failure ? failure.message : `the host profile ${basename(failure.file)} has problems`;
}
