// What a launch needs before the run starts: the plan session (the plan file read bounded, the
// host profile named or the nearest one above the plan, the mocks file, the mask), and the
// plan's static refusal, located as the run pipeline locates it. The run itself goes through
// the session (the runtime's one pipeline). Every failure here is one located, readable message.

import type { DebugProtocol } from "@vscode/debugprotocol";
import { stepLines, type StepLine } from "@rlm-plan/core";
import type { SecretMask } from "@rlm-plan/core/run/secrets";
import type { HostFactory } from "@rlm-plan/core/run/startRun";
import { loadTestFile } from "@rlm-plan/core/testing/testFile";
import { casesOf } from "@rlm-plan/core/testing/testFileView";
import { testCaseHost } from "@rlm-plan/core/testing/runCase";
import { resolve } from "node:path";
import { HOST_PROFILE_FILENAME, openPlanSession, type PlanSession } from "@rlm-plan/core/session";

export interface LaunchArguments extends DebugProtocol.LaunchRequestArguments {
  /** The plan file to debug. */
  readonly program: string;
  /** The host profile; default: the nearest rlmplan.host.json in the plan's folder or above. */
  readonly hostProfile?: string;
  /** Input name -> text file, replacing the profile's input (like `rlm-plan run --input`). */
  readonly inputs?: Readonly<Record<string, string>>;
  /** Stop before the first step. */
  readonly stopOnEntry?: boolean;
  /** Folder that relative paths are resolved against; default the adapter's working folder. */
  readonly cwd?: string;
  /** Count time spent paused against the plan's time limit (default false). */
  readonly countPausedTime?: boolean;
  /** Variables added to the environment tools inherit and providers read keys from. */
  readonly env?: Readonly<Record<string, string>>;
  /** A mocks file (`*.mocks.json`): the tools and providers it names answer from it (a dry run). */
  readonly mocks?: string;
  /**
   * A case of a test file to debug instead of `program` alone: its plan, host profile, inputs,
   * and its mocks or cassette (testing/runCase.ts' host, as `rlm-plan test` runs it).
   */
  readonly testCase?: { readonly file: string; readonly name: string; readonly kind?: "case" | "dataset" };
}

export interface Prepared {
  readonly file: string;
  readonly hostProfile: string;
  /**
   * The session the run starts from. It builds what the plan names and every input of the
   * profile besides: the Variables view and the debug console show the host's inputs. Text
   * files among them are only indexed when something reads them, so an unused one costs nothing.
   */
  readonly session: PlanSession;
  readonly steps: readonly StepLine[];
  /** The mocks file, as named, when the run is a dry run. */
  readonly mocks?: string;
}

/** Opens the launch's session; `mask` (the adapter's) learns the profile's and the launch's secrets. */
export async function prepareLaunch(given: LaunchArguments, mask: SecretMask): Promise<Prepared | { error: string }> {
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

/** A test case's launch: its plan as the program, its host profile, and the case's host. */
function testCaseLaunch(
  args: LaunchArguments,
  wanted: NonNullable<LaunchArguments["testCase"]>,
): { args: LaunchArguments; host: HostFactory } | { error: string } {
  const file = resolve(args.cwd ?? process.cwd(), wanted.file);
  const loaded = loadTestFile(file);
  if (!loaded.ok)
    return { error: loaded.errors.map((e) => `${e.file}:${e.line}:${e.column}: ${e.message}`).join("\n") };
  const view = { file, problems: [], cases: [], suite: loaded.suite };
  const testCase = casesOf(view, { name: wanted.name, kind: wanted.kind ?? "case" })[0];
  if (!testCase) return { error: `${file} has no case named ${JSON.stringify(wanted.name)}` };
  const chosen = testCaseHost(testCase, { ...(args.env ? { env: { ...process.env, ...args.env } } : {}) });
  if ("error" in chosen) return { error: chosen.error };
  return {
    args: { ...args, program: loaded.suite.planFile, hostProfile: loaded.suite.profile.file },
    host: chosen.host,
  };
}
