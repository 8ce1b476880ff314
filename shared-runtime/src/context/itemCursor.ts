// The items an operation walks (lines of a text or elements of a list), one at a time, with the
// one-item look-ahead the reference's "stop only if something is left" checks need.

import type { JsonValue } from "../json";
import type { ContextPayload } from "./payload";

export class ItemCursor<T> {
  readonly #source: Iterator<T>;
  #pending: IteratorResult<T> | undefined;

  constructor(source: Iterator<T>) {
    this.#source = source;
  }

  hasNext(): boolean {
    this.#pending ??= this.#source.next();
    return this.#pending.done !== true;
  }

  /** The next item; only call after hasNext() returned true. */
  next(): T {
    const result = this.#pending ?? this.#source.next();
    this.#pending = undefined;
    if (result.done === true) throw new RangeError("ItemCursor.next() called past the last item");
    return result.value;
  }
}

/** Lines of a text, or the items of a list, as the sequence search, partition and map walk. */
export function payloadItems(payload: ContextPayload): ItemCursor<JsonValue> {
  return new ItemCursor<JsonValue>(payload.kind === "text" ? payload.text.lines() : payload.items[Symbol.iterator]());
}
