// Executes a validated plan against a host. Counters (steps, calls, context operations, output
// bytes) are global to the run and shared by nested plans, branches and retry attempts; a
// failed attempt's consumption, transitions and checkpoints stay. The wall-time limit and
// cancellation cover the whole run and abort the signal handed to tools and providers; time a
// debugger's hook holds the run is left out of the run's clock by default (see pause.ts).

import { ContextHandle } from "../context/store";
import { jsonObjectFrom, newJsonObject, ownValue, setOwn, utf8Length, type JsonValue } from "../json";
import { MAX_JSON_DEPTH } from "../text/jsonText";
import type { ContextStep, Expr, ModelStep, Plan, RetryStep, Step, ToolStep } from "../plan/ast";
import type { Budget } from "../plan/budget";
import { formatCapability, requiredCapability } from "../plan/capabilities";
import { isPlainObject } from "../plan/normalize";
import { quoted } from "../plan/problems";
import type { ValidatedPlan } from "../plan/validate";
import { FATAL_KINDS, fail, RunFailure, safeErrorText, type PlanError } from "./errors";
import type { RunHost } from "./host";
import type { PauseHooks, RunFrame, StepPause } from "./pause";
import { preflightPlan } from "./preflight";
import type { BudgetRemaining, RunOutcome, RuntimeCounter, StepStarted, Transition } from "./transitions";

export interface ExecuteOptions extends PauseHooks {
  readonly signal?: AbortSignal;
  /** Called as each step completes, in sequence order. Exceptions thrown here are ignored. */
  readonly onTransition?: (transition: Transition) => void;
  readonly onStepStart?: (event: StepStarted) => void;
  /** Overrides budget fields for this run only (the reference's runtime budget). */
  readonly budget?: Partial<Budget>;
}

type StepResult = { readonly final: false } | { readonly final: true; readonly value: JsonValue };
const CONTINUE: StepResult = { final: false };

export async function executePlan(
  validated: ValidatedPlan,
  host: RunHost,
  options: ExecuteOptions = {},
): Promise<RunOutcome> {
  const budget = { ...validated.budget, ...options.budget };
  const run = new Run(host, budget, options);
  const preflight = preflightPlan(validated.plan, host);
  if (!preflight.ok) return run.outcomeOfError(preflight.errors[0] as PlanError);
  run.inputs = preflight.inputs;
  return run.execute(validated.plan);
}

