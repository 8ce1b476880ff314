// Over 400 lines because the session is the one door to a run and every method is a thin delegation
// (the run's life, forks and pins live in runLife.ts, runFork.ts and host/lock/).
// One plan session: what every front end (the CLI's commands, the language server's runs and
// proposals, the debug adapter) starts from, once opened (openSession.ts: the plan read, the host
// profile loaded, the mocks and the secret mask): it holds the analysis policy and hands out
// `analysis` (check), `preflight`, `run` (and `resume`, `replay`, `fork`) and `propose`. Nothing else
// assembles these. The session owns the mask: front ends pass what they show through `mask`. It
// owns a run's life too: every run it starts is recorded and traced as the profile and the user
// say (runLife.ts), whichever front end starts it.

import { approvalForecast, type ApprovalForecast } from "../host/approvalSteps";
import { resolve } from "node:path";
import { analyzePlanText, type AnalysisPolicy, type PlanAnalysis } from "../analysis";
import type { profileHost } from "../host/createHost";
import { parseMocks, type Mocks } from "../host/mocks";
import type { HostProfile } from "../host/profile";
import { sandboxNotice, sandboxWanted } from "../host/sandbox/toolSandbox";
import { sandboxAvailabilitySoon } from "../host/sandbox/sandboxProbe";
import { lockNotice } from "../host/lock/lockFormat";
import type { PinOutcome } from "../host/lock/pinProfile";
import { createOpenAIChatProvider, openAIChatSpecProblem } from "../providers/openaiChat";
import type { ProposeResult } from "../providers/proposePlan";
import type { PolicyOptions } from "../run/pipeline";
import { environmentSecrets, type SecretMask } from "../mask/secretMask";
import type { BuiltHost, HostFactory, PreflightReport, RunReport, StartRunOptions } from "../run/startRun";
import type { ForkRequest, ForkStart } from "./runFork";
import type { RecordedScope } from "./recordedScope";
import type { JsonPath } from "../json";
import type { StepRequest, StepStart } from "./stepRun";
import { parsePlanDocument, type PlanDocument } from "../text/planDocument";
import { MAX_HOST_PROFILE_BYTES, readTextFileSync } from "../text/boundedFile";
import { analysisPolicy, runPolicy } from "./analysisPolicy";
import type { RecordedRun } from "./recordedRun";
import type { AttachedLife, RunLife, SessionRun } from "./runLife";
import type { PlanSessionOptions } from "./sessionOptions";

// What only a run, a preflight or a proposal needs is required on first use: a static check (the
// CLI's, the editor's) then loads no interpreter, context store, journal (node:crypto, SQLite) or
// provider prompt (ARCHITECTURE.md, "Start-up").
/* eslint-disable @typescript-eslint/no-require-imports */
const runModules = () => require("../run/startRun") as typeof import("../run/startRun");
const lifeModules = () => require("./runLife") as typeof import("./runLife");
const replayModules = () => require("../journal/replayRun") as typeof import("../journal/replayRun");
const forkModules = () => require("./runFork") as typeof import("./runFork");
const scopeModules = () => require("./recordedScope") as typeof import("./recordedScope");
const stepModules = () => require("./stepRun") as typeof import("./stepRun");
const replayRules = () => require("../journal/replay") as typeof import("../journal/replay");
const proposeModules = () => require("../providers/proposePlan") as typeof import("../providers/proposePlan");
/* eslint-enable @typescript-eslint/no-require-imports */

/** The checks a plain (static) `check` leaves to `check --preflight` and to a run's preflight. */
export const PREFLIGHT_ONLY_CHECKS: readonly string[] = Object.freeze([
  "MCP tool lists and argument schemas",
  "programs",
  "provider keys",
  "input files",
]);

const UNWATCHED: AttachedLife = { observers: [], recorded: undefined, store: undefined, trace: undefined };

/** What a session's run is given: the run pipeline's options, and who starts it (`life`). */
export type SessionRunOptions = Omit<StartRunOptions, "source" | "policy" | "host"> & {
  /** Who starts the run, and what the user opted out of: the session attaches the journal and the trace. */
  readonly life: RunLife;
  /** Sees the host the run built (a debugger's contexts). */
  readonly onHostBuilt?: (built: BuiltHost) => void;
};

