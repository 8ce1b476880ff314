// Executes a validated plan against a host. Counters (steps, calls, context operations, output
// bytes) are global to the run and shared by nested plans, branches and retry attempts; a
// failed attempt's consumption, transitions and checkpoints stay. The wall-time limit and
// cancellation cover the whole run and abort the signal handed to tools and providers.
// Parallel branches run one after another (`sequential`, the reference's order) or up to
// max_parallel at once (`concurrent`): every counter is checked and spent synchronously, so
// concurrent branches share the budget exactly, and the first branch to fail cancels the rest.
// Time a debugger's hook holds the run is left out of the run's clock by default (see pause.ts).

import { ContextHandle } from "../context/store";
import { jsonObjectFrom, newJsonObject, ownValue, setOwn, type JsonPath, type JsonValue } from "../json";
import { MAX_JSON_DEPTH } from "../text/jsonText";
import type { SourceRange } from "../text/planDocument";
import {
  type ContextStep,
  type Expr,
  type ModelStep,
  type ParallelStep,
  type Plan,
  type RetryStep,
  type Step,
  type ToolStep,
} from "../plan/ast";
import { stepInputs } from "../plan/walk";
import type { Budget } from "../plan/budget";
import { formatCapability, requiredCapability } from "../plan/capabilities";
import { isPlainObject } from "../plan/normalize";
import { quoted } from "../plan/problems";
import type { ValidatedPlan } from "../plan/validate";
import { FATAL_KINDS, fail, RunFailure, safeErrorText, type PlanError } from "./errors";
import {
  MAX_EVENT_MESSAGE_CHARS,
  type EventError,
  type ParallelMode,
  type RunEvent,
  type StepIdentity,
} from "./events";
import type { InputOpener, ModelRequest, RunHost } from "./host";
import type { CallInterceptor } from "./observer";
import type { PauseHooks, RunFrame, StepPause } from "./pause";
import { jsonByteLength } from "./outputMeasure";
import { preflightPlan } from "./preflight";
import type { BudgetRemaining, RunOutcome, RuntimeCounter, StepStarted, Transition } from "./transitions";

/** Real runs overlap parallel branches; the conformance runner asks for the reference's order. */
export const DEFAULT_PARALLEL_MODE: ParallelMode = "concurrent";

export interface ExecuteOptions extends PauseHooks {
  readonly signal?: AbortSignal;
  /** Called as each step completes, in sequence order. Exceptions thrown here are ignored. */
  readonly onTransition?: (transition: Transition) => void;
  readonly onStepStart?: (event: StepStarted) => void;
  /** The rich event stream (step identity, attempts, failures). Exceptions thrown here are ignored. */
  readonly onEvent?: (event: RunEvent) => void;
  /**
   * The run's secret mask: an event's error message passes through it before any listener sees
   * it (a tool's error may quote its output). Output boundaries mask again whatever they print.
   */
  readonly mask?: { mask(text: string): string };
  /** Where a step is in the plan's file, for events (runs started from a document). */
  readonly rangeOf?: (path: JsonPath) => SourceRange | undefined;
  /** Overrides budget fields for this run only (the reference's runtime budget). */
  readonly budget?: Partial<Budget>;
  /** How parallel branches run; default DEFAULT_PARALLEL_MODE. */
  readonly parallel?: ParallelMode;
  /** Wraps every model and tool call (the run journal records them, a resumed run replays them). */
  readonly calls?: CallInterceptor;
  /** Run time spent before this execution (a resumed run's earlier part): the time limit counts it. */
  readonly elapsedBeforeMs?: number;
}

type StepResult = { readonly final: false } | { readonly final: true; readonly value: JsonValue };
const CONTINUE: StepResult = { final: false };

/** Where a step runs: its scope, its nesting, its retry attempt and the signal of its branch. */
interface Frame {
  readonly vars: Map<string, unknown>;
  readonly depth: number;
  readonly attempt: number | undefined;
  /** Aborted when the run stops or a sibling branch fails. */
  readonly signal: AbortSignal;
  /** Host calls of this frame's branch still settling, awaited when a sibling's failure cancels it. */
  readonly pending: Set<Promise<unknown>>;
  /** The nested plans this frame is inside, outermost first (what a debugger shows as frames). */
  readonly frames: readonly RunFrame[];
}

