// One plan session: what every front end (the CLI's commands, the language server's runs and
// proposals, the debug adapter) starts from, once opened (openSession.ts: the plan read, the host
// profile loaded, the mocks and the secret mask): it holds the analysis policy and hands out
// `analysis` (check), `preflight`, `run` and `propose`. Nothing else assembles these. The session
// owns the mask: front ends pass what they show through `mask`.

import { resolve } from "node:path";
import { analyzePlanText, type AnalysisPolicy, type PlanAnalysis } from "../analysis";
import type { profileHost } from "../host/createHost";
import type { Mocks } from "../host/mocks";
import type { HostProfile } from "../host/profile";
import { sandboxNotice } from "../host/sandbox/toolSandbox";
import { createOpenAIChatProvider, openAIChatSpecProblem } from "../providers/openaiChat";
import type { ProposeResult } from "../providers/proposePlan";
import type { PolicyOptions } from "../run/pipeline";
import { environmentSecrets, type SecretMask } from "../mask/secretMask";
import type { BuiltHost, HostFactory, PreflightReport, RunHandle, RunReport, StartRunOptions } from "../run/startRun";
import { parsePlanDocument, type PlanDocument } from "../text/planDocument";
import { analysisPolicy, runPolicy } from "./analysisPolicy";
import type { RecordingStart, RecordRequest, SessionRecording } from "./runRecording";
import type { PlanSessionOptions } from "./sessionOptions";

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

  /**
   * What a run and `check --preflight` say once when the profile's tools will run without the
   * sandbox it prefers (host/sandbox/); undefined when they get it, or need none.
   */
  sandboxNotice(): string | undefined {
    return this.profile ? sandboxNotice(this.profile) : undefined;
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
      // eslint-disable-next-line @typescript-eslint/no-require-imports
      (require("../host/createHost") as { profileHost: typeof profileHost }).profileHost(profile, {
        env: this.env(),
        inputFiles,
        ...(this.options.inputValues ? { inputValues: this.options.inputValues } : {}),
        ...(this.mocks ? { mocks: this.mocks } : {}),
      });
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