/** A run with its journal entry and trace attached, not yet started. */
export interface PreparedRun {
  readonly recorded: SessionRun["recorded"];
  start(options: Omit<SessionRunOptions, "life">): SessionRun;
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
   * Runs the plan through the one run pipeline (startRun), recorded and traced as the profile and
   * `life` say (runLife.ts); `onHostBuilt` sees the host it built (a debugger's contexts).
   */
  run(options: SessionRunOptions): SessionRun {
    void this.probeSandbox();
    return this.prepareRun(options.life).start(options);
  }

  /**
   * A run with its journal entry and trace attached but not started: for a caller that needs to
   * know, before the run, where it is recorded (a test case whose cassette is derived from it).
   */
  prepareRun(life: RunLife): PreparedRun {
    // Only a resume can be refused: a new run's journal that cannot be opened is said, not fatal.
    const attached = lifeModules().attachLife(this, life);
    return this.prepared(attached.ok ? attached.life : UNWATCHED);
  }

  /**
   * Continues a recorded run that did not finish (recordedRun.ts' `openRecordedRun`): its
   * completed steps' calls answered from the journal, the rest run, into the same entry. Refused
   * when this session's plan or host profile is not the recorded one.
   */
  resume(
    recorded: RecordedRun,
    options: SessionRunOptions,
  ): { readonly ok: true; readonly run: SessionRun } | { readonly ok: false; readonly refusal: string } {
    const store = recorded.store;
    if (!store) return { ok: false, refusal: `run ${recorded.id}'s journal is not open to continue it` };
    void this.probeSandbox();
    const attached = lifeModules().attachLife(this, options.life, { store, point: recorded.point });
    if (!attached.ok) {
      store.close();
      return attached;
    }
    const parallel = options.parallel ?? recorded.options.parallel;
    // A fork resumed gets its new values again, as it first did.
    const rebind = recorded.options.rebinds ? forkModules().rebindsOf(recorded.options.rebinds) : [];
    return {
      ok: true,
      run: this.prepared(attached.life).start({
        ...options,
        ...(parallel ? { parallel } : {}),
        ...(rebind.length > 0 ? { rebind } : {}),
      }),
    };
  }

  /**
   * Replays a recorded run (`openRecordedRun(..., "replay")`) executing nothing: every tool and
   * provider mocked, every call answered from the journal. Not recorded as a run of its own.
   * Refused when this session's plan or host profile is not the recorded one.
   */
  replay(
    recorded: RecordedRun,
    options: SessionRunOptions,
  ): { readonly ok: true; readonly run: SessionRun } | { readonly ok: false; readonly refusal: string } {
    const journal = replayModules();
    const refusal = this.changedSince(recorded);
    if (refusal !== undefined) return { ok: false, refusal };
    const profile = this.requireProfile();
    const mocks = parseMocks(JSON.stringify(journal.replayMocks(recorded.point, profile)), `run ${recorded.id}`);
    if (!mocks.ok) return { ok: false, refusal: mocks.errors[0]?.message ?? "its calls cannot be replayed" };
    const { mocks: _mocks, ...rest } = this.options;
    const replaying = new PlanSession(
      rest,
      this.file,
      this.text,
      this.hostProfile,
      this.profile,
      this.mask,
      mocks.mocks,
    );
    const attached = lifeModules().attachLife(replaying, { ...options.life, journal: false });
    const replies = new journal.RecordedReplies(recorded.point, this.mask);
    const run = replaying
      .prepared(attached.ok ? attached.life : UNWATCHED)
      .start({ ...options, observers: [...(options.observers ?? []), replies] });
    return { ok: true, run };
  }

  /**
   * Runs the plan again from the step at `step` (the debugger's Restart Frame): the steps before
   * it answered from the recorded run's entry (nothing of them runs again), that step and what
   * follows for real. A run of its own, recorded and traced as every run is.
   */
  rerunFrom(recorded: RecordedRun, step: readonly (string | number)[], options: SessionRunOptions): SessionRun {
    const journal = replayModules();
    const replies = new journal.RecordedReplies(journal.callsBefore(recorded.point, step), this.mask, false);
    return this.run({ ...options, observers: [...(options.observers ?? []), replies] });
  }

  /**
   * A new run forked from a recorded one (finished, failed or interrupted) at a step: the steps
   * before it answered from the recorded run, that step and what follows run for real, with the
   * bindings given (runFork.ts). Recorded beside its parent, with the parent and the step.
   */
  fork(recorded: RecordedRun, fork: ForkRequest, options: SessionRunOptions): ForkStart {
    return forkModules().forkRun(this, recorded, fork, options);
  }

  /**
   * The bindings in scope at a step of a recorded run with the values the run had there, found by
   * replaying it (executing nothing) up to that step (recordedScope.ts): what a fork may set.
   */
  scopeAt(recorded: RecordedRun, at: JsonPath): Promise<RecordedScope> {
    return scopeModules().recordedScope(this, recorded, at);
  }

  /**
   * Runs the one step at `request.at` (a sub-plan step with its whole sub-plan) with the bindings
   * given as its scope, under this host profile as a run of the plan would be (stepRun.ts):
   * refused when a name it reads is not given or a name given is not in scope there. Recorded
   * with origin `step` (a test case's, `test`), labelled with the step's path.
   */
  runStep(request: StepRequest, options: SessionRunOptions): StepStart {
    return stepModules().runStep(this, request, options);
  }

  /** Why a recorded run is not this session's plan under this host profile, or undefined when it is. */
  changedSince(recorded: RecordedRun, purpose: "resume" | "fork" = "resume"): string | undefined {
    const { checkSameInputs, inputChange, ResumeRefusal } = replayRules();
    try {
      const hostText =
        this.hostProfile === undefined ? undefined : readTextFileSync(this.hostProfile, MAX_HOST_PROFILE_BYTES);
      const host =
        this.hostProfile !== undefined && hostText !== undefined
          ? { file: this.hostProfile, text: hostText }
          : undefined;
      if (purpose === "fork") {
        const change = inputChange(recorded.point, this.text ?? "", host);
        return change && this.mask.mask(change.message);
      }
      checkSameInputs(recorded.point, this.text ?? "", host);
      return undefined;
    } catch (error) {
      if (error instanceof ResumeRefusal) return this.mask.mask(error.message);
      return this.mask.mask(
        `the host profile cannot be read: ${error instanceof Error ? error.message : String(error)}`,
      );
    }
  }

  private prepared(life: AttachedLife): PreparedRun {
    return { recorded: life.recorded, start: (options) => this.started(options, life) };
  }

  private started(options: Omit<SessionRunOptions, "life"> & { life?: RunLife }, life: AttachedLife): SessionRun {
    const { onHostBuilt, life: _life, ...execute } = options;
    const probing = this.probeSandbox();
    const build = this.hostFactory();
    // The host's preflight and its first tool read the answer synchronously: it is in by then.
    const factory: HostFactory = probing
      ? async (needs) => {
          await probing;
          return build(needs);
        }
      : build;
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
      // The approval gate innermost: a call a watcher answers from a recorded run is not asked for again.
      observers: [...life.observers, ...(execute.observers ?? []), ...(life.gate ? [life.gate] : [])],
      source: { kind: "document", text: this.requireText(), document: this.document },
      policy: this.runPolicy,
      host,
    });
    const store = life.store;
    return {
      ...handle,
      done: store ? handle.done.finally(() => store.close()) : handle.done,
      recorded: life.recorded,
      settled: (signal) => life.trace?.settled(signal) ?? Promise.resolve(),
    };
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
  /**
   * The plan's steps that can need approval under the profile's rules and the worst-case number of
   * approvals (host/approvalSteps.ts); undefined when the plan cannot be read or the profile has none.
   */
  approvalForecast(): ApprovalForecast | undefined {
    const rules = this.profile?.approvals;
    const { plan, budget } = this.analysis();
    if (!rules || rules.length === 0 || !plan) return undefined;
    const costs = this.policy.costs;
    return approvalForecast(plan, rules, costs && budget ? { costs, budget } : undefined);
  }

  sandboxNotice(): string | undefined {
    return this.profile ? sandboxNotice(this.profile) : undefined;
  }

  /**
   * `rlm-plan lock`: fingerprints the profile's command tools, MCP servers (each started, asked and
   * stopped) and providers into rlmplan.lock.json beside it; a lock that differs is replaced only
   * with `update` (host/lock/pinProfile.ts).
   */
  pinTools(options: { readonly update: boolean }): Promise<PinOutcome> {
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    const { pinProfile } = require("../host/lock/pinProfile") as typeof import("../host/lock/pinProfile");
    return pinProfile(this.requireProfile(), { env: this.env(), update: options.update });
  }

  /** What `check --preflight` says once of a profile that names tools or providers and has no lock. */
  lockNotice(): string | undefined {
    return this.profile ? lockNotice(this.profile) : undefined;
  }

  /**
   * Asks bubblewrap in the background whether tools can be sandboxed here, when the profile's
   * tools would be (once a process): a run starts it before its journal is opened and its plan
   * checked, and its host waits for the answer, where a synchronous probe held the run's start.
   */
  private probeSandbox(): Promise<unknown> | undefined {
    return this.profile && sandboxWanted(this.profile) ? sandboxAvailabilitySoon() : undefined;
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
