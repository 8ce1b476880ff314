// map and reduce: a fixed set of per-item transforms and whole-context summaries. Nothing here
// runs code from a plan; names outside the allow-lists are refused.

import type { JsonValue } from "../../json";
import { MAP_TRANSFORMS, REDUCERS } from "../../plan/ast";
import { codePointCount } from "../sources/codePoints";
import { capabilityDenied } from "../contextErrors";
import { AsyncItemCursor } from "../sources/itemCursor";
import { copyJson } from "../jsonCopy";
import type { ContextLimits } from "../limits";
import type { MeasuredPayload, OpenPayload, Work } from "../payload";
import { prologLower, prologUpper } from "../prolog/prologChars";
import { itemText, payloadBytes } from "../prolog/prologTerm";
import type { TextLine } from "../sources/textSource";
import type { WorkPace } from "../workPace";

function transformItem(transform: string, item: JsonValue): JsonValue {
  switch (transform) {
    case "identity":
      return copyJson(item);
    case "lowercase":
      return prologLower(itemText(item));
    case "uppercase":
      return prologUpper(itemText(item));
    case "length":
      return codePointCount(itemText(item));
    default:
      throw capabilityDenied("map", transform, MAP_TRANSFORMS);
  }
}

/**
 * A line's transform, or undefined for a line too long for any budget. Case mappings keep the
 * number of code points and a code point is 1 to 4 bytes, so a line of more than 4 × max_bytes
 * bytes transforms to more than max_bytes bytes; its length is a number, counted by the reader.
 */
function transformLine(transform: string, line: TextLine): JsonValue | undefined {
  if (typeof line === "string") return transformItem(transform, line);
  return transform === "length" ? (line.charLength ?? null) : undefined;
}

/** map_sequence: transformed items in order, stopping before the first one the budget cannot hold. */
async function mapSequence<T>(
  items: AsyncItemCursor<T>,
  transform: (item: T) => JsonValue | undefined,
  limits: ContextLimits,
  pace: WorkPace,
): Promise<Work> {
  const values = pace.results();
  let outBytes = 0;
  for (;;) {
    if (!(await items.hasNext())) return values.work(false);
    if (values.length >= limits.maxResults || outBytes >= limits.maxBytes) return values.work(true);
    if (pace.tick()) await pace.turn();
    const value = transform(items.next());
    const bytes = value === undefined ? Number.POSITIVE_INFINITY : payloadBytes(value);
    if (value === undefined || bytes > limits.maxBytes - outBytes) return values.work(true);
    values.push(value);
    outBytes += bytes;
  }
}

export async function mapWork(
  transform: string,
  payload: OpenPayload,
  limits: ContextLimits,
  pace: WorkPace,
): Promise<Work> {
  if (!(MAP_TRANSFORMS as readonly string[]).includes(transform)) {
    throw capabilityDenied("map", transform, MAP_TRANSFORMS);
  }
  if (payload.kind === "terms") {
    const items = new AsyncItemCursor(payload.items[Symbol.iterator]());
    return mapSequence(items, (item) => transformItem(transform, item), limits, pace);
  }
  const lines = new AsyncItemCursor(payload.text.lines(4 * limits.maxBytes, transform === "length"));
  try {
    return await mapSequence(lines, (line) => transformLine(transform, line), limits, pace);
  } finally {
    await lines.close();
  }
}

/** text_item_count/2: the number of lines, except that an empty text has none. */
export function itemCount(payload: MeasuredPayload): number {
  if (payload.kind === "terms") return payload.items.length;
  return payload.text.charLength === 0 ? 0 : payload.text.lineCount;
}

export function byteCount(payload: MeasuredPayload): number {
  return payload.kind === "terms" ? payload.bytes : payload.text.byteLength;
}

export function reduceWork(reducer: string, payload: MeasuredPayload): Work {
  if (reducer === "count") return { value: itemCount(payload), truncated: false };
  if (reducer === "byte_count") return { value: byteCount(payload), truncated: false };
  throw capabilityDenied(`reduce(${payload.kind})`, reducer, REDUCERS);
}
