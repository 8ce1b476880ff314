// One plan session: what every front end (the CLI's commands, the language server's runs and
// proposals, the debug adapter) starts from. Given a plan file (or text) and options, it reads
// the plan bounded, finds and loads the host profile, builds the analysis policy, the mocks, the
// secret mask and the host, and hands out `analysis` (check), `preflight`, `run` and `propose`.
// Nothing else assembles these. The session owns the mask: front ends pass what they show
// through `mask`.
// Over 400 lines because it is the one place every front end assembles a plan with its host; not split yet (its run and propose parts could go apart).

import { resolve } from "node:path";
import { analyzePlanText, type AnalysisPolicy, type PlanAnalysis } from "../analysis";
import type { profileHost } from "../host/createHost";
import { withInputValues } from "../host/inputValues";
import type { JsonValue } from "../json";
import type { McpDiscovery } from "../host/mcp/discovery";
import { parseMocks, type Mocks } from "../host/mocks";
import { readErrorText, type HostProfile, type HostProfileError, type HostProfileResult } from "../host/profile";
import { parsePlanDocument, type PlanDocument } from "../text/planDocument";
import { createOpenAIChatProvider, openAIChatSpecProblem } from "../providers/openaiChat";
import type { ProposeResult } from "../providers/proposePlan";
import type { PolicyOptions } from "../run/pipeline";
import { environmentSecrets, type SecretMask } from "../run/secrets";
import type { BuiltHost, HostFactory, PreflightReport, RunHandle, RunReport, StartRunOptions } from "../run/startRun";
import { MAX_MOCKS_BYTES, MAX_PLAN_BYTES, readTextFile, readTextFileSync } from "../text/boundedFile";
import { analysisPolicy, runPolicy, type PolicyOverrides } from "./analysisPolicy";
import { HOST_PROFILE_FILENAME, hostProfileIn, hostProfileOf, readHostProfile } from "./hostProfiles";
import type { RecordingStart, RecordRequest, SessionRecording } from "./runRecording";
import { addSessionSecrets, sessionMask } from "./secretMask";

// What only a run, a preflight or a proposal needs is required on first use: a static check (the
// CLI's, the editor's) then loads no interpreter, context store, journal (node:crypto, SQLite) or
// provider prompt (ARCHITECTURE.md, "Start-up").
/* eslint-disable @typescript-eslint/no-require-imports */
const runModules = () => require("../run/startRun") as typeof import("../run/startRun");
const recordingModules = () => require("./runRecording") as typeof import("./runRecording");
const proposeModules = () => require("../providers/proposePlan") as typeof import("../providers/proposePlan");
/* eslint-enable @typescript-eslint/no-require-imports */

/** The checks a plain (static) `check` leaves to `check --preflight` and to a run's preflight. */
export const PREFLIGHT_ONLY_CHECKS: readonly string[] = Object.freeze([
  "MCP tool lists and argument schemas",
  "programs",
  "provider keys",
  "input files",
]);

export interface PlanSessionOptions {
  /** The plan file: read bounded, unless `text` is given; the host profile is looked for above it. */
  readonly file?: string;
  /** The plan's text (an editor's buffer, a proposal); without `file` nor `text` the session has no plan (propose). */
  readonly text?: string;
  /** The text's parsed document, when the caller has one. */
  readonly document?: PlanDocument;
  /** The host profile file to use (relative to `cwd`); default the nearest one above the plan (or in `cwd`). */
  readonly hostProfile?: string;
  /** The profile already read (an editor's text of it): `hostProfile` is then its file. */
  readonly profile?: HostProfileResult;
  /** Whether a missing host profile is a failure (runs, preflight, propose); default true. */
  readonly requireHost?: boolean;
  /** Where relative paths are resolved; default the current folder. */
  readonly cwd?: string;
  /** The environment tools inherit and providers read keys from; default process.env. */
  readonly env?: NodeJS.ProcessEnv;
  /** Variables a client passes for this session only (keys from its secret storage): secret, whatever their names. */
  readonly clientEnv?: Readonly<Record<string, string>>;
  /** Input name -> text file (relative to `cwd`) replacing or adding an input. */
  readonly inputFiles?: Readonly<Record<string, string>>;
  /** Input name -> value replacing or adding an input (a queued job's inputs, like a test case's). */
  readonly inputValues?: Readonly<Record<string, JsonValue>>;
  /** A mocks file (relative to `cwd`, read bounded), or mocks given as a value. */
  readonly mocks?: { readonly file: string } | { readonly value: unknown; readonly name: string };
  /** Capabilities or budget overriding the profile's (check's --capabilities, --budget). */
  readonly overrides?: PolicyOverrides;
  /** What the profile's MCP servers listed (an editor that asked them): typed MCP tool arguments. */
  readonly discovery?: McpDiscovery;
  /** Build every input the profile declares, not only those the plan reads (a debugger shows them all). */
  readonly allInputs?: boolean;
  /** A host built elsewhere over the profile (a test case's: its inputs, mocks or cassette); runs use it. */
  readonly host?: HostFactory;
  /** A mask the front end already guards its output with: the session adds what it learns to it. */
  readonly mask?: SecretMask;
}

