// partition: a context cut into consecutive parts (fixed-size runs of characters or items, or
// runs of lines), each with its index, start and length, within the result and byte limits.

import { utf8Length, type JsonValue } from "../../json";
import type { PartitionStrategy } from "../../plan/ast";
import { describeStrategy, requirePositiveInteger, unsupportedPartition } from "../contextErrors";
import { AsyncItemCursor } from "../sources/itemCursor";
import { copyJson } from "../jsonCopy";
import type { ContextLimits } from "../limits";
import { partitionPart } from "../../plan/shapes/contextResults";
import type { OpenPayload, Work } from "../payload";
import { termBytes } from "../prolog/prologTerm";
import { boundedChars, type TextLine, type TextReader } from "../sources/textSource";
import type { WorkPace } from "../workPace";

/** text_partitions: runs of `size` characters; a run cut by the byte budget is the last one. */
async function textPartitions(reader: TextReader, size: number, limits: ContextLimits, pace: WorkPace): Promise<Work> {
  const total = reader.charLength;
  const parts = pace.results();
  let outBytes = 0;
  for (let start = 0; ;) {
    if (start >= total) return parts.work(false);
    if (parts.length >= limits.maxResults || outBytes >= limits.maxBytes) return parts.work(true);
    if (pace.tick()) await pace.turn();
    const length = Math.min(size, total - start);
    const bounded = await boundedChars(reader, start, length, limits.maxBytes - outBytes);
    const added = utf8Length(bounded.text);
    if (added === 0) return parts.work(true);
    // The part keeps its full length even when its value was cut, as in the reference.
    parts.push(partitionPart(parts.length, start, length, bounded.text));
    outBytes += added;
    if (bounded.truncated) return parts.work(true);
    start += length;
  }
}

/** How list_partitions measures and keeps one item. */
interface ItemSizing<T> {
  /** Printed bytes of the item; Infinity when it is larger than any budget. */
  bytes(item: T): number;
  /** The item as it goes into a part (only asked for items whose size is finite). */
  value(item: T): JsonValue;
}

const TERM_SIZING: ItemSizing<JsonValue> = { bytes: termBytes, value: copyJson };

/** A line longer than max_bytes prints (with its quotes) longer than what is left of the budget. */
const LINE_SIZING: ItemSizing<TextLine> = {
  bytes: (line) => (typeof line === "string" ? termBytes(line) : Number.POSITIVE_INFINITY),
  value: (line) => (typeof line === "string" ? line : ""),
};

/**
 * list_partitions: runs of `size` items (or lines). Items of a run are kept while their printed
 * sizes fit what is left of the budget; a run cut that way is the last one.
 */
async function listPartitions<T>(
  items: AsyncItemCursor<T>,
  sizing: ItemSizing<T>,
  size: number,
  limits: ContextLimits,
  pace: WorkPace,
): Promise<Work> {
  const parts = pace.results();
  let outBytes = 0;
  for (let offset = 0; ;) {
    if (!(await items.hasNext())) return parts.work(false);
    if (parts.length >= limits.maxResults || outBytes >= limits.maxBytes) return parts.work(true);
    const remaining = limits.maxBytes - outBytes;
    const chunk: JsonValue[] = [];
    let chunkBytes = 0;
    let taken = 0;
    let cut = false;
    while (taken < size && (await items.hasNext())) {
      if (pace.tick()) await pace.turn();
      const item = items.next();
      taken++;
      const bytes = sizing.bytes(item);
      if (chunkBytes + bytes > remaining) {
        cut = true;
        break;
      }
      chunk.push(sizing.value(item));
      chunkBytes += bytes;
    }
    if (chunk.length === 0) return parts.work(true);
    parts.push(partitionPart(parts.length, offset, chunk.length, chunk));
    outBytes += chunkBytes;
    if (cut) return parts.work(true);
    offset += taken;
  }
}

async function walk<T>(
  items: AsyncItemCursor<T>,
  sizing: ItemSizing<T>,
  size: number,
  limits: ContextLimits,
  pace: WorkPace,
): Promise<Work> {
  try {
    return await listPartitions(items, sizing, size, limits, pace);
  } finally {
    await items.close();
  }
}

export function partitionWork(
  strategy: PartitionStrategy,
  payload: OpenPayload,
  limits: ContextLimits,
  pace: WorkPace,
): Promise<Work> {
  if (strategy.type === "fixed") {
    requirePositiveInteger(strategy.size, "partition size");
    if (payload.kind === "text") return textPartitions(payload.text, strategy.size, limits, pace);
    return walk(new AsyncItemCursor(payload.items[Symbol.iterator]()), TERM_SIZING, strategy.size, limits, pace);
  }
  if (strategy.type === "lines" && payload.kind === "text") {
    requirePositiveInteger(strategy.size, "partition size");
    const lines = new AsyncItemCursor(payload.text.lines(limits.maxBytes, false));
    return walk(lines, LINE_SIZING, strategy.size, limits, pace);
  }
  const advice = payload.kind === "terms" ? "a list of items is partitioned with fixed(N)" : "use fixed(N) or lines(N)";
  throw unsupportedPartition(payload.kind, describeStrategy(strategy), advice);
}
