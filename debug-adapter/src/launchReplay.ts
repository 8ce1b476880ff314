// The launch of a recorded run ("Debug Recorded Run"): the run found and read by the core, its
// plan, host profile and inputs as recorded; the session's `replay` then runs it with every tool
// and provider mocked and every call answered from the run journal.

import { stepLines } from "@rlm-plan/core/debug";
import type { SecretMask } from "@rlm-plan/core/secrets";
import { openPlanSession } from "@rlm-plan/core/session";
import { openRecordedRun, recordedSessionOptions } from "@rlm-plan/core/session";
import type { LaunchArguments, Prepared } from "./launchArguments";

/**
 * A recorded run's launch: its plan, host profile and inputs as recorded (the session refuses a
 * replay when the plan or profile changed since); the plan file's own launch when they no longer open.
 */
export async function prepareReplay(
  args: LaunchArguments,
  replay: NonNullable<LaunchArguments["replay"]>,
  mask: SecretMask,
  fallback: (args: LaunchArguments) => Promise<Prepared | { error: string }>,
): Promise<Prepared | { error: string }> {
  if (typeof replay?.journal !== "string" || !Number.isSafeInteger(replay.run))
    return { error: '"replay" needs {"journal": the run journal\'s folder, "run": the run\'s number}' };
  const found = openRecordedRun(replay.journal, replay.run, "replay");
  if (!found.ok)
    return {
      error: found.message.startsWith("there is no run journal")
        ? found.message
        : `run ${replay.run} cannot be replayed: ${found.message}`,
    };
  const recorded = found.run;
  const planFile = recorded.planFile as string;
  const { mocks: _mocks, ...given } = recordedSessionOptions(recorded);
  const opened = await openPlanSession({ ...given, allInputs: true, mask });
  // The plan or profile no longer opens: the plan file's own launch says why, as for any launch.
  if (!opened.ok) return fallback({ ...args, replay: undefined, program: planFile });
  const session = opened.session;
  const refusal = session.changedSince(recorded);
  if (refusal !== undefined) return { error: `run ${replay.run} cannot be replayed: ${refusal}` };
  const analysis = session.analysis();
  return {
    file: planFile,
    hostProfile: session.hostProfile ?? "",
    session,
    steps: analysis.plan ? stepLines(analysis.plan, analysis.document) : [],
    replay: { run: replay.run, recorded },
  };
}