export type SessionFailure =
  | {
      readonly kind: "plan_unreadable";
      readonly file: string;
      readonly message: string;
      /** Why, without the file: "no such file (ENOENT)". */
      readonly reason: string;
      /** The system's error code (ENOENT, EISDIR, ENOTREG, EFBIG, ...), when there is one. */
      readonly code?: string;
    }
  | { readonly kind: "no_host_profile"; readonly message: string }
  | { readonly kind: "invalid_host_profile"; readonly file: string; readonly errors: readonly HostProfileError[] }
  | { readonly kind: "invalid_mocks"; readonly file: string; readonly errors: readonly HostProfileError[] };

export type OpenedSession =
  | { readonly ok: true; readonly session: PlanSession }
  | {
      readonly ok: false;
      readonly failure: SessionFailure;
      /** The mask as far as the session got (environment, client values, the profile if read). */
      readonly mask: SecretMask;
      /** The host profile file, when one was found. */
      readonly hostProfile?: string;
    };

/** Opens a session, reading the plan without blocking the event loop (runs, the debugger). */
export async function openPlanSession(options: PlanSessionOptions): Promise<OpenedSession> {
  let text = options.text;
  if (text === undefined && options.file !== undefined) {
    const file = resolve(options.cwd ?? ".", options.file);
    try {
      text = await readTextFile(file, MAX_PLAN_BYTES);
    } catch (error) {
      return unreadable(options, file, error);
    }
  }
  return openWithText(options, text);
}

/** The same, reading synchronously (check, estimate, graph). */
export function openPlanSessionSync(options: PlanSessionOptions): OpenedSession {
  let text = options.text;
  if (text === undefined && options.file !== undefined) {
    const file = resolve(options.cwd ?? ".", options.file);
    try {
      text = readTextFileSync(file, MAX_PLAN_BYTES);
    } catch (error) {
      return unreadable(options, file, error);
    }
  }
  return openWithText(options, text);
}

function unreadable(options: PlanSessionOptions, file: string, error: unknown): OpenedSession {
  return {
    ok: false,
    failure: {
      kind: "plan_unreadable",
      file,
      message: `cannot read the plan ${file}: ${readErrorText(error)}`,
      reason: readErrorText(error),
      ...(typeof (error as NodeJS.ErrnoException | undefined)?.code === "string"
        ? { code: (error as NodeJS.ErrnoException).code as string }
        : {}),
    },
    mask: maskOf(options, undefined),
  };
}

function maskOf(options: PlanSessionOptions, profile: HostProfile | undefined): SecretMask {
  const sources = {
    env: { ...(options.env ?? process.env), ...options.clientEnv },
    clientValues: Object.values(options.clientEnv ?? {}),
    ...(profile ? { profile } : {}),
  };
  return options.mask ? addSessionSecrets(options.mask, sources) : sessionMask(sources);
}

