// peek and slice: a bounded window on a context (characters of a text, items of a list), or
// the context's metadata.

import { newJsonObject, setOwn, type JsonValue } from "../../json";
import type { Selector } from "../../plan/ast";
import { truncateToBytes } from "../sources/byteBudget";
import { describeSelector, outOfRange, requireNonNegativeInteger, unsupportedSelector } from "../contextErrors";
import { copyJson } from "../jsonCopy";
import type { ContextLimits } from "../limits";
import type { OpenPayload, Work } from "../payload";
import { printTerm, termBytes } from "../prolog/prologTerm";
import { boundedChars } from "../sources/textSource";

/**
 * bounded_term/4: the item itself when its printed form fits the budget, else a preview of that
 * printed form. The reference returns the Prolog dict `truncated_term{preview: P}` there, whose
 * JSON form is `{"preview": P}` (a dict's tag is not written): the outcome's `truncated` flag
 * is what tells it from an item that is such an object.
 */
export function boundedTerm(item: JsonValue, maxBytes: number): Work {
  const printed = printTerm(item);
  const bounded = truncateToBytes(printed, maxBytes);
  if (!bounded.truncated) return { value: copyJson(item), truncated: false };
  const preview = newJsonObject();
  setOwn(preview, "preview", bounded.text);
  return { value: preview, truncated: true };
}

/** bounded_term_list/4: the longest prefix whose printed sizes add up to at most `maxBytes`. */
function boundedTermList(items: Iterable<JsonValue>, maxBytes: number): { values: JsonValue[]; truncated: boolean } {
  const values: JsonValue[] = [];
  let bytes = 0;
  for (const item of items) {
    const size = termBytes(item);
    if (bytes + size > maxBytes) return { values, truncated: true };
    values.push(copyJson(item));
    bytes += size;
  }
  return { values, truncated: false };
}

function* itemsBetween(items: readonly JsonValue[], start: number, end: number): Generator<JsonValue> {
  for (let i = start; i < end; i++) yield items[i] as JsonValue;
}

/** bounded_term_projection/5: up to `count` items from `start`, within both limits. */
function termProjection(items: readonly JsonValue[], start: number, count: number, limits: ContextLimits): Work {
  const total = items.length;
  if (start > total) {
    throw outOfRange(start, `start ${start} is past the end of the list, which has ${total} items; use 0 to ${total}`);
  }
  const requested = Math.min(count, limits.maxResults);
  const end = Math.min(total, start + requested);
  const { values, truncated: byteTruncated } = boundedTermList(itemsBetween(items, start, end), limits.maxBytes);
  const target = Math.min(count, Math.max(0, total - start));
  return { value: values, truncated: count > limits.maxResults || values.length < target || byteTruncated };
}

/** `metadata` is built afresh for each call, so it is returned as it is. */
export async function peekWork(
  selector: Selector,
  payload: OpenPayload,
  metadata: JsonValue,
  limits: ContextLimits,
): Promise<Work> {
  if (selector.type === "metadata") return { value: metadata, truncated: false };
  if (payload.kind === "text") {
    const source = payload.text;
    const total = source.charLength;
    if (selector.type === "head") {
      requireNonNegativeInteger(selector.count, "peek head count");
      const requested = Math.min(selector.count, total);
      const bounded = await boundedChars(source, 0, requested, limits.maxBytes);
      return { value: bounded.text, truncated: requested < selector.count || requested < total || bounded.truncated };
    }
    if (selector.type === "tail") {
      requireNonNegativeInteger(selector.count, "peek tail count");
      const requested = Math.min(selector.count, total);
      const start = total - requested;
      const bounded = await boundedChars(source, start, requested, limits.maxBytes);
      return { value: bounded.text, truncated: requested < selector.count || start > 0 || bounded.truncated };
    }
    throw unsupportedSelector("text", describeSelector(selector), "use head, tail or metadata");
  }
  const items = payload.items;
  switch (selector.type) {
    case "item": {
      requireNonNegativeInteger(selector.index, "peek item index");
      const item = items[selector.index];
      if (item === undefined) {
        throw outOfRange(
          selector.index,
          `item ${selector.index} does not exist: the list has ${items.length} items, numbered from 0`,
        );
      }
      return boundedTerm(item, limits.maxBytes);
    }
    case "head":
      requireNonNegativeInteger(selector.count, "peek head count");
      return termProjection(items, 0, selector.count, limits);
    case "tail": {
      requireNonNegativeInteger(selector.count, "peek tail count");
      const start = Math.max(0, items.length - selector.count);
      const work = termProjection(items, start, selector.count, limits);
      return { value: work.value, truncated: start > 0 || work.truncated };
    }
    default:
      throw unsupportedSelector("terms", describeSelector(selector), "use item, head, tail or metadata");
  }
}

export async function sliceWork(
  start: number,
  length: number,
  payload: OpenPayload,
  limits: ContextLimits,
): Promise<Work> {
  requireNonNegativeInteger(start, "slice start");
  requireNonNegativeInteger(length, "slice length");
  if (payload.kind === "terms") return termProjection(payload.items, start, length, limits);
  const source = payload.text;
  const total = source.charLength;
  if (start > total) {
    throw outOfRange(
      start,
      `slice start ${start} is past the end of the text, which has ${total} characters; use 0 to ${total}`,
    );
  }
  const requested = Math.min(length, total - start);
  const bounded = await boundedChars(source, start, requested, limits.maxBytes);
  return { value: bounded.text, truncated: requested < length || bounded.truncated };
}