/** How a branch cancelled by a failing sibling unwinds; the parallel step reports the sibling's error. */
const SIBLING_FAILED: PlanError = {
  phase: "execute",
  kind: "cancelled",
  message: "the branch was cancelled because a sibling branch failed",
};

export async function executePlan(
  validated: ValidatedPlan,
  host: RunHost,
  options: ExecuteOptions = {},
): Promise<RunOutcome> {
  const budget = { ...validated.budget, ...options.budget };
  const run = new Run(host, budget, options);
  const preflight = preflightPlan(validated.plan, host);
  if (!preflight.ok) return run.outcomeOfError(preflight.errors[0] as PlanError);
  run.inputs = new Map(preflight.inputs);
  return run.execute(validated.plan);
}

class Run {
  inputs = new Map<string, unknown>();
  /** The root plan's scope: what a successful outcome reports as `vars`. */
  private readonly rootVars = new Map<string, unknown>();
  private readonly remaining: BudgetRemaining;
  private readonly transitions: Transition[] = [];
  private readonly checkpoints: string[] = [];
  private readonly started: number;
  private readonly controller = new AbortController();
  private stopError: PlanError | undefined;
  private readonly parallelMode: ParallelMode;
  // Debugger support (PauseHooks): the time spent held by a hook (the run's clock excludes it
  // unless countPausedTime), the time-limit timer, failures already reported.
  private pausedMs = 0;
  private timer: ReturnType<typeof setTimeout> | undefined;
  private readonly reported = new WeakSet<RunFailure>();
  /** Lazy inputs being opened or opened, so each is opened once even by concurrent branches. */
  private readonly opening = new Map<string, Promise<void>>();

  constructor(
    private readonly host: RunHost,
    private readonly budget: Budget,
    private readonly options: ExecuteOptions,
  ) {
    this.remaining = {
      steps: budget.max_steps,
      model_calls: budget.max_model_calls,
      tool_calls: budget.max_tool_calls,
      context_ops: budget.max_context_ops,
      output_bytes: budget.max_output_bytes,
    };
    this.parallelMode = options.parallel ?? DEFAULT_PARALLEL_MODE;
    this.started = performance.now() - Math.max(0, options.elapsedBeforeMs ?? 0);
  }

  async execute(plan: Plan): Promise<RunOutcome> {
    this.armTimer();
    const signal = this.options.signal;
    const onAbort = () => this.stop({ phase: "execute", kind: "cancelled", message: "the run was cancelled" });
    if (signal?.aborted) onAbort();
    else signal?.addEventListener("abort", onAbort, { once: true });
    const root: Frame = {
      vars: this.rootVars,
      depth: 1,
      attempt: undefined,
      signal: this.controller.signal,
      pending: new Set(),
      frames: [{ kind: "root", path: plan.path }],
    };
    try {
      const value = await this.plan(plan, root);
      return {
        ok: true,
        value,
        vars: jsonObjectFrom([...this.rootVars].map(([k, v]) => [k, v as JsonValue])),
        transitions: this.transitions,
        checkpoints: this.checkpoints,
        budget_remaining: { ...this.remaining },
      };
    } catch (error) {
      if (error instanceof RunFailure) return this.outcomeOfError(error.error);
      return this.outcomeOfError({
        phase: "execute",
        kind: "runtime_error",
        message: `internal error: ${safeErrorText(error)}`,
      });
    } finally {
      clearTimeout(this.timer);
      signal?.removeEventListener("abort", onAbort);
      this.controller.abort();
    }
  }

  outcomeOfError(error: PlanError): RunOutcome {
    return {
      ok: false,
      error,
      transitions: this.transitions,
      checkpoints: this.checkpoints,
      budget_remaining: { ...this.remaining },
    };
  }

  /** Run time: wall time minus the time hooks held the run (when paused time does not count). */
  private clock(): number {
    return performance.now() - this.pausedMs;
  }

  /** (Re)starts the time-limit timer for the run time left. */
  private armTimer(): void {
    clearTimeout(this.timer);
    const left = this.started + this.budget.time_limit * 1000 - this.clock();
    this.timer = setTimeout(
      () =>
        this.stop({
          phase: "execute",
          kind: "time_limit_exceeded",
          message: `the run exceeded its time limit of ${this.budget.time_limit} s`,
        }),
      Math.max(0, Math.min(left, 2 ** 31 - 1)),
    );
  }