function openWithText(options: PlanSessionOptions, rawText: string | undefined): OpenedSession {
  const text = rawText !== undefined && rawText.charCodeAt(0) === 0xfeff ? rawText.slice(1) : rawText;
  const cwd = options.cwd ?? process.cwd();
  const planFile = options.file !== undefined ? resolve(cwd, options.file) : undefined;
  const profileFile =
    options.hostProfile !== undefined
      ? resolve(cwd, options.hostProfile)
      : planFile !== undefined
        ? hostProfileOf(planFile)
        : hostProfileIn(cwd);
  if (profileFile === undefined) {
    if (options.requireHost !== false) {
      const where = planFile !== undefined ? `the folder of ${planFile}` : cwd;
      return {
        ok: false,
        failure: {
          kind: "no_host_profile",
          message: `no host profile: there is no ${HOST_PROFILE_FILENAME} in ${where} or any folder above it`,
        },
        mask: maskOf(options, undefined),
      };
    }
    return {
      ok: true,
      session: new PlanSession(options, planFile, text, undefined, undefined, maskOf(options, undefined), undefined),
    };
  }
  const loaded = options.profile ?? readHostProfile(profileFile);
  if (!loaded.ok) {
    return {
      ok: false,
      failure: { kind: "invalid_host_profile", file: profileFile, errors: loaded.errors },
      mask: maskOf(options, undefined),
      hostProfile: profileFile,
    };
  }
  const mask = maskOf(options, loaded.profile);
  let mocks: Mocks | undefined;
  if (options.mocks !== undefined) {
    const read = readMocks(options.mocks, cwd);
    if (!read.ok) return { ok: false, failure: read.failure, mask, hostProfile: profileFile };
    mocks = read.mocks;
  }
  return { ok: true, session: new PlanSession(options, planFile, text, profileFile, loaded.profile, mask, mocks) };
}

function readMocks(
  given: NonNullable<PlanSessionOptions["mocks"]>,
  cwd: string,
): { ok: true; mocks: Mocks } | { ok: false; failure: SessionFailure } {
  let text: string;
  let file: string;
  if ("file" in given) {
    file = resolve(cwd, given.file);
    try {
      text = readTextFileSync(file, MAX_MOCKS_BYTES);
    } catch (error) {
      const message = `cannot read the mocks file: ${readErrorText(error)}`;
      return {
        ok: false,
        failure: {
          kind: "invalid_mocks",
          file,
          errors: [{ file, line: 1, column: 1, offset: 0, length: 0, jsonPath: "", message }],
        },
      };
    }
  } else {
    file = given.name;
    text = JSON.stringify(given.value);
  }
  const parsed = parseMocks(text, file);
  return parsed.ok
    ? { ok: true, mocks: parsed.mocks }
    : { ok: false, failure: { kind: "invalid_mocks", file, errors: parsed.errors } };
}

/** A plan under a host: check, preflight, run and propose, every output through one mask. */
export class PlanSession {
  /** The analysis policy (capabilities, budget, registries, tool knowledge, data limits). */
  readonly policy: AnalysisPolicy;
  private analysed: PlanAnalysis | undefined;
  private documentOf: PlanDocument | undefined;

  constructor(
    private readonly options: PlanSessionOptions,
    /** The plan file (absolute), when the plan came from one. */
    readonly file: string | undefined,
    /** The plan's text (a leading byte order mark dropped); undefined for a session without a plan. */
    readonly text: string | undefined,
    /** The host profile file in force, if any. */
    readonly hostProfile: string | undefined,
    readonly profile: HostProfile | undefined,
    /** The session's secret mask: every output of every front end passes through it. */
    readonly mask: SecretMask,
    /** The mocks of a dry run. */
    readonly mocks: Mocks | undefined,
  ) {
    this.policy = analysisPolicy(profile, {
      ...(options.discovery ? { discovery: options.discovery } : {}),
      ...(options.overrides ? { overrides: options.overrides } : {}),
    });
    this.documentOf = options.document;
  }

  /** The plan's document (parsed once). */
  get document(): PlanDocument {
    if (this.text === undefined) throw new Error("this session has no plan");
    this.documentOf ??= parsePlanDocument(this.text);
    return this.documentOf;
  }

  /** What a run validates the plan against. */
  get runPolicy(): PolicyOptions {
    if (this.profile) return runPolicy(this.profile);
    return { capabilities: this.policy.capabilities ?? [], budget: this.policy.budget };
  }

  /** The static check: every problem of the plan under the analysis policy. Starts nothing. */
  analysis(): PlanAnalysis {
    this.analysed ??= analyzePlanText(this.requireText(), this.policy, this.document);
    return this.analysed;
  }

  /** A run's static stage: its refusal, located, or undefined when the plan is valid. */
  staticRefusal(): RunReport | undefined {
    const checked = runModules().checkStage(
      { kind: "document", text: this.requireText(), document: this.document },
      this.document,
      {
        policy: this.runPolicy,
      },
    );
    return checked.refusal;
  }

  /**
   * Exactly the preflight a run does before its first step (the same function): MCP servers the
   * plan names are started to list their tools, then stopped; no step executes.
   */
  preflight(options: { readonly signal?: AbortSignal } = {}): Promise<PreflightReport> {
    return runModules().startPreflight({
      source: { kind: "document", text: this.requireText(), document: this.document },
      policy: this.runPolicy,
      host: this.hostFactory(),
      ...(options.signal ? { signal: options.signal } : {}),
    });
  }

