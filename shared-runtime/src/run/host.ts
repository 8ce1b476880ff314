// What a host hands the runtime: trusted tools and model providers in registries keyed by
// name, named inputs, and a context store. A plan's names are only ever looked up here;
// nothing in a plan can become a callable by itself.

import type { ContextOutcome } from "../context/store";
import type { JsonObject, JsonValue } from "../json";
import type { ContextAction } from "../plan/ast";
import type { ProviderCosting } from "../plan/modelCost";

export interface ToolContext {
  /** Aborted when the run is cancelled or runs out of wall time. */
  readonly signal: AbortSignal;
  readonly tool: string;
  /** When the run's time is up (performance.now() ms), for tools that work synchronously. */
  readonly deadline?: number;
  /** The run's time limit in seconds, for the message. */
  readonly timeLimit?: number;
}

export type ToolHandler = (args: JsonValue, context: ToolContext) => Promise<JsonValue> | JsonValue;

export interface ModelRequest {
  readonly messages: readonly { readonly role: "user"; readonly content: string }[];
  /** The step's "options" object, passed through for the provider to interpret. */
  readonly options: JsonObject;
}

export interface ModelContext {
  readonly signal: AbortSignal;
  readonly provider: string;
}

export interface ModelProvider {
  /** Resolves to the value bound to the step; rejects with an error whose message is safe to show. */
  complete(request: ModelRequest, context: ModelContext): Promise<JsonValue>;
  /** What editors may show about the provider: never a key or header. */
  readonly description?: string;
  /** The model it asks for (part of a recorded request's identity), when it has one. */
  readonly model?: string;
  /** Its price and default max_tokens: what a call costs and may cost (plan/modelCost.ts). */
  readonly costing?: ProviderCosting;
}

/** The part of a context store the interpreter needs. */
export interface ContextRunner {
  /**
   * `options` is the host's `contextLimits`, checked by the store after the handle; `signal`
   * is the run's: once it aborts (time limit, cancel) the operation stops reading and working.
   * `outputCap` is the output bytes the run has left: a result over it is measured, not built
   * (the outcome's `oversize`), since the step fails on the output budget anyway.
   */
  run(
    handle: unknown,
    action: ContextAction,
    options?: unknown,
    signal?: AbortSignal,
    outputCap?: number,
  ): Promise<ContextOutcome>;
}

/** Opens an input when a step first reads it; rejects with an error whose message is safe to show. */
export type InputOpener = () => Promise<unknown>;

export interface RunHost {
  readonly tools?: ReadonlyMap<string, ToolHandler>;
  readonly providers?: ReadonlyMap<string, ModelProvider>;
  /** Named inputs: JSON values or context handles. Must be an object; anything else fails preflight. */
  readonly inputs?: unknown;
  /**
   * Inputs opened on first use (a large file is indexed only when a step reads it; an unused
   * one costs nothing). A name in `inputs` wins over the same name here.
   */
  readonly lazyInputs?: ReadonlyMap<string, InputOpener>;
  readonly contexts?: ContextRunner;
  /**
   * Bounds on each context operation, a `ContextLimitOptions` object: a field left out takes its
   * default; an invalid value (`null` included) fails the operation, as in the reference.
   * Anything but an object fails preflight.
   */
  readonly contextLimits?: unknown;
}