  /**
   * Lets a debugger hook hold the run. The clock and the time-limit timer stop meanwhile (unless
   * countPausedTime); a stop (cancel) ends the wait; a hook's own failure is ignored.
   */
  private async hold(call: () => void | Promise<void>, frame: Frame): Promise<void> {
    let pending: void | Promise<void>;
    try {
      pending = call();
    } catch {
      return;
    }
    // A hook that returns nothing did not hold the run: no clock work on the hot path.
    if (!pending) return;
    const counted = this.options.countPausedTime === true;
    const from = performance.now();
    if (!counted) clearTimeout(this.timer);
    try {
      await this.guard(Promise.resolve(pending), frame);
    } catch (error) {
      if (error instanceof RunFailure) throw error;
    } finally {
      if (!counted) {
        this.pausedMs += performance.now() - from;
        this.armTimer();
      }
    }
  }

  private pauseAt(step: Step, frame: Frame): StepPause {
    const vars = frame.vars;
    const checkpoints = this.checkpoints;
    const count = checkpoints.length;
    return {
      path: step.path,
      step,
      frames: [...frame.frames],
      // Bindings and checkpoints are read when asked (a run with thousands of bindings does not
      // copy them before every step); like evaluate, they are the run's state while it is held.
      get bindings() {
        return vars as ReadonlyMap<string, JsonValue>;
      },
      inputs: this.inputs,
      unreadInputs: [...(this.host.lazyInputs?.keys() ?? [])].filter((name) => !this.inputs.has(name)),
      budget: { limits: this.budget, remaining: { ...this.remaining } },
      elapsedMs: this.clock() - this.started,
      get checkpoints() {
        return checkpoints.slice(0, count);
      },
      // Valid while the hook holds the run: it reads the scope the step is about to run in.
      evaluate: (expr) => {
        try {
          return { ok: true, value: this.resolve(expr, frame) };
        } catch (error) {
          if (error instanceof RunFailure) return { ok: false, error: error.error };
          throw error;
        }
      },
    };
  }

  /** Reports a step's failure to onStepFailed once, where it happened, before it unwinds. */
  private async failed(step: Step, error: unknown, frame: Frame): Promise<void> {
    const hook = this.options.onStepFailed;
    if (!hook || !(error instanceof RunFailure) || this.reported.has(error)) return;
    this.reported.add(error);
    if (this.stopError) return;
    await this.hold(() => hook(this.pauseAt(step, frame), error.error), frame);
  }

  private stop(error: PlanError): void {
    if (this.stopError) return;
    this.stopError = error;
    this.controller.abort();
  }

  /** Why a frame may not go on: the run stopped, or a sibling branch failed. */
  private halted(frame: Frame): PlanError | undefined {
    if (this.stopError) return this.stopError;
    return frame.signal.aborted ? SIBLING_FAILED : undefined;
  }

  /**
   * Waits for host work unless the run stops (or the frame's branch is cancelled) first. The
   * stop listener is removed as soon as the work settles, so a long run does not pile up
   * reactions on one pending promise. Work still settling is kept in the frame's `pending`.
   */
  private guard<T>(work: Promise<T>, frame: Frame): Promise<T> {
    const signal = frame.signal;
    const tracked = work.then(
      () => undefined,
      () => undefined,
    );
    frame.pending.add(tracked);
    void tracked.then(() => frame.pending.delete(tracked));
    return new Promise<T>((resolve, reject) => {
      const onStop = () => reject(new RunFailure(this.halted(frame) ?? SIBLING_FAILED));
      if (signal.aborted) return onStop();
      signal.addEventListener("abort", onStop, { once: true });
      work.then(
        (value) => {
          signal.removeEventListener("abort", onStop);
          resolve(value);
        },
        (error: unknown) => {
          signal.removeEventListener("abort", onStop);
          reject(error);
        },
      );
    });
  }

  /** Runs a plan's steps in `frame` until its final step. */
  private async plan(plan: Plan, frame: Frame): Promise<JsonValue> {
    for (const step of plan.steps) {
      const halted = this.halted(frame);
      if (halted) throw new RunFailure(halted);
      const beforeStep = this.options.beforeStep;
      if (beforeStep) await this.hold(() => beforeStep(this.pauseAt(step, frame)), frame);
      const result = await this.step(step, frame);
      if (result.final) return result.value;
    }
    // Unreachable for a validated plan; kept so a bad caller gets an error, not undefined.
    return fail({ phase: "execute", kind: "missing_final", message: "the plan ended without a final step" });
  }