class Run {
  inputs: ReadonlyMap<string, unknown> = new Map();
  private vars = new Map<string, unknown>();
  private readonly remaining: BudgetRemaining;
  private readonly transitions: Transition[] = [];
  private readonly checkpoints: string[] = [];
  private readonly started = performance.now();
  private readonly controller = new AbortController();
  private stopError: PlanError | undefined;
  // Debugger support (PauseHooks): the nested plans the run is inside, the time spent held by a
  // hook (the run's clock excludes it unless countPausedTime), failures already reported.
  private readonly frames: RunFrame[] = [];
  private pausedMs = 0;
  private timer: ReturnType<typeof setTimeout> | undefined;
  private readonly reported = new WeakSet<RunFailure>();

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
  }

  async execute(plan: Plan): Promise<RunOutcome> {
    this.frames.push({ kind: "root", path: plan.path });
    this.armTimer();
    const signal = this.options.signal;
    const onAbort = () => this.stop({ phase: "execute", kind: "cancelled", message: "the run was cancelled" });
    if (signal?.aborted) onAbort();
    else signal?.addEventListener("abort", onAbort, { once: true });
    try {
      const value = await this.plan(plan, 1);
      return {
        ok: true,
        value,
        vars: jsonObjectFrom([...this.vars].map(([k, v]) => [k, v as JsonValue])),
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
  private async hold(call: () => void | Promise<void>): Promise<void> {
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
      await this.guard(Promise.resolve(pending));
    } catch (error) {
      if (error instanceof RunFailure) throw error;
    } finally {
      if (!counted) {
        this.pausedMs += performance.now() - from;
        this.armTimer();
      }
    }
  }

  private pauseAt(step: Step): StepPause {
    const vars = this.vars;
    const checkpoints = this.checkpoints;
    const count = checkpoints.length;
    return {
      path: step.path,
      step,
      frames: [...this.frames],
      // Bindings and checkpoints are read when asked (a run with thousands of bindings does not
      // copy them before every step); like evaluate, they are the run's state while it is held.
      get bindings() {
        return vars as ReadonlyMap<string, JsonValue>;
      },
      inputs: this.inputs,
      budget: { limits: this.budget, remaining: { ...this.remaining } },
      elapsedMs: this.clock() - this.started,
      get checkpoints() {
        return checkpoints.slice(0, count);
      },
      // Valid while the hook holds the run: it reads the scope the step is about to run in.
      evaluate: (expr) => {
        try {
          return { ok: true, value: this.resolve(expr) };
        } catch (error) {
          if (error instanceof RunFailure) return { ok: false, error: error.error };
          throw error;
        }
      },
    };
  }

  /** Reports a step's failure to onStepFailed once, where it happened, before it unwinds. */
  private async failed(step: Step, error: unknown): Promise<void> {
    const hook = this.options.onStepFailed;
    if (!hook || !(error instanceof RunFailure) || this.reported.has(error)) return;
    this.reported.add(error);
    if (this.stopError) return;
    await this.hold(() => hook(this.pauseAt(step), error.error));
  }

  private stop(error: PlanError): void {
    if (this.stopError) return;
    this.stopError = error;
    this.controller.abort();
  }

  /**
   * Waits for host work unless the run stops first. The stop listener is removed as soon as
   * the work settles, so a long run does not pile up reactions on one pending promise.
   */
  private guard<T>(work: Promise<T>): Promise<T> {
    const signal = this.controller.signal;
    return new Promise<T>((resolve, reject) => {
      const onStop = () => reject(new RunFailure(this.stopError as PlanError));
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

  /** Runs a plan in a child scope that sees the current one; its bindings are dropped after. */
  private async plan(plan: Plan, depth: number): Promise<JsonValue> {
    for (const step of plan.steps) {
      if (this.stopError) throw new RunFailure(this.stopError);
      const beforeStep = this.options.beforeStep;
      if (beforeStep) await this.hold(() => beforeStep(this.pauseAt(step)));
      let result: StepResult;
      try {
        this.consume("steps");
        const counter = stepCounter(step);
        if (counter) this.consume(counter);
        result = await this.step(step, depth);
      } catch (error) {
        await this.failed(step, error);
        throw error;
      }
      if (result.final) return result.value;
    }
    // Unreachable for a validated plan; kept so a bad caller gets an error, not undefined.
    return fail({ phase: "execute", kind: "missing_final", message: "the plan ended without a final step" });
  }

  private async nested(plan: Plan, depth: number, frame: RunFrame): Promise<JsonValue> {
    const parent = this.vars;
    this.vars = new Map(parent);
    this.frames.push(frame);
    try {
      return await this.plan(plan, depth);
    } finally {
      this.vars = parent;
      this.frames.pop();
    }
  }

  private async step(step: Step, depth: number): Promise<StepResult> {
    const begun = this.clock();
    const operation = operationName(step);
    const bind = step.op === "checkpoint" || step.op === "final" ? null : step.bind;
    this.notify(() => this.options.onStepStart?.({ operation, bind, path: step.path, depth }));
    switch (step.op) {
      case "context":
        this.bind(step.bind, await this.context(step));
        break;
      case "model":
        this.bind(step.bind, await this.model(step));
        break;
      case "tool":
        this.bind(step.bind, await this.tool(step));
        break;
      case "rlm":
        this.bind(
          step.bind,
          await this.nested(step.plan, depth + 1, { kind: "rlm", path: step.plan.path, step: step.path }),
        );
        break;
      case "parallel": {
        const values: JsonValue[] = [];
        for (const [i, branch] of step.plans.entries())
          values.push(
            await this.nested(branch, depth + 1, { kind: "branch", path: branch.path, step: step.path, branch: i }),
          );
        this.bind(step.bind, values);
        break;
      }
      case "retry":
        this.bind(step.bind, await this.retry(step, depth + 1));
        break;
      case "checkpoint":
        this.checkpoints.push(step.label);
        break;
      case "final": {
        const value = this.resolve(step.value);
        this.chargeOutput(value);
        this.record(operation, null, begun);
        return { final: true, value };
      }
    }
    this.record(operation, bind, begun);
    return CONTINUE;
  }

  private async retry(step: RetryStep, depth: number): Promise<JsonValue> {
    const { plan, attempts } = step;
    for (let attempt = 1; ; attempt++) {
      try {
        return await this.nested(plan, depth, { kind: "attempt", path: plan.path, step: step.path, attempt, attempts });
      } catch (error) {
        const fatal = !(error instanceof RunFailure) || FATAL_KINDS.has(error.error.kind);
        if (fatal || attempt >= attempts) throw error;
      }
    }
  }

  private async context(step: ContextStep): Promise<JsonValue> {
    const handle = this.resolve(step.handle);
    const contexts = this.host.contexts;
    const outcome = contexts
      ? await this.guard(contexts.run(handle, step.action, this.host.contextLimits))
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

  private async model(step: ModelStep): Promise<JsonValue> {
    const prompt = this.resolve(step.prompt);
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
    let reply: unknown;
    try {
      reply = await this.guard(
        Promise.resolve().then(() =>
          provider.complete(
            { messages: [{ role: "user", content: prompt }], options: step.options },
            { signal: this.controller.signal, provider: step.provider },
          ),
        ),
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

  private async tool(step: ToolStep): Promise<JsonValue> {
    const args = this.resolve(step.args);
    const handler = this.host.tools?.get(step.name);
    if (!handler) return fail(unregistered("unknown_tool", step.name));
    let result: unknown;
    try {
      result = await this.guard(
        Promise.resolve().then(() => handler(args, { signal: this.controller.signal, tool: step.name })),
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

  private resolve(expr: Expr): JsonValue {
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
        if (!this.vars.has(expr.name)) {
          return fail({
            phase: "execute",
            kind: "unbound_variable",
            variable: expr.name,
            message: `variable ${quoted(expr.name)} is not bound`,
          });
        }
        return this.vars.get(expr.name) as JsonValue;
      }
      case "field": {
        const base = this.resolve(expr.base);
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
        return expr.items.map((item) => this.resolve(item));
      case "object":
        return jsonObjectFrom(expr.entries.map(([key, value]) => [key, this.resolve(value)]));
    }
  }

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
    const text = JSON.stringify(value);
    const requested = text === undefined ? 0 : utf8Length(text);
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

  private bind(name: string, value: JsonValue): void {
    this.chargeOutput(value);
    this.vars.set(name, value);
  }

  private record(operation: string, bind: string | null, begun: number): void {
    const now = this.clock();
    const transition: Transition = {
      sequence: this.transitions.length + 1,
      operation,
      bind,
      status: "ok",
      elapsed_ms: Math.round(now - this.started),
      duration_ms: Math.round(now - begun),
      remaining: { ...this.remaining },
    };
    this.transitions.push(transition);
    this.notify(() => this.options.onTransition?.(transition));
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
