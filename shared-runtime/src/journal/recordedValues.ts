// How the recorder keeps a reply and a run's counters: a reply as JSON text (or, over
// RECORDED_TEXT_LIMIT, its size alone), budgets and estimates as plain JSON, and what a run spent.

import type { JsonObject } from "../json";
import type { ObservedReport } from "../run/observer";
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
