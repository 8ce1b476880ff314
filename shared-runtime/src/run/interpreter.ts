// Executes a validated plan against a host: the order of steps, the run's clock and time limit,
// cancellation and the debugger's pauses. Each group of steps has its module (ops/hostSteps: context,
// model, tool; ops/blockSteps: parallel, retry), as do the budget (budgetMeter), what the run reports
// (runEvents), expressions (ops/resolveExpr), lazy inputs (lazyInputs) and host values (hostValue).
// Counters are global to the run and shared by nested plans, branches and retry attempts; a
// failed attempt's consumption, transitions and checkpoints stay. Time a debugger's hook holds
// the run is left out of the run's clock by default (see pause.ts).
// Over 400 lines because the run's clock, time limit, pauses and cancellation share one class's state; each group of steps is already in ops/.

import { jsonObjectFrom, pointer, type JsonPath, type JsonValue } from "../json";
import type { Expr, Plan, RetryStep, Step } from "../plan/ast";
import type { Budget } from "../plan/budget";
import { formatCapability, requiredCapability } from "../plan/capabilities";
import type { ValidatedPlan } from "../plan/validate";
import { fail, RunFailure, safeErrorText, type PlanError } from "./errors";
import type { ParallelMode, StepIdentity } from "./events";
import type { RunHost } from "./host";
import { parallelStep, retryStep, type AttemptFailure, type BlockStepRun } from "./ops/blockSteps";
import { contextStep, modelStep, toolStep, type HostStepRun } from "./ops/hostSteps";
import { LazyInputs } from "./lazyInputs";
import type { CallInterceptor } from "./observer";
import type { PauseHooks, RunFrame, StepPause } from "./pause";
import { BudgetMeter } from "./budgetMeter";
import { preflightPlan } from "./preflight";
import { resolveExpr } from "./ops/resolveExpr";
import { stepPause } from "./stepPause";
import { stepAlone, type StepAlone, type StepOnly } from "./stepOnly";
import { RunReporter, type ReportOptions } from "./runEvents";
import type { Frame } from "./runFrame";
import type { RunOutcome } from "./transitions";

/** Real runs overlap parallel branches; the conformance runner asks for the reference's order. */
export const DEFAULT_PARALLEL_MODE: ParallelMode = "concurrent";

export interface ExecuteOptions extends PauseHooks, ReportOptions {
  readonly signal?: AbortSignal;
  /** Overrides budget fields for this run only (the reference's runtime budget). */
  readonly budget?: Partial<Budget>;
  /** How parallel branches run; default DEFAULT_PARALLEL_MODE. */
  readonly parallel?: ParallelMode;
  /**
   * Money the run's model calls may spend (the host profile's budget.max_cost, `test --max-cost`):
   * a call whose worst case would go over it is not made. Not a plan budget field: plans count calls.
   */
  readonly maxCost?: number;
  /** Wraps every model and tool call (the run journal records them, a resumed run replays them). */
  readonly calls?: CallInterceptor;
  /** Run time spent before this execution (a resumed run's earlier part): the time limit counts it. */
  readonly elapsedBeforeMs?: number;
  /**
   * When the run's clock starts (performance.now() time; now when absent): startRun tells its
   * observers the same instant, so the journal puts the events' times on its own clock exactly.
   */
  readonly clockStart?: number;
  /**
   * Bindings given new values just before the step at `at` first runs (a fork's `--set`, and its
   * parent forks'): that step and the ones after see these values instead of what the run bound.
   */
  readonly rebind?: readonly Rebind[];
  /** Runs only the step at `only.at`, with `only.bindings` as its scope (stepOnly.ts). */
  readonly only?: StepOnly;
}

/** New values for bindings as the step at `at` starts. */
export interface Rebind {
  readonly at: JsonPath;
  readonly values: ReadonlyMap<string, JsonValue>;
}

type StepResult = { readonly final: false } | { readonly final: true; readonly value: JsonValue };
const CONTINUE: StepResult = { final: false };

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
  const alone = options.only ? stepAlone(validated.plan, options.only.at) : undefined;
  if (options.only && !alone)
    return run.outcomeOfError({
      phase: "preflight",
      kind: "invalid_plan",
      message: `there is no step at ${JSON.stringify(options.only.at)} in this plan`,
    });
  const preflight = preflightPlan(alone?.plan ?? validated.plan, host);
  if (!preflight.ok) return run.outcomeOfError(preflight.errors[0] as PlanError);
  for (const [name, value] of preflight.inputs) run.inputs.set(name, value);
  if (alone && options.only) return run.execute(validated.plan, { ...alone, bindings: options.only.bindings });
  return run.execute(validated.plan);
}

