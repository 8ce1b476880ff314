// partition: a context cut into consecutive parts (fixed-size runs of characters or items, or
// runs of lines), each with its index, start and length, within the result and byte limits.

import { utf8Length, type JsonValue } from "../json";
import type { PartitionStrategy } from "../plan/ast";
import { describeStrategy, requirePositiveInteger, unsupportedPartition } from "./contextErrors";
import { payloadItems, type ItemCursor } from "./itemCursor";
import { copyJson } from "./jsonCopy";
import type { ContextLimits } from "./limits";
import type { ContextPayload, Work } from "./payload";
import { termBytes } from "./prologTerm";
import { boundedChars, type TextSource } from "./textSource";

function part(index: number, start: number, length: number, value: JsonValue): JsonValue {
  return { index, start, length, value };
}

/** text_partitions: runs of `size` characters; a run cut by the byte budget is the last one. */
function textPartitions(source: TextSource, size: number, limits: ContextLimits): Work {
  const total = source.charLength;
  const parts: JsonValue[] = [];
  let outBytes = 0;
  for (let start = 0; ;) {
    if (start >= total) return { value: parts, truncated: false };
    if (parts.length >= limits.maxResults || outBytes >= limits.maxBytes) return { value: parts, truncated: true };
    const length = Math.min(size, total - start);
    const bounded = boundedChars(source, start, length, limits.maxBytes - outBytes);
    const added = utf8Length(bounded.text);
    if (added === 0) return { value: parts, truncated: true };
    // The part keeps its full length even when its value was cut, as in the reference.
    parts.push(part(parts.length, start, length, bounded.text));
    outBytes += added;
    if (bounded.truncated) return { value: parts, truncated: true };
    start += length;
  }
}

/**
 * list_partitions: runs of `size` items (or lines). Items of a run are kept while their printed
 * sizes fit what is left of the budget; a run cut that way is the last one.
 */
function listPartitions(items: ItemCursor<JsonValue>, size: number, limits: ContextLimits): Work {
  const parts: JsonValue[] = [];
  let outBytes = 0;
  for (let offset = 0; ;) {
    if (!items.hasNext()) return { value: parts, truncated: false };
    if (parts.length >= limits.maxResults || outBytes >= limits.maxBytes) return { value: parts, truncated: true };
    const remaining = limits.maxBytes - outBytes;
    const chunk: JsonValue[] = [];
    let chunkBytes = 0;
    let taken = 0;
    let cut = false;
    while (taken < size && items.hasNext()) {
      const item = items.next();
      taken++;
      const bytes = termBytes(item);
      if (chunkBytes + bytes > remaining) {
        cut = true;
        break;
      }
      chunk.push(copyJson(item));
      chunkBytes += bytes;
    }
    if (chunk.length === 0) return { value: parts, truncated: true };
    parts.push(part(parts.length, offset, chunk.length, chunk));
    outBytes += chunkBytes;
    if (cut) return { value: parts, truncated: true };
    offset += taken;
  }
}

export function partitionWork(strategy: PartitionStrategy, payload: ContextPayload, limits: ContextLimits): Work {
  if (strategy.type === "fixed") {
    requirePositiveInteger(strategy.size, "partition size");
    return payload.kind === "text"
      ? textPartitions(payload.text, strategy.size, limits)
      : listPartitions(payloadItems(payload), strategy.size, limits);
  }
  if (strategy.type === "lines" && payload.kind === "text") {
    requirePositiveInteger(strategy.size, "partition size");
    return listPartitions(payloadItems(payload), strategy.size, limits);
  }
  const advice = payload.kind === "terms" ? "a list of items is partitioned with fixed(N)" : "use fixed(N) or lines(N)";
  throw unsupportedPartition(payload.kind, describeStrategy(strategy), advice);
}