  /** A child scope that sees the current one; its bindings are dropped after. */
  private nested(plan: Plan, frame: Frame, runFrame: RunFrame, changes: Partial<Frame> = {}): Promise<JsonValue> {
    return this.plan(plan, {
      ...frame,
      vars: new Map(frame.vars),
      depth: frame.depth + 1,
      frames: [...frame.frames, runFrame],
      ...changes,
    });
  }

  private identity(step: Step, frame: Frame): StepIdentity {
    const range = this.options.rangeOf?.(step.path);
    return {
      path: step.path,
      operation: operationName(step),
      bind: step.op === "checkpoint" || step.op === "final" ? null : step.bind,
      depth: frame.depth,
      ...(frame.attempt === undefined ? {} : { attempt: frame.attempt }),
      ...(range ? { range } : {}),
    };
  }

  private async step(step: Step, frame: Frame): Promise<StepResult> {
    const begun = this.clock();
    const identity = this.identity(step, frame);
    const { operation, bind } = identity;
    this.emit({ type: "step_started", ...identity, elapsed_ms: this.elapsed() });
    this.notify(() => this.options.onStepStart?.({ operation, bind, path: step.path, depth: frame.depth }));
    try {
      this.consume("steps");
      const counter = stepCounter(step);
      if (counter) this.consume(counter);
      await this.openInputs(step, frame);
      const result = await this.run(step, frame);
      this.record(identity, begun);
      return result;
    } catch (error) {
      if (!(error instanceof RunFailure)) throw error;
      // The innermost failing step names itself; enclosing steps pass its path on unchanged.
      const failure = error.error.path === undefined ? new RunFailure({ ...error.error, path: [...step.path] }) : error;
      if (failure !== error && this.reported.has(error)) this.reported.add(failure);
      await this.failed(step, failure, frame);
      this.emit({
        type: "step_failed",
        ...identity,
        elapsed_ms: this.elapsed(),
        duration_ms: Math.round(this.clock() - begun),
        remaining: { ...this.remaining },
        error: this.eventError(failure.error),
      });
      throw failure;
    }
  }

  private async run(step: Step, frame: Frame): Promise<StepResult> {
    switch (step.op) {
      case "context":
        this.bind(frame, step.bind, await this.context(step, frame));
        break;
      case "model":
        this.bind(frame, step.bind, await this.model(step, frame));
        break;
      case "tool":
        this.bind(frame, step.bind, await this.tool(step, frame));
        break;
      case "rlm":
        this.bind(
          frame,
          step.bind,
          await this.nested(step.plan, frame, { kind: "rlm", path: step.plan.path, step: step.path }),
        );
        break;
      case "parallel":
        this.bind(frame, step.bind, await this.parallel(step, frame));
        break;
      case "retry":
        this.bind(frame, step.bind, await this.retry(step, frame));
        break;
      case "checkpoint":
        this.checkpoints.push(step.label);
        break;
      case "final": {
        const value = this.resolve(step.value, frame);
        this.chargeOutput(value);
        return { final: true, value };
      }
    }
    return CONTINUE;
  }

  private async parallel(step: ParallelStep, frame: Frame): Promise<JsonValue[]> {
    const branches = step.plans;
    if (this.parallelMode === "sequential" || branches.length <= 1) {
      const values: JsonValue[] = [];
      for (const [i, branch] of branches.entries()) values.push(await this.nested(branch, frame, branchFrame(step, i)));
      return values;
    }
    const controllers = branches.map(() => new AbortController());
    const frames = controllers.map((controller): Partial<Frame> => ({
      signal: AbortSignal.any([frame.signal, controller.signal]),
      pending: new Set(),
    }));
    const values: JsonValue[] = new Array<JsonValue>(branches.length);
    let next = 0;
    let failure: { error: unknown } | undefined;
    const worker = async (): Promise<void> => {
      while (next < branches.length && !failure) {
        const i = next++;
        try {
          values[i] = await this.nested(branches[i] as Plan, frame, branchFrame(step, i), frames[i]);
        } catch (error) {
          if (failure) continue;
          failure = { error };
          controllers.forEach((controller, j) => j !== i && controller.abort());
        }
      }
    };
    const width = Math.min(Math.max(1, this.budget.max_parallel), branches.length);
    await Promise.all(Array.from({ length: width }, worker));
    if (!failure) return values;
    // Cancelled siblings' tools are gone (processes killed, requests aborted) before the step fails.
    const settling = frames.flatMap((f) => [...(f.pending ?? [])]);
    if (settling.length > 0 && !this.stopError) await this.guard(Promise.all(settling), frame).catch(() => undefined);
    throw failure.error;
  }

