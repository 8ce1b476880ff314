// Restart Frame on a paused live run ("Restart From Step"): the run is cancelled and started
// again, the steps before the frame's step answered from its journal entry (nothing of them runs
// again), and it stops before that step; the step and what follows run for real. The session
// does it (`rerunFrom`), as it replays and runs every launch (`sessionRunOf`).

import type { DebugProtocol } from "@vscode/debugprotocol";
import { stepKey } from "@rlm-plan/core/debug";
import { openRecordedRun, type SessionRun, type SessionRunOptions } from "@rlm-plan/core/session";
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
  if (s.travel) return s.fail(response, "a recorded run is stepped, not restarted: use Step Back");
  if (!at || !s.held || !prepared)
    return s.fail(response, "the run is not paused at a step: stop at a breakpoint, then restart");
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

/** The session's run of a launch: a recorded run's replay, a restart from a step, or a plain run. */
export function sessionRunOf(
  prepared: Prepared,
  options: SessionRunOptions,
  restart: RestartFrom | undefined,
): { readonly ok: true; readonly run: SessionRun } | { readonly ok: false; readonly refusal: string } {
  if (prepared.replay) return prepared.session.replay(prepared.replay.recorded, options);
  const run = restart
    ? prepared.session.rerunFrom(restart.recorded, restart.at, options)
    : prepared.session.run(options);
  return { ok: true, run };
}
