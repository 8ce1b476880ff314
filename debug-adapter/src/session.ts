// The rlm-plan debug adapter: one plan run per session, held before each step through the
// runtime's pause hooks. Breakpoints sit on steps; next/stepIn/stepOut follow nested plans
// (rlm, parallel branches, retry attempts); the call stack has one frame per nested plan; the
// console evaluates plan expressions with the runtime's evaluator, read-only. Terminating or
// disconnecting cancels the run and kills its tool processes before answering. A call held for
// approval is a stop; Continue waits for the decision, then resumes (pendingApproval.ts). A
// recorded run ("replay" in the launch) runs with every call answered from the run journal,
// executing nothing, and can be stepped backward and forward (timeTravel.ts). This file holds the
// session's state, the launch and the run; each group of requests is handled beside it
// (inspection.ts, stops.ts, restart.ts, runEvents.ts) over the state sessionState.ts describes.

import {
  CapabilitiesEvent,
  ErrorDestination,
  InitializedEvent,
  LoggingDebugSession,
  OutputEvent,
  TerminatedEvent,
} from "@vscode/debugadapter";
import type { DebugProtocol } from "@vscode/debugprotocol";
import { resolve as resolvePath } from "node:path";
import { stepKey, type StepLine } from "@rlm-plan/core/debug";
import { type BuiltHost, type RunObserver, type StepPause } from "@rlm-plan/core/run";
import { type PlanError, type RunOutcome } from "@rlm-plan/core";
import { sessionMask, type SessionRunOptions } from "@rlm-plan/core/session";
import { Breakpoints } from "./breakpoints";
import * as inspection from "./inspection";
import { prepareLaunch, type LaunchArguments, type Prepared } from "./launch";
import { restartFrame, sessionRunOf } from "./restart";
import { followRun } from "./pendingApproval";
import { finishRun, reportJournal, reportRunEvent, reportStarted } from "./runEvents";
import { errorText, failedOutcome, type Held, type RestartFrom, type SessionState } from "./sessionState";
import type { Stepping } from "./stepping";
import * as stops from "./stops";
import { TimeTravel } from "./timeTravel";
import { VariableStore } from "./variables";

/** How long launch waits for the client's configurationDone before running anyway. */
const CONFIGURATION_WAIT_MS = 10_000;

/** Exception breakpoint filters: error kinds, or every error. */
export const EXCEPTION_FILTERS: DebugProtocol.ExceptionBreakpointsFilter[] = [
  { filter: "tool_error", label: "Tool errors", description: "A tool failed or returned something that is not JSON" },
  { filter: "model_error", label: "Model errors", description: "A model provider failed" },
  { filter: "budget_exhausted", label: "Budget exhausted", description: "A step found its budget used up" },
  { filter: "all", label: "All errors", description: "Any step failure, also one a retry absorbs" },
];

export class RlmPlanDebugSession extends LoggingDebugSession implements SessionState {
  // The state the request handlers beside this file share (sessionState.ts says what each is).
  readonly breakpoints = new Breakpoints();
  exceptionFilters = new Set<string>();
  readonly variableStore = new VariableStore(() => this.created?.host.contexts);
  private configured!: () => void;
  private readonly configurationDone = new Promise<void>((resolve) => (this.configured = resolve));
  /** The host startRun built for the plan (its context store shows handles). */
  private created: BuiltHost | undefined;
  /** The run, until it has ended and its tool processes are gone. */
  running: Promise<unknown> | undefined;
  program = "";
  steps = new Map<string, StepLine>();
  cancel = new AbortController();
  recorded: { readonly dir: string; readonly id: number } | undefined;
  restartAt: string | undefined;
  prepared: Prepared | undefined;
  countPausedTime = false;
  stepping: Stepping = { mode: "continue", from: 0 };
  pauseRequested = false;
  held: Held | undefined;
  private noDebug = false;
  ended = false;
  travel: TimeTravel | undefined;
  entryStop = false;
  startedAt = 0;
  passing = { seen: 0, skip: 0, heldAt: 0 };
  private hostProfile = "";

