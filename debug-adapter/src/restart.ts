// Restart Frame on a paused live run ("Restart From Step"): the run is cancelled and started
// again, the steps before the frame's step answered from its journal entry (nothing of them runs
// again), and it stops before that step; the step and what follows run for real. On a recorded
// run being replayed it starts a live fork at that step (a new run, recorded with its parent), as
// `rlm-plan run --from RUN --step PATH` does. The session does both (`rerunFrom`, `fork`), as it
// replays and runs every launch (`sessionRunOf`).

import type { DebugProtocol } from "@vscode/debugprotocol";
import { stepKey } from "@rlm-plan/core/debug";
import {
  openPlanSession,
  openRecordedRun,
  recordedSessionOptions,
  type RecordedRun,
  type SessionRun,
  type SessionRunOptions,
} from "@rlm-plan/core/session";
import type { Prepared } from "./launchArguments";
import { frameStep, stepName } from "./inspection";
import { failedOutcome, type RestartFrom, type SessionState } from "./sessionState";

export async function restartFrame(
  s: SessionState,
  response: DebugProtocol.RestartFrameResponse,
  args: DebugProtocol.RestartFrameArguments,
): Promise<void> {
  const at = frameStep(s, args.frameId);
  const recorded = s.recorded;
  const prepared = s.prepared;
  if (!at || !s.held || !prepared)
    return s.fail(response, "the run is not paused at a step: stop at a breakpoint, then restart");
  if (prepared.replay) return forkRecorded(s, response, prepared, prepared.replay.recorded, at);
  if (!recorded) return s.fail(response, "this run is not recorded in a run journal, so it cannot restart");
  s.restartAt = stepKey(at);
  await s.stopRun();
  // The session reruns from the step: the steps before it answered from this run's entry.
  const found = openRecordedRun(recorded.dir, recorded.id, "replay");
  if (!found.ok) {
    s.restartAt = undefined;
    s.finish(failedOutcome("cancelled", `the run could not restart: ${found.message}`));
    return s.sendResponse(response);
  }
  s.cancel = new AbortController();
  s.stepping = { mode: "continue", from: 0 };
  s.sendResponse(response);
  s.output(
    "console",
    `rlm-plan: restarting from ${stepName(s.steps, at)} (the steps before it from run ${recorded.id})\n`,
  );
  s.running = s.run(prepared, s.countPausedTime, { recorded: found.run, at });
}

/** A replayed run goes live from `at`: a session with the run's own mocks (a replay's has none) forks it. */
async function forkRecorded(
  s: SessionState,
  response: DebugProtocol.RestartFrameResponse,
  prepared: Prepared,
  recorded: RecordedRun,
  at: readonly (string | number)[],
): Promise<void> {
  const opened = await openPlanSession({ ...recordedSessionOptions(recorded), allInputs: true, mask: s.mask });
  if (!opened.ok)
    return s.fail(response, `run ${recorded.id} cannot be forked: its plan or host profile does not open`);
  s.restartAt = stepKey(at);
  await s.stopRun();
  // The fork is live: no earlier step to go back to.
  s.travel = undefined;
  s.cancel = new AbortController();
  s.stepping = { mode: "continue", from: 0 };
  s.sendResponse(response);
  s.output(
    "console",
    `rlm-plan: a live run forked from run ${recorded.id} at ${stepName(s.steps, at)} (the steps before it from the journal)\n`,
  );
  s.prepared = { ...prepared, session: opened.session, replay: undefined };
  s.running = s.run(s.prepared, s.countPausedTime, { recorded, at, fork: true });
}

/** The session's run of a launch: a recorded run's replay, a restart from a step, or a plain run. */
export function sessionRunOf(
  prepared: Prepared,
  options: SessionRunOptions,
  restart: RestartFrom | undefined,
): { readonly ok: true; readonly run: SessionRun } | { readonly ok: false; readonly refusal: string } {
  if (prepared.replay) return prepared.session.replay(prepared.replay.recorded, options);
  if (restart?.fork) return prepared.session.fork(restart.recorded, { at: restart.at }, options);
  const run = restart
    ? prepared.session.rerunFrom(restart.recorded, restart.at, options)
    : prepared.session.run(options);
  return { ok: true, run };
}