class Run implements HostStepRun<Frame>, BlockStepRun {
  readonly maxParallel: number;
  readonly inputs = new Map<string, unknown>();
  readonly calls: CallInterceptor | undefined;
  readonly timeLimit: number;
  private readonly lazyInputs: LazyInputs;
  /** The root plan's scope: what a successful outcome reports as `vars`. */
  private readonly rootVars = new Map<string, unknown>();
  private readonly meter: BudgetMeter;
  private readonly report: RunReporter;
  private readonly checkpoints: string[] = [];
  private readonly started: number;
  private readonly controller = new AbortController();
  private stopError: PlanError | undefined;
  readonly parallelMode: ParallelMode;
  // Debugger support (PauseHooks): the time spent held by a hook (the run's clock excludes it
  // unless countPausedTime), the time-limit timer, failures already reported.
  private pausedMs = 0;
  private timer: ReturnType<typeof setTimeout> | undefined;
  private readonly reported = new WeakSet<RunFailure>();
  /** Rebinds by their step's pointer, until applied (once: a loop or retry reaching it again keeps its own values). */
  private readonly rebinds = new Map<string, Rebind>();

  constructor(
    readonly host: RunHost,
    private readonly budget: Budget,
    private readonly options: ExecuteOptions,
  ) {
    this.meter = new BudgetMeter(budget, options.maxCost);
    this.parallelMode = options.parallel ?? DEFAULT_PARALLEL_MODE;
    this.calls = options.calls;
    this.report = new RunReporter(options);
    this.timeLimit = budget.time_limit;
    this.maxParallel = budget.max_parallel;
    this.lazyInputs = new LazyInputs(host.lazyInputs, this.inputs);
    this.started = (options.clockStart ?? performance.now()) - Math.max(0, options.elapsedBeforeMs ?? 0);
    for (const rebind of options.rebind ?? []) this.rebinds.set(pointer(rebind.at), rebind);
  }

