// What a launch needs before the run starts: the plan file read and checked against its host
// profile (the one named, else the nearest one above the plan), and the mocks file if one is
// named. The run itself goes through the runtime's one pipeline (startRun), which builds only
// what the plan names. Every failure here is one located, readable message.

import { resolve } from "node:path";
import type { DebugProtocol } from "@vscode/debugprotocol";
import {
  analyzePlanText,
  checkPlan,
  findHostProfile,
  HOST_PROFILE_FILENAME,
  hostPolicy,
  lineColumn,
  loadHostProfile,
  loadMocks,
  parsePlan,
  profileHost,
  readErrorText,
  stepLines,
  type HostFactory,
  type HostProfileError,
  type PolicyOptions,
  type StepLine,
} from "@rlm-plan/core";
import { MAX_PLAN_BYTES, readTextFile } from "@rlm-plan/core/text/boundedFile";

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
}

export interface Prepared {
  readonly file: string;
  readonly text: string;
  readonly hostProfile: string;
  readonly policy: PolicyOptions;
  readonly steps: readonly StepLine[];
  /**
   * Builds what the plan names (startRun asks it once the plan is checked), and every input of
   * the profile besides: the Variables view and the debug console show the host's inputs. Text
   * files among them are only indexed when something reads them, so an unused one costs nothing.
   */
  readonly host: HostFactory;
  /** The mocks file, as named, when the run is a dry run. */
  readonly mocks?: string;
}

export async function prepareLaunch(args: LaunchArguments): Promise<Prepared | { error: string }> {
  if (typeof args.program !== "string" || args.program === "")
    return { error: 'the launch configuration needs "program": the plan file to debug' };
  const cwd = args.cwd ?? process.cwd();
  const file = resolve(cwd, args.program);
  let text: string;
  try {
    text = await readTextFile(file, MAX_PLAN_BYTES);
  } catch (error) {
    return { error: `cannot read the plan ${file}: ${readErrorText(error)}` };
  }
  if (text.charCodeAt(0) === 0xfeff) text = text.slice(1);
  const profileFile = args.hostProfile ? resolve(cwd, args.hostProfile) : findHostProfile(file);
  if (!profileFile)
    return {
      error: `no host profile: there is no ${HOST_PROFILE_FILENAME} in the folder of ${file} or above it; create one or set "hostProfile"`,
    };
  const loaded = loadHostProfile(profileFile);
  if (!loaded.ok) return { error: hostErrorText(loaded.errors) };
  const policy = hostPolicy(loaded.profile);
  const checked = checkPlan({ kind: "document", text }, policy);
  if (!checked.ok) {
    const located = analyzePlanText(text, policy).problems.find(
      (p) => p.kind === checked.error.kind && p.message === checked.error.message,
    );
    const at = located ? lineColumn(text, located.range.offset) : undefined;
    const place = at ? `${file}:${at.line + 1}:${at.character + 1}: ` : `${file}: `;
    return { error: `${place}${checked.error.message} [${checked.error.phase}/${checked.error.kind}]` };
  }
  let mocks;
  if (args.mocks !== undefined) {
    const read = loadMocks(resolve(cwd, args.mocks));
    if (!read.ok) return { error: hostErrorText(read.errors) };
    mocks = read.mocks;
  }
  const parsed = parsePlan({ kind: "document", text });
  const steps = parsed.plan && parsed.document ? stepLines(parsed.plan, parsed.document) : [];
  const build = profileHost(loaded.profile, {
    env: { ...process.env, ...args.env },
    inputFiles: Object.fromEntries(Object.entries(args.inputs ?? {}).map(([k, v]) => [k, resolve(cwd, v)])),
    ...(mocks ? { mocks } : {}),
  });
  const allInputs = [...loaded.profile.inputs.keys()];
  const host: HostFactory = (needs) => build({ ...needs, inputs: new Set([...needs.inputs, ...allInputs]) });
  return { file, text, hostProfile: profileFile, policy, steps, host, ...(args.mocks ? { mocks: args.mocks } : {}) };
}

function hostErrorText(errors: readonly HostProfileError[]): string {
  return errors.map((e) => `${e.file}:${e.line}:${e.column}: ${e.message}`).join("\n");
}