  private async retry(step: RetryStep, frame: Frame): Promise<JsonValue> {
    const identity = this.identity(step, frame);
    for (let attempt = 1; ; attempt++) {
      const begun = this.clock();
      try {
        const runFrame: RunFrame = {
          kind: "attempt",
          path: step.plan.path,
          step: step.path,
          attempt,
          attempts: step.attempts,
        };
        return await this.nested(step.plan, frame, runFrame, { attempt });
      } catch (error) {
        const fatal = !(error instanceof RunFailure) || FATAL_KINDS.has(error.error.kind);
        const retrying = !fatal && attempt < step.attempts;
        if (error instanceof RunFailure)
          this.emit({
            type: "attempt_failed",
            ...identity,
            attempt,
            attempts: step.attempts,
            retrying,
            elapsed_ms: this.elapsed(),
            duration_ms: Math.round(this.clock() - begun),
            remaining: { ...this.remaining },
            error: this.eventError(error.error),
          });
        if (!retrying) throw error;
      }
    }
  }

  /** Opens, once, the lazy inputs this step reads itself. */
  private async openInputs(step: Step, frame: Frame): Promise<void> {
    const lazy = this.host.lazyInputs;
    if (!lazy || lazy.size === 0) return;
    for (const { name } of stepInputs(step)) {
      if (this.inputs.has(name)) continue;
      const opener = lazy.get(name);
      if (!opener) continue;
      let opening = this.opening.get(name);
      if (!opening) {
        opening = this.open(name, opener);
        this.opening.set(name, opening);
      }
      await this.guard(opening, frame);
    }
  }

  private async open(name: string, opener: InputOpener): Promise<void> {
    try {
      const value = await opener();
      this.inputs.set(name, value);
    } catch (error) {
      fail({
        phase: "execute",
        kind: "input_unavailable",
        input: name,
        message: `input ${quoted(name)} could not be opened: ${safeErrorText(error)}`,
      });
    }
  }

  private async context(step: ContextStep, frame: Frame): Promise<JsonValue> {
    const handle = this.resolve(step.handle, frame);
    const contexts = this.host.contexts;
    const outcome = contexts
      ? await this.guard(contexts.run(handle, step.action, this.host.contextLimits, frame.signal), frame)
      : {
          ok: false as const,
          error: { operation: "resolve", kind: "invalid_handle", message: "the host has no context store" },
        };
    if (!outcome.ok) {
      return fail({
        phase: "execute",
        kind: "context_error",
        cause: jsonObjectFrom(Object.entries(outcome.error)),
        message: `context operation failed: ${outcome.error.message}`,
      });
    }
    return outcome.value;
  }

  private async model(step: ModelStep, frame: Frame): Promise<JsonValue> {
    const prompt = this.resolve(step.prompt, frame);
    if (typeof prompt !== "string") {
      return fail({
        phase: "execute",
        kind: "invalid_prompt",
        provider: step.provider,
        message: `the prompt for provider ${quoted(step.provider)} did not resolve to text`,
      });
    }
    const provider = this.host.providers?.get(step.provider);
    if (!provider) return fail(unregistered("unknown_provider", step.provider));
    const request: ModelRequest = { messages: [{ role: "user", content: prompt }], options: step.options };
    const invoke = () => provider.complete(request, { signal: frame.signal, provider: step.provider });
    const calls = this.options.calls;
    let reply: unknown;
    try {
      reply = await this.guard(
        Promise.resolve().then(() =>
          calls
            ? calls(
                {
                  kind: "model",
                  name: step.provider,
                  ...(provider.model === undefined ? {} : { model: provider.model }),
                  request,
                  step: this.identity(step, frame),
                  signal: frame.signal,
                },
                async () => invoke(),
              )
            : invoke(),
        ),
        frame,
      );
    } catch (error) {
      if (error instanceof RunFailure) throw error;
      return fail({
        phase: "execute",
        kind: "model_error",
        provider: step.provider,
        cause: safeErrorText(error),
        message: `provider ${quoted(step.provider)} failed: ${safeErrorText(error)}`,
      });
    }
    return hostValue(reply, () => ({
      phase: "execute",
      kind: "model_error",
      provider: step.provider,
      message: `provider ${quoted(step.provider)} returned a value that is not JSON`,
    }));
  }