  /** Runs the plan, or only the step `alone` with its bindings as the scope it starts in. */
  async execute(plan: Plan, alone?: StepAlone & Pick<StepOnly, "bindings">): Promise<RunOutcome> {
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
      const value = alone ? await this.alone(alone, root) : await this.plan(plan, root);
      return {
        ok: true,
        value,
        vars: jsonObjectFrom([...this.rootVars].map(([k, v]) => [k, v as JsonValue])),
        transitions: this.report.transitions,
        checkpoints: this.checkpoints,
        budget_remaining: this.meter.remaining(),
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

  /**
   * One step in a scope holding only the given bindings: its value is what it binds (a `final`
   * step's value; null for a checkpoint, which binds nothing).
   */
  private async alone(alone: StepAlone & Pick<StepOnly, "bindings">, root: Frame): Promise<JsonValue> {
    for (const [name, value] of alone.bindings) root.vars.set(name, value);
    const frame: Frame = { ...root, depth: alone.depth };
    const step = alone.step;
    const result = await this.step(step, frame);
    if (result.final) return result.value;
    return step.op === "checkpoint" || step.op === "final" ? null : ((frame.vars.get(step.bind) ?? null) as JsonValue);
  }

  outcomeOfError(error: PlanError): RunOutcome {
    return {
      ok: false,
      error,
      transitions: this.report.transitions,
      checkpoints: this.checkpoints,
      budget_remaining: this.meter.remaining(),
    };
  }

  /** Run time: wall time minus the time hooks held the run (when paused time does not count). */
  clock(): number {
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
    return stepPause(step, frame, {
      inputs: this.inputs,
      unreadInputs: this.lazyInputs.unread(),
      limits: this.budget,
      remaining: this.meter.remaining(),
      elapsedMs: this.clock() - this.started,
      checkpoints: this.checkpoints,
      resolve: (expr, at) => this.resolve(expr, at),
    });
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
  guard<T>(work: Promise<T>, frame: Frame): Promise<T> {
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
      if (this.rebinds.size > 0) this.applyRebind(step, frame);
      const beforeStep = this.options.beforeStep;
      if (beforeStep) await this.hold(() => beforeStep(this.pauseAt(step, frame)), frame);
      const result = await this.step(step, frame);
      if (result.final) return result.value;
    }
    // Unreachable for a validated plan; kept so a bad caller gets an error, not undefined.
    return fail({ phase: "execute", kind: "missing_final", message: "the plan ended without a final step" });
  }

  private applyRebind(step: Step, frame: Frame): void {
    const at = pointer(step.path);
    const rebind = this.rebinds.get(at);
    if (!rebind) return;
    this.rebinds.delete(at);
    for (const [name, value] of rebind.values) frame.vars.set(name, value);
  }

  /** A child scope that sees the current one; its bindings are dropped after. */
  nested(plan: Plan, frame: Frame, runFrame: RunFrame, changes: Partial<Frame> = {}): Promise<JsonValue> {
    return this.plan(plan, {
      ...frame,
      vars: new Map(frame.vars),
      depth: frame.depth + 1,
      frames: [...frame.frames, runFrame],
      ...changes,
    });
  }

  identity(step: Step, frame: Frame): StepIdentity {
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
    this.report.stepStarted(identity, this.elapsed());
    try {
      this.meter.spendStep(step);
      await this.lazyInputs.openFor(step, (opening) => this.guard(opening, frame));
      const result = await this.run(step, frame);
      const now = this.clock();
      this.report.finished(identity, now - this.started, now - begun, this.meter.remaining());
      return result;
    } catch (error) {
      if (!(error instanceof RunFailure)) throw error;
      // The innermost failing step names itself; enclosing steps pass its path on unchanged.
      const failure = error.error.path === undefined ? new RunFailure({ ...error.error, path: [...step.path] }) : error;
      if (failure !== error && this.reported.has(error)) this.reported.add(failure);
      await this.failed(step, failure, frame);
      this.report.emit({
        type: "step_failed",
        ...identity,
        elapsed_ms: this.elapsed(),
        duration_ms: Math.round(this.clock() - begun),
        remaining: this.meter.remaining(),
        error: this.report.eventError(failure.error),
      });
      throw failure;
    }
  }

  private async run(step: Step, frame: Frame): Promise<StepResult> {
    switch (step.op) {
      case "context":
        this.bind(frame, step.bind, await contextStep(this, step, frame));
        break;
      case "model":
        this.bind(frame, step.bind, await modelStep(this, step, frame));
        break;
      case "tool":
        this.bind(frame, step.bind, await toolStep(this, step, frame));
        break;
      case "rlm":
        this.bind(
          frame,
          step.bind,
          await this.nested(step.plan, frame, { kind: "rlm", path: step.plan.path, step: step.path }),
        );
        break;
      case "parallel":
        this.bind(frame, step.bind, await parallelStep(this, step, frame));
        break;
      case "retry":
        this.bind(frame, step.bind, await retryStep(this, step, frame));
        break;
      case "checkpoint":
        this.checkpoints.push(step.label);
        break;
      case "final": {
        const value = this.resolve(step.value, frame);
        this.meter.chargeOutput(value);
        return { final: true, value };
      }
    }
    return CONTINUE;
  }

  stopped(): boolean {
    return this.stopError !== undefined;
  }

  attemptFailed(step: RetryStep, frame: Frame, failed: AttemptFailure): void {
    this.report.emit({
      type: "attempt_failed",
      ...this.identity(step, frame),
      attempt: failed.attempt,
      attempts: step.attempts,
      retrying: failed.retrying,
      elapsed_ms: this.elapsed(),
      duration_ms: Math.round(this.clock() - failed.begun),
      remaining: this.meter.remaining(),
      error: this.report.eventError(failed.error),
    });
  }

  resolve(expr: Expr, frame: Frame): JsonValue {
    return resolveExpr(expr, this.inputs, frame.vars);
  }

  outputBytesLeft(): number {
    return this.meter.remaining().output_bytes;
  }

  holdCost(worst: number | undefined, why: string | undefined): number {
    return this.meter.holdCost(worst, why);
  }

  settleCost(held: number, cost: number | null): void {
    this.meter.settleCost(held, cost);
  }

  refuseOutput(requested: number): never {
    this.meter.chargeOutputBytes(requested);
    // Not reached: what is left only shrinks, and the result was over it when it was measured.
    throw new Error(`a value of ${requested} bytes was refused by the output budget`);
  }

  /** In performance.now() time: time a debugger held the run does not count. */
  toolDeadline(): number {
    return this.started + this.budget.time_limit * 1000 + this.pausedMs;
  }

  private bind(frame: Frame, name: string, value: JsonValue): void {
    this.meter.chargeOutput(value);
    frame.vars.set(name, value);
  }

  private elapsed(): number {
    return Math.round(performance.now() - this.started);
  }
}

/** Operation names in transitions are the step's capability, as the reference prints them. */
export function operationName(step: Step): string {
  const capability = requiredCapability(step);
  return capability ? formatCapability(capability) : "final";
}
