// The rlm-plan debug adapter: one plan run per session, held before each step through the
// runtime's pause hooks. Breakpoints sit on steps; next/stepIn/stepOut follow nested plans
// (rlm, parallel branches, retry attempts); the call stack has one frame per nested plan; the
// console evaluates plan expressions with the runtime's evaluator, read-only. Terminating or
// disconnecting cancels the run and kills its tool processes before answering. A recorded run
// ("replay" in the launch) runs with every call answered from the run journal, executing nothing,
// and can be stepped backward and forward (timeTravel.ts). (Over 400 lines: one DAP session's
// request handlers, which share its state.)
// Over 400 lines because every DAP request of a session is handled here; not split yet (launch kinds and variables could go apart).

import {
  CapabilitiesEvent,
  ErrorDestination,
  InitializedEvent,
  LoggingDebugSession,
  OutputEvent,
  StoppedEvent,
  TerminatedEvent,
  ExitedEvent,
  Event,
  Source,
  Thread,
} from "@vscode/debugadapter";
import type { DebugProtocol } from "@vscode/debugprotocol";
import { basename, resolve as resolvePath } from "node:path";
import {
  operationName,
  parseDebugExpression,
  stepKey,
  type BuiltHost,
  type PlanError,
  type RunFrame,
  type RunOutcome,
  type StepLine,
  type StepPause,
  type Transition,
} from "@rlm-plan/core";
import { sessionMask } from "@rlm-plan/core/session";
import { Breakpoints } from "./breakpoints";
import { prepareLaunch, type LaunchArguments, type Prepared } from "./launch";
import { TimeTravel } from "./timeTravel";
import { callsBefore, JournalStore, RecordedReplies, recordedRun } from "@rlm-plan/core/journal";
import { steppingStops, stopReason, type StepMode, type Stepping } from "./stepping";
import { preview, VariableStore } from "./variables";

const THREAD_ID = 1;
/** How long launch waits for the client's configurationDone before running anyway. */
const CONFIGURATION_WAIT_MS = 10_000;

/** Exception breakpoint filters: error kinds, or every error. */
export const EXCEPTION_FILTERS: DebugProtocol.ExceptionBreakpointsFilter[] = [
  { filter: "tool_error", label: "Tool errors", description: "A tool failed or returned something that is not JSON" },
  { filter: "model_error", label: "Model errors", description: "A model provider failed" },
  { filter: "budget_exhausted", label: "Budget exhausted", description: "A step found its budget used up" },
  { filter: "all", label: "All errors", description: "Any step failure, also one a retry absorbs" },
];

interface Held {
  readonly pause: StepPause;
  readonly error: PlanError | undefined;
  readonly resume: (mode: StepMode) => void;
}

export class RlmPlanDebugSession extends LoggingDebugSession {
  private readonly breakpoints = new Breakpoints();
  private exceptionFilters = new Set<string>();
  private readonly variableStore = new VariableStore(() => this.created?.host.contexts);
  private configured!: () => void;
  private readonly configurationDone = new Promise<void>((resolve) => (this.configured = resolve));
  /** The host startRun built for the plan (its context store shows handles). */
  private created: BuiltHost | undefined;
  /** The run, until it has ended and its tool processes are gone. */
  private running: Promise<unknown> | undefined;
  private program = "";
  private steps = new Map<string, StepLine>();
  private cancel = new AbortController();
  /** The live run's journal entry (Restart Frame reads the steps before the restarted one from it). */
  private recorded: { readonly dir: string; readonly id: number } | undefined;
  /** A restart from a step: the run goes through the steps before it without stopping. */
  private restartAt: string | undefined;
  private prepared: Prepared | undefined;
  private countPausedTime = false;
  private stepping: Stepping = { mode: "continue", from: 0 };
  private pauseRequested = false;
  private held: Held | undefined;
  private noDebug = false;
  private ended = false;
  /** A replayed recorded run's steps as they were, to go back and forth through. */
  private travel: TimeTravel | undefined;

