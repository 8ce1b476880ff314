// Restart Frame on a paused live run ("Restart From Step"): the run is cancelled and started
// again, the steps before the frame's step answered from its journal entry (nothing of them runs
// again), and it stops before that step; the step and what follows run for real.

import type { DebugProtocol } from "@vscode/debugprotocol";
import { stepKey } from "@rlm-plan/core/debug";
import { callsBefore, JournalStore, RecordedReplies, recordedRun } from "@rlm-plan/core/journal";
import { frameStep, stepName } from "./inspection";
import { errorText, failedOutcome, type SessionState } from "./sessionState";

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
  let replies: RecordedReplies;
  const store = JournalStore.openExisting(recorded.dir);
  try {
    if (!store) throw new Error(`there is no run journal in ${recorded.dir}`);
    replies = new RecordedReplies(callsBefore(recordedRun(store, recorded.id), at), s.mask, false);
  } catch (error) {
    s.restartAt = undefined;
    s.finish(failedOutcome("cancelled", `the run could not restart: ${errorText(error)}`));
    return s.sendResponse(response);
  } finally {
    store?.close();
  }
  s.cancel = new AbortController();
  s.stepping = { mode: "continue", from: 0 };
  s.sendResponse(response);
  s.output(
    "console",
    `rlm-plan: restarting from ${stepName(s.steps, at)} (the steps before it from run ${recorded.id})\n`,
  );
  s.running = s.run(prepared, s.countPausedTime, replies);
}