  private async tool(step: ToolStep, frame: Frame): Promise<JsonValue> {
    const args = this.resolve(step.args, frame);
    const handler = this.host.tools?.get(step.name);
    if (!handler) return fail(unregistered("unknown_tool", step.name));
    const invoke = () =>
      handler(args, {
        signal: frame.signal,
        tool: step.name,
        // In performance.now() time: time a debugger held the run does not count.
        deadline: this.started + this.budget.time_limit * 1000 + this.pausedMs,
        timeLimit: this.budget.time_limit,
      });
    const calls = this.options.calls;
    let result: unknown;
    try {
      result = await this.guard(
        Promise.resolve().then(() =>
          calls
            ? calls(
                {
                  kind: "tool",
                  name: step.name,
                  arguments: args,
                  step: this.identity(step, frame),
                  signal: frame.signal,
                },
                async () => invoke(),
              )
            : invoke(),
        ),
        frame,
      );
    } catch (error) {
      if (error instanceof RunFailure) throw error;
      return fail({
        phase: "execute",
        kind: "tool_error",
        tool: step.name,
        exception: safeErrorText(error),
        message: `tool ${quoted(step.name)} failed: ${safeErrorText(error)}`,
      });
    }
    return hostValue(result, () => ({
      phase: "execute",
      kind: "tool_error",
      tool: step.name,
      exception: "result is not JSON",
      message: `tool ${quoted(step.name)} returned a value that is not JSON`,
    }));
  }

  private resolve(expr: Expr, frame: Frame): JsonValue {
    switch (expr.kind) {
      case "literal":
        return expr.value;
      case "input": {
        if (!this.inputs.has(expr.name)) {
          return fail({
            phase: "execute",
            kind: "missing_input",
            input: expr.name,
            message: `the host provides no input ${quoted(expr.name)}`,
          });
        }
        return this.inputs.get(expr.name) as JsonValue;
      }
      case "var": {
        if (!frame.vars.has(expr.name)) {
          return fail({
            phase: "execute",
            kind: "unbound_variable",
            variable: expr.name,
            message: `variable ${quoted(expr.name)} is not bound`,
          });
        }
        return frame.vars.get(expr.name) as JsonValue;
      }
      case "field": {
        const base = this.resolve(expr.base, frame);
        const value = isPlainObject(base) ? ownValue(base, expr.key) : undefined;
        if (value === undefined) {
          return fail({
            phase: "execute",
            kind: "missing_field",
            field: expr.key,
            message: `the value has no field ${quoted(expr.key)}`,
          });
        }
        return value as JsonValue;
      }
      case "list":
        return expr.items.map((item) => this.resolve(item, frame));
      case "object":
        return jsonObjectFrom(expr.entries.map(([key, value]) => [key, this.resolve(value, frame)]));
    }
  }

  /** Checks and spends in one synchronous step: concurrent branches can never both spend the last unit. */
  private consume(counter: RuntimeCounter): void {
    if (this.remaining[counter] > 0) {
      this.remaining[counter]--;
      return;
    }
    fail({
      phase: "execute",
      kind: "budget_exhausted",
      budget: counter,
      message: `the run used up its ${counter.replace("_", " ")} budget`,
    });
  }

  private chargeOutput(value: JsonValue): void {
    const requested = jsonByteLength(value) ?? 0;
    const remaining = this.remaining.output_bytes;
    if (requested > remaining) {
      fail({
        phase: "execute",
        kind: "budget_exhausted",
        budget: "output_bytes",
        requested,
        remaining,
        message: `a value of ${requested} bytes does not fit the ${remaining} output bytes left`,
      });
    }
    this.remaining.output_bytes = remaining - requested;
  }

  private bind(frame: Frame, name: string, value: JsonValue): void {
    this.chargeOutput(value);
    frame.vars.set(name, value);
  }