  /**
   * The output boundary: every event and response the adapter sends (output, variables,
   * evaluate results, stopped descriptions, the run's result) passes through the session's
   * mask; it starts with the environment's secrets and learns the launch's.
   */
  private readonly mask = sessionMask({ env: process.env });

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
      this.finish({
        ok: false,
        error: { phase: "execute", kind: "runtime_error", message: `internal error: ${errorText(error)}` },
        transitions: [],
        checkpoints: [],
        budget_remaining: { steps: 0, model_calls: 0, tool_calls: 0, context_ops: 0, output_bytes: 0 },
      }),
    );
  }

  private entryStop = false;
  private startedAt = 0;
  private hostProfile = "";

  private async run(prepared: Prepared, countPausedTime: boolean, replies?: RecordedReplies): Promise<void> {
    const dry = prepared.mocks ? ` (mocked: ${prepared.mocks})` : "";
    this.output("console", `rlm-plan: debugging ${this.program} with ${this.hostProfile}${dry}\n`);
    this.sendEvent(new Event("rlmPlan.started", { plan: this.program, hostProfile: this.hostProfile }));
    this.startedAt = performance.now();
    // Recorded in the workspace's run journal as every run is (the session's one way); a replay
    // of a recorded run is not a run of its own.
    const started = prepared.replay
      ? { ok: false as const }
      : prepared.session.record({
          origin: "debugger",
          ...(prepared.mocks ? { options: { mocks: resolvePath(prepared.mocks) } } : {}),
          onNotice: (message) => this.output("console", `rlm-plan: ${message}\n`),
        });
    const recording = started.ok ? started.recording : undefined;
    this.recorded = recording ? { dir: recording.store.dir, id: recording.recorder.runId } : undefined;
    if (recording)
      this.sendEvent(
        new Event("rlmPlan.journal", {
          dir: recording.store.dir,
          id: recording.recorder.runId,
          uid: recording.recorder.uid,
        }),
      );
    // The one run pipeline: check, build what the plan names, preflight, execute.
    const report = await prepared.session.run({
      recording,
      ...(prepared.replay ? { observers: [prepared.replay.observer] } : replies ? { observers: [replies] } : {}),
      onHostBuilt: (built) => (this.created = built),
      signal: this.cancel.signal,
      countPausedTime,
      // Stepping follows one branch after another: the call stack is one thread, and a branch
      // that pauses must not let its siblings spend the budget behind the user's back.
      parallel: "sequential",
      onTransition: (t) => this.transition(t),
      ...(this.noDebug
        ? {}
        : {
            beforeStep: (pause: StepPause) => this.beforeStep(pause),
            onStepFailed: (pause: StepPause, error: PlanError) => this.onStepFailed(pause, error),
          }),
    }).done;
    // A run cancelled to restart from a step ends quietly: the restarted run goes on.
    if (this.restartAt === undefined) this.finish(report.outcome, report.mocked);
  }

  /**
   * Restart Frame on a paused live run ("Restart From Step"): the run is cancelled and started
   * again, the steps before the frame's step answered from its journal entry (nothing of them
   * runs again), and it stops before that step; the step and what follows run for real.
   */
  protected override restartFrameRequest(
    response: DebugProtocol.RestartFrameResponse,
    args: DebugProtocol.RestartFrameArguments,
  ): void {
    this.answer(response, async () => {
      const at = this.frameStep(args.frameId);
      const recorded = this.recorded;
      const prepared = this.prepared;
      if (this.travel) return this.fail(response, "a recorded run is stepped, not restarted: use Step Back");
      if (!at || !this.held || !prepared)
        return this.fail(response, "the run is not paused at a step: stop at a breakpoint, then restart");
      if (!recorded) return this.fail(response, "this run is not recorded in a run journal, so it cannot restart");
      this.restartAt = stepKey(at);
      await this.stopRun();
      let replies: RecordedReplies;
      const store = JournalStore.openExisting(recorded.dir);
      try {
        if (!store) throw new Error(`there is no run journal in ${recorded.dir}`);
        replies = new RecordedReplies(callsBefore(recordedRun(store, recorded.id), at), this.mask, false);
      } catch (error) {
        this.restartAt = undefined;
        this.finish({
          ok: false,
          error: { phase: "execute", kind: "cancelled", message: `the run could not restart: ${errorText(error)}` },
          transitions: [],
          checkpoints: [],
          budget_remaining: { steps: 0, model_calls: 0, tool_calls: 0, context_ops: 0, output_bytes: 0 },
        });
        return this.sendResponse(response);
      } finally {
        store?.close();
      }
      this.cancel = new AbortController();
      this.stepping = { mode: "continue", from: 0 };
      this.sendResponse(response);
      this.output(
        "console",
        `rlm-plan: restarting from ${this.stepName(at)} (the steps before it from run ${recorded.id})\n`,
      );
      this.running = this.run(prepared, this.countPausedTime, replies);
    });
  }

  /** The step a call-stack frame is at (the ids stackTraceRequest gave). */
  private frameStep(frameId: number): RunFrame["path"] | undefined {
    const pause = this.held?.pause;
    if (!pause) return undefined;
    const frames = pause.frames;
    const i = frames.length - frameId;
    if (i < 0 || i >= frames.length) return undefined;
    return i === frames.length - 1 ? pause.path : (frames[i + 1] as Extract<RunFrame, { step: unknown }>).step;
  }

  private finish(outcome: RunOutcome, mocked = false): void {
    if (this.ended) return;
    this.ended = true;
    if (outcome.ok) {
      this.output("stdout", `${JSON.stringify(outcome.value, null, 2)}\n`);
      this.output("console", `rlm-plan: ok: ${outcome.transitions.length} steps\n`);
    } else {
      const e = outcome.error;
      this.output("stderr", `rlm-plan: run failed: ${e.message} [${e.phase}/${e.kind}]\n`);
    }
    // For the extension's run log and Plan Runs view: what `rlm-plan run --json` reports.
    this.sendEvent(
      new Event("rlmPlan.result", {
        ok: outcome.ok,
        ...(mocked ? { mocked: true } : {}),
        ...(outcome.ok ? { value: outcome.value } : { error: outcome.error }),
        checkpoints: outcome.checkpoints,
        budget_remaining: outcome.budget_remaining,
        elapsed_ms: Math.round(performance.now() - this.startedAt),
      }),
    );
    this.sendEvent(new ExitedEvent(outcome.ok ? 0 : 1));
    this.sendEvent(new TerminatedEvent());
  }

  private transition(t: Transition): void {
    const bind = t.bind === null ? "" : ` -> ${t.bind}`;
    this.output(
      "console",
      `${String(t.sequence).padStart(3)}  ${t.operation}${bind}  ${t.status}  ${t.duration_ms} ms\n`,
    );
    // For the extension's Plan Runs view; counters only, like every transition.
    this.sendEvent(new Event("rlmPlan.transition", t));
  }

  private output(category: "console" | "stdout" | "stderr", text: string): void {
    this.sendEvent(new OutputEvent(text, category));
  }

  private beforeStep(pause: StepPause): Promise<void> | undefined {
    this.travel?.reached(pause);
    if (this.restartAt !== undefined) {
      // A restarted run passes the steps before the restarted one without stopping.
      if (stepKey(pause.path) !== this.restartAt) return undefined;
      this.restartAt = undefined;
      return this.hold(pause, undefined, new StoppedEvent("restart", THREAD_ID));
    }
    const depth = pause.frames.length;
    if (this.pauseRequested || steppingStops(this.stepping, depth)) {
      const mode = this.pauseRequested ? "pause" : this.stepping.mode;
      this.pauseRequested = false;
      const reason = this.entryStop ? "entry" : stopReason(mode);
      this.entryStop = false;
      return this.hold(pause, undefined, new StoppedEvent(reason, THREAD_ID));
    }
    this.entryStop = false;
    const hit = this.breakpoints.check(this.program, pause);
    if (hit.stop) {
      const event = new StoppedEvent("breakpoint", THREAD_ID) as DebugProtocol.StoppedEvent;
      event.body.hitBreakpointIds = [...hit.ids];
      return this.hold(pause, undefined, event);
    }
    if (hit.conditionError)
      this.output("stderr", `breakpoint condition at ${this.stepName(pause.path)}: ${hit.conditionError}\n`);
    return undefined;
  }

  private onStepFailed(pause: StepPause, error: PlanError): Promise<void> | undefined {
    if (!this.exceptionFilters.has("all") && !this.exceptionFilters.has(error.kind)) return undefined;
    const event = new StoppedEvent("exception", THREAD_ID, error.message) as DebugProtocol.StoppedEvent;
    event.body.description = `${error.kind}: ${error.message}`;
    return this.hold(pause, error, event);
  }

  /** Stops the run before the paused step until a continue or step command. */
  private hold(pause: StepPause, error: PlanError | undefined, event: DebugProtocol.StoppedEvent): Promise<void> {
    return new Promise<void>((resolve) => {
      this.held = {
        pause,
        error,
        resume: (mode) => {
          this.held = undefined;
          this.variableStore.reset();
          this.stepping = { mode, from: pause.frames.length };
          resolve();
        },
      };
      this.sendEvent(event);
    });
  }

  private resume(response: DebugProtocol.Response, mode: StepMode): void {
    if (this.travel?.inThePast) return this.travelForward(response, mode);
    if (response.command === "continue")
      (response as DebugProtocol.ContinueResponse).body = { allThreadsContinued: true };
    this.sendResponse(response);
    if (this.held) this.held.resume(mode);
    else this.stepping = { mode, from: this.stepping.from };
  }

  protected override continueRequest(response: DebugProtocol.ContinueResponse): void {
    this.resume(response, "continue");
  }

  protected override nextRequest(response: DebugProtocol.NextResponse): void {
    this.resume(response, "next");
  }

  protected override stepInRequest(response: DebugProtocol.StepInResponse): void {
    this.resume(response, "stepIn");
  }

  protected override stepOutRequest(response: DebugProtocol.StepOutResponse): void {
    this.resume(response, "stepOut");
  }

  /** A recorded run, shown at an earlier step: forward through what was seen, then on with the replay. */
  private travelForward(response: DebugProtocol.Response, mode: StepMode): void {
    const travel = this.travel as TimeTravel;
    if (mode === "continue") {
      const hit = travel.forwardTo((pause) => this.breakpoints.has(this.program, pause.path));
      if (!hit) return this.resume(response, mode);
      (response as DebugProtocol.ContinueResponse).body = { allThreadsContinued: true };
      this.sendResponse(response);
      return this.showTravelled("breakpoint");
    }
    travel.forward();
    this.sendResponse(response);
    this.showTravelled("step");
  }

  private showTravelled(reason: string): void {
    this.variableStore.reset();
    this.sendEvent(new StoppedEvent(reason, THREAD_ID));
  }

  protected override stepBackRequest(response: DebugProtocol.StepBackResponse): void {
    if (!this.travel) return this.fail(response, "step back works in a recorded run (Debug Recorded Run)");
    if (!this.held) return this.fail(response, "the run is not paused");
    this.travel.back();
    this.sendResponse(response);
    this.showTravelled("step");
  }

  protected override reverseContinueRequest(response: DebugProtocol.ReverseContinueResponse): void {
    if (!this.travel) return this.fail(response, "reverse continue works in a recorded run (Debug Recorded Run)");
    if (!this.held) return this.fail(response, "the run is not paused");
    const hit = this.travel.backTo((pause) => this.breakpoints.has(this.program, pause.path));
    this.sendResponse(response);
    this.showTravelled(hit ? "breakpoint" : "entry");
  }

  /** The pause the views show: an earlier step of a recorded run, or where the run is held. */
  private viewed(): { pause: StepPause; error: PlanError | undefined } | undefined {
    if (this.travel?.inThePast) {
      const pause = this.travel.current;
      return pause ? { pause, error: undefined } : undefined;
    }
    return this.held;
  }

  protected override pauseRequest(response: DebugProtocol.PauseResponse): void {
    // The run stops before its next step (a running tool or model call finishes first).
    if (!this.held) this.pauseRequested = true;
    this.sendResponse(response);
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
    response.body = { threads: [new Thread(THREAD_ID, `plan ${basename(this.program) || "run"}`)] };
    this.sendResponse(response);
  }

  /** One frame per nested plan, innermost first, each at the step that plan is running. */
  protected override stackTraceRequest(response: DebugProtocol.StackTraceResponse): void {
    const pause = this.viewed()?.pause;
    if (!pause) {
      response.body = { stackFrames: [], totalFrames: 0 };
      this.sendResponse(response);
      return;
    }
    const frames = pause.frames;
    const source = new Source(basename(this.program), this.convertDebuggerPathToClient(this.program));
    const stackFrames: DebugProtocol.StackFrame[] = frames
      .map((frame, i) => {
        const at = i === frames.length - 1 ? pause.path : (frames[i + 1] as Extract<RunFrame, { step: unknown }>).step;
        const line = this.steps.get(stepKey(at));
        return {
          id: frames.length - i,
          name: `${frameName(frame, this.steps)}: ${this.stepName(at)}`,
          source,
          line: this.convertDebuggerLineToClient(line?.line ?? 0),
          column: this.convertDebuggerColumnToClient(line?.column ?? 0),
        };
      })
      .reverse();
    response.body = { stackFrames, totalFrames: stackFrames.length };
    this.sendResponse(response);
  }

  protected override scopesRequest(response: DebugProtocol.ScopesResponse): void {
    const viewed = this.viewed();
    response.body = { scopes: viewed ? this.variableStore.scopes(viewed.pause, viewed.error) : [] };
    this.sendResponse(response);
  }

  protected override variablesRequest(
    response: DebugProtocol.VariablesResponse,
    args: DebugProtocol.VariablesArguments,
  ): void {
    this.answer(response, async () => {
      response.body = { variables: this.held ? await this.variableStore.variables(args.variablesReference) : [] };
      this.sendResponse(response);
    });
  }

  /** Evaluates a plan expression in the paused step's scope: `name.field` or `{"ref": ...}` JSON. */
  protected override evaluateRequest(
    response: DebugProtocol.EvaluateResponse,
    args: DebugProtocol.EvaluateArguments,
  ): void {
    this.answer(response, () => this.evaluate(response, args));
  }

  private async evaluate(
    response: DebugProtocol.EvaluateResponse,
    args: DebugProtocol.EvaluateArguments,
  ): Promise<void> {
    // The step shown: after Step Back in a recorded run, an earlier one (its bindings as they were).
    const shown = this.held ? this.viewed() : undefined;
    if (!shown) return this.fail(response, "the run is not paused: pause it or stop at a breakpoint to evaluate");
    const parsed = parseDebugExpression(args.expression);
    if (!parsed.ok) return this.fail(response, parsed.message);
    const result = shown.pause.evaluate(parsed.expr);
    if (!result.ok) return this.fail(response, result.error.message);
    const variable = await this.variableStore.variable("result", result.value);
    response.body = {
      result: variable.value,
      variablesReference: variable.variablesReference,
      ...(variable.type ? { type: variable.type } : {}),
    };
    this.sendResponse(response);
  }

  protected override exceptionInfoRequest(response: DebugProtocol.ExceptionInfoResponse): void {
    const error = this.held?.error;
    if (!error) return this.fail(response, "the run did not stop on an error");
    response.body = {
      exceptionId: error.kind,
      description: error.message,
      breakMode: this.exceptionFilters.has("all") ? "always" : "userUnhandled",
      details: {
        message: error.message,
        typeName: `${error.phase}/${error.kind}`,
        stackTrace: preview({ ...error } as never),
      },
    };
    this.sendResponse(response);
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
  private async stopRun(): Promise<void> {
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

  private stepName(path: readonly (string | number)[]): string {
    const line = this.steps.get(stepKey(path));
    if (!line) return path.join(".");
    const step = line.step;
    return `${operationName(step)}${"bind" in step ? ` -> ${step.bind}` : ""}`;
  }

  private fail(response: DebugProtocol.Response, message: string): void {
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

function errorText(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

function frameName(frame: RunFrame, steps: ReadonlyMap<string, StepLine>): string {
  if (frame.kind === "root") return "plan";
  const opener = steps.get(stepKey(frame.step))?.step;
  const bind = opener && "bind" in opener ? ` ${opener.bind}` : "";
  switch (frame.kind) {
    case "rlm":
      return `rlm${bind}`;
    case "branch":
      return `parallel${bind} branch ${frame.branch}`;
    case "attempt":
      return `retry${bind} attempt ${frame.attempt}/${frame.attempts}`;
  }
}