  /**
   * The output boundary: every event and response the adapter sends (output, variables,
   * evaluate results, stopped descriptions, the run's result) passes through the session's
   * mask; it starts with the environment's secrets and learns the launch's.
   */
  readonly mask = sessionMask({ env: process.env });

  constructor() {
    super();
    this.setDebuggerLinesStartAt1(false);
    this.setDebuggerColumnsStartAt1(false);
  }

  /**
   * A message as the framer hands it: anything but a request with a string command and a numeric
   * seq is ignored (said on stderr); what a request's handler throws is its error response.
   */
  override handleMessage(message: DebugProtocol.ProtocolMessage): void {
    const m = message as Partial<DebugProtocol.Request>;
    if (m.type === "response") return super.handleMessage(message);
    if (m.type !== "request" || typeof m.command !== "string" || typeof m.seq !== "number") {
      process.stderr.write("rlm-plan-debug-adapter: a message that is not a request was ignored\n");
      return;
    }
    super.handleMessage(message);
  }

  override sendEvent(event: DebugProtocol.Event): void {
    // Guarded: the base class may send before the field is set.
    super.sendEvent(this.mask === undefined ? event : this.mask.maskValue(event));
  }

  override sendResponse(response: DebugProtocol.Response): void {
    super.sendResponse(this.mask === undefined ? response : this.mask.maskValue(response));
  }

  protected override initializeRequest(response: DebugProtocol.InitializeResponse): void {
    response.body = {
      ...response.body,
      supportsConfigurationDoneRequest: true,
      supportsConditionalBreakpoints: true,
      supportsHitConditionalBreakpoints: true,
      supportsEvaluateForHovers: false,
      supportsExceptionInfoRequest: true,
      supportsTerminateRequest: true,
      supportsRestartFrame: true,
      supportTerminateDebuggee: true,
      supportsSteppingGranularity: false,
      exceptionBreakpointFilters: EXCEPTION_FILTERS,
    };
    this.sendResponse(response);
    this.sendEvent(new InitializedEvent());
  }

  protected override configurationDoneRequest(response: DebugProtocol.ConfigurationDoneResponse): void {
    this.configured();
    this.sendResponse(response);
  }

  protected override launchRequest(response: DebugProtocol.LaunchResponse, args: LaunchArguments): void {
    this.answer(response, () => this.launch(response, args));
  }

  private async launch(response: DebugProtocol.LaunchResponse, args: LaunchArguments): Promise<void> {
    const prepared = await prepareLaunch(args, this.mask);
    if ("error" in prepared) {
      this.sendErrorResponse(
        response,
        { id: 1001, format: prepared.error, showUser: true },
        undefined,
        undefined,
        ErrorDestination.User,
      );
      this.sendEvent(new TerminatedEvent());
      return;
    }
    this.program = prepared.file;
    this.hostProfile = prepared.hostProfile;
    this.steps = new Map(prepared.steps.map((s) => [stepKey(s.path), s]));
    this.noDebug = args.noDebug === true && !prepared.replay;
    if (prepared.replay) {
      this.travel = new TimeTravel();
      this.sendEvent(new CapabilitiesEvent({ supportsStepBack: true }));
    }
    if (args.stopOnEntry && !this.noDebug) this.stepping = { mode: "pause", from: 0 };
    this.sendResponse(response);
    await Promise.race([this.configurationDone, new Promise((r) => setTimeout(r, CONFIGURATION_WAIT_MS).unref())]);
    this.entryStop = args.stopOnEntry === true;
    this.prepared = prepared;
    this.countPausedTime = args.countPausedTime === true;
    this.running = this.run(prepared, args.countPausedTime === true).catch((error: unknown) =>
      // executePlan never throws; this is the adapter's own failure, reported like a run's.
      this.finish(failedOutcome("runtime_error", `internal error: ${errorText(error)}`)),
    );
  }

