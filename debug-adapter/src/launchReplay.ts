// The launch of a recorded run ("Debug Recorded Run"): its plan, host profile and inputs as
// recorded, every tool and provider mocked, every call answered from the run journal.

import { stepLines } from "@rlm-plan/core/debug";
import {
  checkSameInputs,
  JournalStore,
  RecordedReplies,
  recordedRun,
  replayMocks,
  type ResumePoint,
} from "@rlm-plan/core/journal";
import type { SecretMask } from "@rlm-plan/core/secrets";
import { openPlanSession } from "@rlm-plan/core/session";
import { readFileSync } from "node:fs";
import type { LaunchArguments, Prepared } from "./launchArguments";

/**
 * A recorded run's launch: its plan, host profile and inputs as recorded (refused when the plan
 * or profile changed since), every tool and provider mocked, every call answered from the journal.
 */
export async function prepareReplay(
  args: LaunchArguments,
  replay: NonNullable<LaunchArguments["replay"]>,
  mask: SecretMask,
  fallback: (args: LaunchArguments) => Promise<Prepared | { error: string }>,
): Promise<Prepared | { error: string }> {
  if (typeof replay?.journal !== "string" || !Number.isSafeInteger(replay.run))
    return { error: '"replay" needs {"journal": the run journal\'s folder, "run": the run\'s number}' };
  let point: ResumePoint;
  let store: JournalStore | undefined;
  try {
    store = JournalStore.openExisting(replay.journal);
    if (!store) return { error: `there is no run journal in ${replay.journal}` };
    point = recordedRun(store, replay.run);
  } catch (error) {
    return { error: `run ${replay.run} cannot be replayed: ${error instanceof Error ? error.message : String(error)}` };
  } finally {
    store?.close();
  }
  const { run } = point;
  if (run.plan_file === null) return { error: `run ${replay.run} was not started from a plan file` };
  const options = (JSON.parse(run.details) as { options?: { inputs?: Record<string, string> } }).options ?? {};
  const base = {
    file: run.plan_file,
    ...(run.host_file !== null ? { hostProfile: run.host_file } : {}),
    inputFiles: options.inputs ?? {},
    allInputs: true,
    mask,
  };
  const first = await openPlanSession(base);
  // The plan or profile no longer opens: the plan file's own launch says why, as for any launch.
  if (!first.ok) return fallback({ ...args, replay: undefined, program: run.plan_file });
  try {
    const hostText = first.session.hostProfile ? readFileSync(first.session.hostProfile, "utf8") : undefined;
    checkSameInputs(
      point,
      first.session.text ?? "",
      first.session.hostProfile && hostText !== undefined
        ? { file: first.session.hostProfile, text: hostText }
        : undefined,
    );
  } catch (error) {
    return { error: `run ${replay.run} cannot be replayed: ${error instanceof Error ? error.message : String(error)}` };
  }
  const profile = first.session.profile;
  const mocks = profile ? replayMocks(point, profile) : { tools: {}, providers: {} };
  const opened = await openPlanSession({ ...base, mocks: { value: mocks, name: `run ${replay.run}` } });
  if (!opened.ok) return { error: `run ${replay.run} cannot be replayed: ${opened.failure.kind}` };
  const session = opened.session;
  const analysis = session.analysis();
  return {
    file: run.plan_file,
    hostProfile: session.hostProfile ?? "",
    session,
    steps: analysis.plan ? stepLines(analysis.plan, analysis.document) : [],
    replay: { run: replay.run, observer: new RecordedReplies(point, session.mask) },
  };
}
