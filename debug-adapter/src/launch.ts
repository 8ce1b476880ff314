// What a launch needs before the run starts: the plan session (the plan file read bounded, the
// host profile named or the nearest one above the plan, the mocks file, the mask), and the
// plan's static refusal, located as the run pipeline locates it. The run itself goes through
// the session (the runtime's one pipeline). Every failure here is one located, readable message.

import type { DebugProtocol } from "@vscode/debugprotocol";
import { type HostFactory, type StepLine, stepLines } from "@rlm-plan/core";
import type { SecretMask } from "@rlm-plan/core/secrets";
import { casesOf, loadTestFile, testCaseHost } from "@rlm-plan/core/testing";
import { resolve } from "node:path";
import { HOST_PROFILE_FILENAME, openPlanSession, type PlanSession } from "@rlm-plan/core/session";
import { readFileSync } from "node:fs";
import {
  checkSameInputs,
  JournalStore,
  RecordedReplies,
  recordedRun,
  replayMocks,
  type ResumePoint,
} from "@rlm-plan/core/journal";

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
   * A recorded run to step through without executing anything ("Debug Recorded Run"): the run
   * journal's folder and the run's number. `program` is then the run's plan (it may be omitted).
   */
  readonly replay?: { readonly journal: string; readonly run: number };
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
  /** A recorded run replayed: its calls answered from the journal, nothing executed. */
  readonly replay?: { readonly run: number; readonly observer: RecordedReplies };
}

/** Opens the launch's session; `mask` (the adapter's) learns the profile's and the launch's secrets. */
export async function prepareLaunch(given: LaunchArguments, mask: SecretMask): Promise<Prepared | { error: string }> {
  if (given.replay !== undefined) return prepareReplay(given, given.replay, mask);
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

/**
 * A recorded run's launch: its plan, host profile and inputs as recorded (refused when the plan
 * or profile changed since), every tool and provider mocked, every call answered from the journal.
 */
async function prepareReplay(
  args: LaunchArguments,
  replay: NonNullable<LaunchArguments["replay"]>,
  mask: SecretMask,
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
  if (!first.ok) return prepareLaunch({ ...args, replay: undefined, program: run.plan_file }, mask);
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
