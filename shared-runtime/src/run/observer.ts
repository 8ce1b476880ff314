// What watches a run from outside the interpreter, the only way to listen to one: a front end's
// printer, the run journal, the trace exporter. startRun hands every observer the one event stream,
// every model and tool call (as a wrapper around the call, so a recorder can answer it from what
// it recorded), and the report at the end. Observers never change what a step does; an observer's
// exception is ignored.

import type { ProviderCosting } from "../plan/modelCost";
import type { JsonObject, JsonValue } from "../json";
import type { Budget } from "../plan/budget";
import type { Estimate } from "../plan/estimate";
import type { ValidatedPlan } from "../plan/validate";
import type { RunEvent, StepIdentity } from "./events";
import type { ModelRequest } from "./host";

/** A model or tool call as the interpreter is about to make it. */
export type HostCall = ModelCall | ToolCall;

interface HostCallBase {
  /** The step making the call. */
  readonly step: StepIdentity;
  /** Aborted when the run stops or the step's branch is cancelled: a failure then is no reply. */
  readonly signal: AbortSignal;
}

export interface ModelCall extends HostCallBase {
  readonly kind: "model";
  /** The provider's name in the host profile. */
  readonly name: string;
  /** The model the provider asks for, when it says (openai-chat: its `model`). */
  readonly model?: string;
  readonly request: ModelRequest;
  /** The provider's price and default max_tokens: `callUsage(reply, request, costing)` is what the call used. */
  readonly costing?: ProviderCosting;
}

export interface ToolCall extends HostCallBase {
  readonly kind: "tool";
  readonly name: string;
  readonly arguments: JsonValue;
}

/**
 * Wraps one host call: calls `proceed` (the next wrapper, then the host) or answers without it.
 * Whatever it resolves to is checked as the host's own answer would be.
 */
export type CallInterceptor = (call: HostCall, proceed: () => Promise<unknown>) => Promise<unknown>;

/** The checked run as it starts executing. */
export interface RunStart {
  readonly validated: ValidatedPlan;
  readonly budget: Budget;
  readonly estimate: Estimate;
  readonly mocked: boolean;
  /**
   * When the run's clock started, in performance.now() time: its events' elapsed_ms count from
   * here (less a resumed run's earlier part).
   */
  readonly clockStart: number;
}

export interface RunObserver {
  /**
   * Run time already spent before this process (a resumed run's earlier part): the run's clock
   * and its time limit start from it.
   */
  readonly elapsedBeforeMs?: number;
  /** The plan passed its check and preflight: it is about to execute. */
  started?(start: RunStart): void;
  /** Every event of the run's stream, in order, synchronously (before the next step starts). */
  event?(event: RunEvent): void;
  /** Wraps every model and tool call. */
  readonly call?: CallInterceptor;
  /**
   * The run is over, however it ended (a plan that never started included). startRun awaits it
   * before its report resolves; a rejection is ignored.
   */
  finished?(report: ObservedReport): void | Promise<void>;
}

/** What an observer hears at the end: startRun's report in JSON-able terms. */
export interface ObservedReport {
  readonly stage: "check" | "host" | "preflight" | "execute";
  readonly ok: boolean;
  readonly value?: JsonValue;
  readonly error?: JsonObject;
  readonly budget?: Budget;
  readonly remaining: JsonObject;
  readonly checkpoints: readonly string[];
  readonly transitions: number;
  readonly mocked: boolean;
}

/** The observers' call wrappers as one, the first observer outermost. */
export function chainInterceptors(interceptors: readonly CallInterceptor[]): CallInterceptor | undefined {
  if (interceptors.length === 0) return undefined;
  return interceptors.reduceRight<CallInterceptor>(
    (inner, outer) => (call, proceed) => outer(call, () => inner(call, proceed)),
    (_call, proceed) => proceed(),
  );
}

/** Calls one observer's method: its failure is its own and never changes the run. */
export function quietly(call: () => void): void {
  try {
    call();
  } catch {
    // an observer's failure never changes the run
  }
}
