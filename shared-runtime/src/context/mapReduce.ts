// map and reduce: a fixed set of per-item transforms and whole-context summaries. Nothing here
// runs code from a plan; names outside the allow-lists are refused.

import type { JsonValue } from "../json";
import { MAP_TRANSFORMS, REDUCERS } from "../plan/ast";
import { capabilityDenied } from "./contextErrors";
import { payloadItems } from "./itemCursor";
import { copyJson } from "./jsonCopy";
import type { ContextLimits } from "./limits";
import type { ContextPayload, Work } from "./payload";
import { prologLower, prologUpper } from "./prologChars";
import { itemText, payloadBytes } from "./prologTerm";
import { codePointCount } from "./textSource";

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

/** map_sequence: transformed items in order, stopping before the first one the budget cannot hold. */
export function mapWork(transform: string, payload: ContextPayload, limits: ContextLimits): Work {
  if (!(MAP_TRANSFORMS as readonly string[]).includes(transform)) {
    throw capabilityDenied("map", transform, MAP_TRANSFORMS);
  }
  const items = payloadItems(payload);
  const values: JsonValue[] = [];
  let outBytes = 0;
  for (;;) {
    if (!items.hasNext()) return { value: values, truncated: false };
    if (values.length >= limits.maxResults || outBytes >= limits.maxBytes) return { value: values, truncated: true };
    const value = transformItem(transform, items.next());
    const bytes = payloadBytes(value);
    if (bytes > limits.maxBytes - outBytes) return { value: values, truncated: true };
    values.push(value);
    outBytes += bytes;
  }
}

/** text_item_count/2: the number of lines, except that an empty text has none. */
export function itemCount(payload: ContextPayload): number {
  if (payload.kind === "terms") return payload.items.length;
  return payload.text.charLength === 0 ? 0 : payload.text.lineCount;
}

export function byteCount(payload: ContextPayload): number {
  return payload.kind === "terms" ? payload.bytes : payload.text.byteLength;
}

export function reduceWork(reducer: string, payload: ContextPayload): Work {
  if (reducer === "count") return { value: itemCount(payload), truncated: false };
  if (reducer === "byte_count") return { value: byteCount(payload), truncated: false };
  throw capabilityDenied(`reduce(${payload.kind})`, reducer, REDUCERS);
}