  async run(prepared: Prepared, countPausedTime: boolean, restart?: RestartFrom): Promise<void> {
    const dry = prepared.mocks ? ` (mocked: ${prepared.mocks})` : "";
    this.output("console", `rlm-plan: debugging ${this.program} with ${this.hostProfile}${dry}\n`);
    reportStarted(this, {
      plan: this.program,
      hostProfile: this.hostProfile,
      ...(prepared.mocks ? { mocks: resolvePath(prepared.mocks) } : {}),
    });
    this.startedAt = performance.now();
    this.passing = { seen: 0, skip: 0, heldAt: 0 };
    // The session records the run in the workspace's journal and traces it, as every run is; a
    // replay of a recorded run is not a run of its own (the session's `replay` records nothing).
    // The run's whole event stream goes to the client, as a language server's run sends it
    // (transitions among it).
    const forwarded: RunObserver = { event: (event) => reportRunEvent(this, event) };
    const options: SessionRunOptions = {
      life: {
        origin: "debugger",
        // This process waits for the approvers itself: a vote from elsewhere leaves it the resume.
        given: { wait: true, ...(prepared.mocks ? { mocks: resolvePath(prepared.mocks) } : {}) },
        onNotice: (message) => this.output("console", `rlm-plan: ${message}\n`),
      },
      observers: [forwarded],
      onHostBuilt: (built) => (this.created = built),
      signal: this.cancel.signal,
      countPausedTime,
      // Stepping follows one branch after another: the call stack is one thread, and a branch
      // that pauses must not let its siblings spend the budget behind the user's back.
      parallel: "sequential",
      ...(this.noDebug
        ? {}
        : {
            beforeStep: (pause: StepPause) => stops.beforeStep(this, pause),
            onStepFailed: (pause: StepPause, error: PlanError) => stops.onStepFailed(this, pause, error),
          }),
    };
    const started = sessionRunOf(prepared, options, restart);
    if (!started.ok) {
      this.finish(
        failedOutcome(
          "runtime_error",
          restart?.fork
            ? `run ${restart.recorded.id} cannot be forked: ${started.refusal}`
            : `run ${prepared.replay?.run ?? ""} cannot be replayed: ${started.refusal}`,
        ),
      );
      return;
    }
    const { run } = started;
    this.recorded = run.recorded ? { dir: run.recorded.dir, id: run.recorded.id } : undefined;
    if (run.recorded) reportJournal(this, { ...run.recorded });
    await followRun(this, run, prepared, options);
  }

  protected override restartFrameRequest(
    response: DebugProtocol.RestartFrameResponse,
    args: DebugProtocol.RestartFrameArguments,
  ): void {
    this.answer(response, () => restartFrame(this, response, args));
  }

  finish(outcome: RunOutcome, mocked = false, location?: { readonly line: number; readonly column: number }): void {
    finishRun(this, outcome, mocked, location);
  }

  output(category: "console" | "stdout" | "stderr", text: string): void {
    this.sendEvent(new OutputEvent(text, category));
  }

  protected override continueRequest(response: DebugProtocol.ContinueResponse): void {
    stops.resume(this, response, "continue");
  }

  protected override nextRequest(response: DebugProtocol.NextResponse): void {
    stops.resume(this, response, "next");
  }

  protected override stepInRequest(response: DebugProtocol.StepInResponse): void {
    stops.resume(this, response, "stepIn");
  }

  protected override stepOutRequest(response: DebugProtocol.StepOutResponse): void {
    stops.resume(this, response, "stepOut");
  }

  protected override stepBackRequest(response: DebugProtocol.StepBackResponse): void {
    stops.stepBack(this, response);
  }

  protected override reverseContinueRequest(response: DebugProtocol.ReverseContinueResponse): void {
    stops.reverseContinue(this, response);
  }

  protected override pauseRequest(response: DebugProtocol.PauseResponse): void {
    stops.pause(this, response);
  }

  viewed(): { pause: StepPause; error: PlanError | undefined } | undefined {
    if (this.travel?.inThePast) {
      const pause = this.travel.current;
      return pause ? { pause, error: undefined } : undefined;
    }
    return this.held;
  }

