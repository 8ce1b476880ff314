// The steps that call the host: a context operation on the store, a model call to a provider and a
// tool call to a handler (each through the run's call interceptor when it has one); what comes back
// is copied before it is bound, and a host's failure becomes the step's error.

import { jsonObjectFrom, type JsonValue } from "../../json";
import type { ContextStep, Expr, ModelStep, Step, ToolStep } from "../../plan/ast";
import { quoted } from "../../plan/problems";
import { fail, RunFailure, safeErrorText, type PlanError } from "../errors";
import type { StepIdentity } from "../events";
import type { ModelRequest, RunHost } from "../host";
import { hostValue } from "../hostValue";
import type { CallInterceptor, HostCall } from "../observer";
import { callUsage, inputTokenBound, outputTokenBound, unpricedReason, worstCallCost } from "../../plan/modelCost";

/** What a host step needs of the run it belongs to, in the frame `F` the step runs in. */
export interface HostStepRun<F extends { readonly signal: AbortSignal }> {
  readonly host: RunHost;
  readonly calls: CallInterceptor | undefined;
  resolve(expr: Expr, frame: F): JsonValue;
  /** Waits for host work unless the run stops (or the frame's branch is cancelled) first. */
  guard<T>(work: Promise<T>, frame: F): Promise<T>;
  identity(step: Step, frame: F): StepIdentity;
  /** The tool's deadline, in performance.now() time (time a debugger held the run does not count). */
  toolDeadline(): number;
  /** The run's time limit in seconds. */
  readonly timeLimit: number;
  /** The output bytes the run has left. */
  outputBytesLeft(): number;
  /** Fails the step as the output budget does for a value of `requested` bytes over what is left. */
  refuseOutput(requested: number): never;
  /** Holds a model call's worst case against max_cost (BudgetMeter.holdCost); returns what it holds. */
  holdCost(worst: number | undefined, why: string | undefined): number;
  /** A model call ended: releases what it held and spends what it cost. */
  settleCost(held: number, cost: number | null): void;
}

export async function contextStep<F extends { readonly signal: AbortSignal }>(
  run: HostStepRun<F>,
  step: ContextStep,
  frame: F,
): Promise<JsonValue> {
  const handle = run.resolve(step.handle, frame);
  const contexts = run.host.contexts;
  const outcome = contexts
    ? await run.guard(
        contexts.run(handle, step.action, run.host.contextLimits, frame.signal, run.outputBytesLeft()),
        frame,
      )
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
  if (outcome.oversize !== undefined) return run.refuseOutput(outcome.oversize);
  return outcome.value;
}

export async function modelStep<F extends { readonly signal: AbortSignal }>(
  run: HostStepRun<F>,
  step: ModelStep,
  frame: F,
): Promise<JsonValue> {
  const prompt = run.resolve(step.prompt, frame);
  if (typeof prompt !== "string") {
    return fail({
      phase: "execute",
      kind: "invalid_prompt",
      provider: step.provider,
      message: `the prompt for provider ${quoted(step.provider)} did not resolve to text`,
    });
  }
  const provider = run.host.providers?.get(step.provider);
  if (!provider) return fail(unregistered("unknown_provider", step.provider));
  const request: ModelRequest = { messages: [{ role: "user", content: prompt }], options: step.options };
  const costing = provider.costing;
  // Before the call: its worst case must fit what is left of max_cost (a step error here, no call made).
  const maxTokens = outputTokenBound(request.options, costing);
  const held = run.holdCost(
    worstCallCost(costing, inputTokenBound(request.messages), maxTokens),
    unpricedReason(step.provider, costing, maxTokens),
  );
  let reply: unknown;
  try {
    reply = await callHost(
      run,
      frame,
      {
        kind: "model",
        name: step.provider,
        ...(provider.model === undefined ? {} : { model: provider.model }),
        request,
        ...(costing === undefined ? {} : { costing }),
        step: run.identity(step, frame),
        signal: frame.signal,
      },
      () => provider.complete(request, { signal: frame.signal, provider: step.provider }),
      (error) => ({
        phase: "execute",
        kind: "model_error",
        provider: step.provider,
        cause: safeErrorText(error),
        message: `provider ${quoted(step.provider)} failed: ${safeErrorText(error)}`,
      }),
    );
  } catch (error) {
    // A failed call has no usage to count: what it held goes back.
    run.settleCost(held, 0);
    throw error;
  }
  run.settleCost(held, callUsage(reply, request, costing).cost);
  return hostValue(reply, () => ({
    phase: "execute",
    kind: "model_error",
    provider: step.provider,
    message: `provider ${quoted(step.provider)} returned a value that is not JSON`,
  }));
}

export async function toolStep<F extends { readonly signal: AbortSignal }>(
  run: HostStepRun<F>,
  step: ToolStep,
  frame: F,
): Promise<JsonValue> {
  const args = run.resolve(step.args, frame);
  const handler = run.host.tools?.get(step.name);
  if (!handler) return fail(unregistered("unknown_tool", step.name));
  const result = await callHost(
    run,
    frame,
    { kind: "tool", name: step.name, arguments: args, step: run.identity(step, frame), signal: frame.signal },
    () =>
      handler(args, { signal: frame.signal, tool: step.name, deadline: run.toolDeadline(), timeLimit: run.timeLimit }),
    (error) => ({
      phase: "execute",
      kind: "tool_error",
      tool: step.name,
      exception: safeErrorText(error),
      message: `tool ${quoted(step.name)} failed: ${safeErrorText(error)}`,
    }),
  );
  return hostValue(result, () => ({
    phase: "execute",
    kind: "tool_error",
    tool: step.name,
    exception: "result is not JSON",
    message: `tool ${quoted(step.name)} returned a value that is not JSON`,
  }));
}

/**
 * A call to the host, through the run's interceptor when it has one (the journal records it, a
 * resumed run replays it), waited for unless the run stops; the host's own failure becomes
 * `failure(error)`, the step's error.
 */
async function callHost<F extends { readonly signal: AbortSignal }>(
  run: HostStepRun<F>,
  frame: F,
  call: HostCall,
  invoke: () => unknown,
  failure: (error: unknown) => PlanError,
): Promise<unknown> {
  const calls = run.calls;
  try {
    return await run.guard(
      Promise.resolve().then(() => (calls ? calls(call, async () => invoke()) : invoke())),
      frame,
    );
  } catch (error) {
    if (error instanceof RunFailure) throw error;
    return fail(failure(error));
  }
}

function unregistered(kind: "unknown_tool" | "unknown_provider", name: string): PlanError {
  return { phase: "preflight", kind, value: name, message: `${quoted(name)} is not registered by the host` };
}
