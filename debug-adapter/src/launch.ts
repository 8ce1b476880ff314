// What a launch needs before the run starts: the plan session (the plan file read bounded, the
// host profile named or the nearest one above the plan, the mocks file, the mask), and the
// plan's static refusal, located as the run pipeline locates it. The run itself goes through
// the session (the runtime's one pipeline). Every failure here is one located, readable message.

// The three kinds of launch: a plan file (here), a recorded run (launchReplay.ts) and a test
// file's case (launchTestCase.ts, which names the plan file and the case's host).

import { type HostFactory } from "@rlm-plan/core/run";
import { stepLines } from "@rlm-plan/core/debug";
import type { SecretMask } from "@rlm-plan/core/secrets";
import { HOST_PROFILE_FILENAME, openPlanSession } from "@rlm-plan/core/session";
import type { LaunchArguments, Prepared } from "./launchArguments";
import { prepareReplay } from "./launchReplay";
import { testCaseLaunch } from "./launchTestCase";

export type { LaunchArguments, Prepared } from "./launchArguments";

/** Opens the launch's session; `mask` (the adapter's) learns the profile's and the launch's secrets. */
export async function prepareLaunch(given: LaunchArguments, mask: SecretMask): Promise<Prepared | { error: string }> {
  if (given.replay !== undefined) return prepareReplay(given, given.replay, mask, (args) => prepareLaunch(args, mask));
  const chosen: { args: LaunchArguments; host?: HostFactory } | { error: string } = given.testCase
    ? testCaseLaunch(given, given.testCase)
    : { args: given };
  if ("error" in chosen) return chosen;
  const { args, host } = chosen;
  if (typeof args.program !== "string" || args.program === "")
    return { error: 'the launch configuration needs "program": the plan file to debug' };
  const cwd = args.cwd ?? process.cwd();
  const opened = await openPlanSession({
    file: args.program,
    cwd,
    ...(args.hostProfile ? { hostProfile: args.hostProfile } : {}),
    ...(args.env ? { clientEnv: args.env } : {}),
    inputFiles: args.inputs ?? {},
    ...(args.mocks !== undefined ? { mocks: { file: args.mocks } } : {}),
    allInputs: true,
    ...(host ? { host } : {}),
    mask,
  });
  if (!opened.ok) {
    const { failure } = opened;
    switch (failure.kind) {
      case "plan_unreadable":
        return { error: failure.message };
      case "no_host_profile":
        return { error: `${failure.message}; create ${HOST_PROFILE_FILENAME} or set "hostProfile"` };
      case "invalid_host_profile":
      case "invalid_mocks":
        return { error: failure.errors.map((e) => `${e.file}:${e.line}:${e.column}: ${e.message}`).join("\n") };
    }
  }
  const session = opened.session;
  const file = session.file ?? args.program;
  // The run's own static stage, located as a run locates it (no matching of messages).
  const refusal = session.staticRefusal();
  if (refusal && !refusal.outcome.ok) {
    const { error } = refusal.outcome;
    const place = refusal.location ? `${file}:${refusal.location.line}:${refusal.location.column}: ` : `${file}: `;
    return { error: `${place}${error.message} [${error.phase}/${error.kind}]` };
  }
  const analysis = session.analysis();
  const steps = analysis.plan ? stepLines(analysis.plan, analysis.document) : [];
  return {
    file,
    hostProfile: session.hostProfile ?? "",
    session,
    steps,
    ...(args.mocks ? { mocks: args.mocks } : {}),
  };
}