  /**
   * Starts the run's entry in the run journal (runRecording.ts), or continues a resumed run's;
   * hand the recording to `run`. Every front end records this way.
   */
  record(request: RecordRequest): RecordingStart {
    return recordingModules().startSessionRecording(this, request);
  }

  /**
   * Runs the plan through the one run pipeline (startRun); `onHostBuilt` sees the host it built (a
   * debugger's contexts); `recording` (from `record`) records it, its journal closed when it ends.
   */
  run(
    options: Omit<StartRunOptions, "source" | "policy" | "host"> & {
      readonly onHostBuilt?: (built: BuiltHost) => void;
      readonly recording?: SessionRecording | undefined;
    } = {},
  ): RunHandle {
    const { onHostBuilt, recording, ...execute } = options;
    const factory = this.hostFactory();
    const host: HostFactory = onHostBuilt
      ? async (needs) => {
          const setup = await factory(needs);
          if (setup.ok) onHostBuilt(setup.built);
          return setup;
        }
      : factory;
    const handle = runModules().startRun({
      // The session's mask: an event's error message passes through it before any listener.
      mask: this.mask,
      ...execute,
      ...(recording ? { observers: [recording.recorder, ...(execute.observers ?? [])] } : {}),
      source: { kind: "document", text: this.requireText(), document: this.document },
      policy: this.runPolicy,
      host,
    });
    if (!recording) return handle;
    return { ...handle, done: handle.done.finally(() => recording.store.close()) };
  }

  /** Asks one of the profile's providers for a plan for `goal`, checked against this host. */
  propose(goal: string, provider: string, signal?: AbortSignal): Promise<ProposeResult> {
    const profile = this.requireProfile();
    return proposeModules().proposePlan({
      goal,
      profile,
      provider,
      env: this.env(),
      policy: this.runPolicy,
      ...(signal ? { signal } : {}),
    });
  }

  /** The secrets this session knows (the client's values, the environment's keys): for a front end's wider mask. */
  secretValues(): string[] {
    return [...Object.values(this.options.clientEnv ?? {}), ...environmentSecrets(this.env(), this.profile)];
  }

  /** How a provider of the profile is shown ("openai-chat MODEL at ORIGIN"), never its key. */
  providerDescription(name: string): string | undefined {
    const spec = this.profile?.providers.get(name);
    return spec && openAIChatSpecProblem(spec) === undefined
      ? createOpenAIChatProvider(spec, {}).description
      : undefined;
  }

  /** A session for another plan text under the same host, mask and options (a proposal to run). */
  withText(text: string): PlanSession {
    const { file: _file, document: _document, ...rest } = this.options;
    return new PlanSession({ ...rest, text }, undefined, text, this.hostProfile, this.profile, this.mask, this.mocks);
  }

  /** The host a run builds: only what the plan names (every input, for a debugger). */
  hostFactory(): HostFactory {
    const profile = this.requireProfile();
    const cwd = this.options.cwd ?? process.cwd();
    const inputFiles = Object.fromEntries(
      Object.entries(this.options.inputFiles ?? {}).map(([name, path]) => [name, resolve(cwd, path)]),
    );
    // The host's modules are required here, on the first run: a check (the CLI's, the editor's)
    // builds no host, and the host's modules (processes, contexts, MCP) are a large part of a start.
    const build =
      this.options.host ??
      withInputValues(
        // eslint-disable-next-line @typescript-eslint/no-require-imports
        (require("../host/createHost") as { profileHost: typeof profileHost }).profileHost(profile, {
          env: this.env(),
          inputFiles,
          ...(this.mocks ? { mocks: this.mocks } : {}),
        }),
        this.options.inputValues ?? {},
      );
    if (!this.options.allInputs) return build;
    const all = [...profile.inputs.keys()];
    return (needs) => build({ ...needs, inputs: new Set([...needs.inputs, ...all]) });
  }

  /** The environment of tools and providers: the process's (or the given one), the client's variables on top. */
  env(): NodeJS.ProcessEnv {
    return { ...(this.options.env ?? process.env), ...this.options.clientEnv };
  }

  private requireText(): string {
    if (this.text === undefined) throw new Error("this session has no plan");
    return this.text;
  }

  private requireProfile(): HostProfile {
    if (!this.profile) throw new Error("this session has no host profile");
    return this.profile;
  }
}