  private elapsed(): number {
    return Math.round(performance.now() - this.started);
  }

  private record(identity: StepIdentity, begun: number): void {
    const now = this.clock();
    const transition: Transition = {
      sequence: this.transitions.length + 1,
      operation: identity.operation,
      bind: identity.bind,
      status: "ok",
      elapsed_ms: Math.round(now - this.started),
      duration_ms: Math.round(now - begun),
      remaining: { ...this.remaining },
    };
    this.transitions.push(transition);
    this.notify(() => this.options.onTransition?.(transition));
    this.emit({ type: "transition", ...identity, elapsed_ms: transition.elapsed_ms, transition });
    this.emit({
      type: "step_finished",
      ...identity,
      elapsed_ms: transition.elapsed_ms,
      duration_ms: transition.duration_ms,
      remaining: transition.remaining,
    });
  }

  /** What an event says about an error: its message masked and cut (it may quote a tool's output). */
  private eventError(error: PlanError): EventError {
    const { phase, kind } = error;
    const message = eventMessage(error.message, this.options.mask);
    if (!Array.isArray(error.path)) return { phase, kind, message };
    const path = error.path as JsonPath;
    const range = this.options.rangeOf?.(path);
    return { phase, kind, message, path, ...(range ? { range } : {}) };
  }

  private emit(event: RunEvent): void {
    const listener = this.options.onEvent;
    if (listener) this.notify(() => listener(event));
  }

  /** Listener failures are the listener's problem; they never change the run. */
  private notify(call: () => void): void {
    try {
      call();
    } catch {
      // ignored on purpose
    }
  }
}

/** An error's message for an event: masked first (a cut could split a secret), then cut. */
function eventMessage(text: string, mask: ExecuteOptions["mask"]): string {
  const masked = mask ? mask.mask(text) : text;
  return masked.length > MAX_EVENT_MESSAGE_CHARS ? `${masked.slice(0, MAX_EVENT_MESSAGE_CHARS - 1)}…` : masked;
}

function stepCounter(step: Step): RuntimeCounter | undefined {
  switch (step.op) {
    case "context":
      return "context_ops";
    case "model":
      return "model_calls";
    case "tool":
      return "tool_calls";
    default:
      return undefined;
  }
}

/** Operation names in transitions are the step's capability, as the reference prints them. */
export function operationName(step: Step): string {
  const capability = requiredCapability(step);
  return capability ? formatCapability(capability) : "final";
}

function unregistered(kind: "unknown_tool" | "unknown_provider", name: string): PlanError {
  return { phase: "preflight", kind, value: name, message: `${quoted(name)} is not registered by the host` };
}

/**
 * A host handler's result as a private copy: only JSON values and context handles (which a
 * trusted tool may pass on or create) get into the plan's variables; functions, cycles and
 * class instances are refused, and later mutation by the host changes nothing.
 */
function hostValue(value: unknown, notJson: () => PlanError): JsonValue {
  const copy = copyHostValue(value, 0);
  return copy === NOT_JSON ? fail(notJson()) : copy;
}

const NOT_JSON = Symbol("not JSON");

function copyHostValue(value: unknown, depth: number): JsonValue | typeof NOT_JSON {
  if (depth > MAX_JSON_DEPTH) return NOT_JSON;
  switch (typeof value) {
    case "string":
    case "boolean":
      return value;
    case "number":
      return Number.isFinite(value) ? value : NOT_JSON;
    case "object": {
      if (value === null) return null;
      if (value instanceof ContextHandle) return value as unknown as JsonValue;
      if (Array.isArray(value)) {
        const items: JsonValue[] = [];
        for (const item of value as unknown[]) {
          const copy = copyHostValue(item, depth + 1);
          if (copy === NOT_JSON) return NOT_JSON;
          items.push(copy);
        }
        return items;
      }
      if (!isPlainObject(value)) return NOT_JSON;
      const object = newJsonObject();
      for (const key of Object.keys(value)) {
        const copy = copyHostValue(value[key], depth + 1);
        if (copy === NOT_JSON) return NOT_JSON;
        setOwn(object, key, copy);
      }
      return object;
    }
    default:
      return NOT_JSON;
  }
}

function branchFrame(step: ParallelStep, branch: number): RunFrame {
  return { kind: "branch", path: (step.plans[branch] as Plan).path, step: step.path, branch };
}