  protected override setBreakPointsRequest(
    response: DebugProtocol.SetBreakpointsResponse,
    args: DebugProtocol.SetBreakpointsArguments,
  ): void {
    const file = args.source.path ? this.convertClientPathToDebugger(args.source.path) : "";
    const answered = this.breakpoints.set(file, args.breakpoints ?? [], (line) =>
      this.convertClientLineToDebugger(line),
    );
    response.body = {
      breakpoints: answered.map((bp) => ({
        ...bp,
        ...(bp.line !== undefined ? { line: this.convertDebuggerLineToClient(bp.line) } : {}),
        ...(bp.column !== undefined ? { column: this.convertDebuggerColumnToClient(bp.column) } : {}),
        source: args.source,
      })),
    };
    this.sendResponse(response);
  }

  protected override setExceptionBreakPointsRequest(
    response: DebugProtocol.SetExceptionBreakpointsResponse,
    args: DebugProtocol.SetExceptionBreakpointsArguments,
  ): void {
    this.exceptionFilters = new Set(args.filters);
    this.sendResponse(response);
  }

  protected override threadsRequest(response: DebugProtocol.ThreadsResponse): void {
    inspection.threads(this, response);
  }

  protected override stackTraceRequest(response: DebugProtocol.StackTraceResponse): void {
    inspection.stackTrace(this, response);
  }

  protected override scopesRequest(response: DebugProtocol.ScopesResponse): void {
    inspection.scopes(this, response);
  }

  protected override variablesRequest(
    response: DebugProtocol.VariablesResponse,
    args: DebugProtocol.VariablesArguments,
  ): void {
    this.answer(response, () => inspection.variables(this, response, args));
  }

  protected override evaluateRequest(
    response: DebugProtocol.EvaluateResponse,
    args: DebugProtocol.EvaluateArguments,
  ): void {
    this.answer(response, () => inspection.evaluate(this, response, args));
  }

  protected override exceptionInfoRequest(response: DebugProtocol.ExceptionInfoResponse): void {
    inspection.exceptionInfo(this, response);
  }

  protected override terminateRequest(response: DebugProtocol.TerminateResponse): void {
    this.answer(response, async () => {
      await this.stopRun();
      this.sendResponse(response);
    });
  }

  protected override disconnectRequest(
    response: DebugProtocol.DisconnectResponse,
    args: DebugProtocol.DisconnectArguments,
    request?: DebugProtocol.Request,
  ): void {
    this.answer(response, async () => {
      await this.stopRun();
      super.disconnectRequest(response, args, request);
    });
  }

  /** Runs an asynchronous handler: its failure is an error response, never an unhandled rejection. */
  private answer(response: DebugProtocol.Response, work: () => Promise<void>): void {
    work().catch((error: unknown) => this.fail(response, `internal error: ${errorText(error)}`));
  }

  /** Cancels the run (a held run too) and waits until its tool processes are gone. */
  async stopRun(): Promise<void> {
    this.cancel.abort();
    const held = this.held;
    this.held = undefined;
    held?.resume("continue");
    // startRun closes the host when the run ends: its tool processes are gone then.
    await this.running;
  }

  /** The client went away without a disconnect (stdin closed): kill tools before exiting. */
  override shutdown(): void {
    this.cancel.abort();
    this.created?.kill?.();
    super.shutdown();
  }

  toClientLine(line: number): number {
    return this.convertDebuggerLineToClient(line);
  }

  toClientColumn(column: number): number {
    return this.convertDebuggerColumnToClient(column);
  }

  toClientPath(path: string): string {
    return this.convertDebuggerPathToClient(path);
  }

  fail(response: DebugProtocol.Response, message: string): void {
    this.sendErrorResponse(response, {
      id: 1002,
      // Braces as written: the format's placeholders are {name} with no quote in them, which a
      // plan expression's JSON ({"ref": ...}) never is, so clients show it unchanged.
      format: message,
      variables: {},
      showUser: false,
    });
  }
}
