// How the recorder keeps a reply and a run's counters: a reply as JSON text (or, over
// RECORDED_TEXT_LIMIT, its size alone), budgets and estimates as plain JSON, and what a run spent.

import type { JsonObject } from "../json";
import { callUsage } from "../plan/modelCost";
import type { ModelCall, ObservedReport, RunStart } from "../run/observer";
import type { CallRow } from "./rows";
import { jsonByteLength } from "../run/outputMeasure";
import { RECORDED_TEXT_LIMIT } from "./requestKey";

/** A reply too big to record: its size in bytes; null for one JSON cannot hold. */
export function omittedReply(reply: unknown): string | null {
  const bytes = jsonByteLength(reply);
  return bytes === undefined || bytes <= RECORDED_TEXT_LIMIT ? null : JSON.stringify({ omitted_bytes: bytes });
}

/** The reply's JSON text; over RECORDED_TEXT_LIMIT its size alone (and not replayable: undefined). */
export function replyText(reply: unknown): string | undefined {
  try {
    if ((jsonByteLength(reply) ?? 0) > RECORDED_TEXT_LIMIT) return undefined;
    return JSON.stringify(reply);
  } catch {
    return undefined;
  }
}

/** A budget or estimate as plain JSON (counts beyond 2^53 stay exact through exactJsonText). */
export function countsJson(value: object): JsonObject {
  return { ...(value as JsonObject) };
}

/**
 * What a run's details say of its start: the estimate and budget, and where its clock (its
 * events' elapsed_ms) starts on the journal's (calls' and the run's elapsed_ms, counted from
 * `recordingBegun`, performance.now() time), so that views draw steps and calls on one clock.
 */
export function startDetails(start: RunStart, recordingBegun: number): JsonObject {
  return {
    estimate: countsJson(start.estimate),
    budget: countsJson(start.budget),
    clock_offset_ms: Math.max(0, Math.round(start.clockStart - recordingBegun)),
  };
}

/** What the run used of each budget counter. */
export function spent(budget: ObservedReport["budget"] & object, remaining: JsonObject): JsonObject {
  const used = (limit: number, left: unknown) => (typeof left === "number" ? limit - left : null);
  return {
    steps: used(budget.max_steps, remaining["steps"]),
    model_calls: used(budget.max_model_calls, remaining["model_calls"]),
    tool_calls: used(budget.max_tool_calls, remaining["tool_calls"]),
    context_ops: used(budget.max_context_ops, remaining["context_ops"]),
    output_bytes: used(budget.max_output_bytes, remaining["output_bytes"]),
  };
}

type UsageColumns = Pick<CallRow, "input_tokens" | "output_tokens" | "usage_estimated" | "cost">;

/** A tool call's usage columns, and a model call's until it is answered. */
export const NO_USAGE: UsageColumns = Object.freeze({
  input_tokens: null,
  output_tokens: null,
  usage_estimated: null,
  cost: null,
});

/** A model call's usage columns from its reply (plan/modelCost.ts: reported, or its bounds). */
export function usageColumns(call: ModelCall, reply: unknown): UsageColumns {
  const usage = callUsage(reply, call.request, call.costing);
  return {
    input_tokens: usage.input_tokens,
    output_tokens: usage.output_tokens,
    usage_estimated: usage.estimated ? 1 : 0,
    cost: usage.cost,
  };
}
