// The items an operation walks (lines of a text or elements of a list), one at a time, with the
// one-item look-ahead the reference's "stop only if something is left" checks need.

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

/** The same over items that may have to be read first (the lines of a file). */
export class AsyncItemCursor<T> {
  readonly #source: AsyncIterator<T> | Iterator<T>;
  #pending: IteratorResult<T> | undefined;

  constructor(source: AsyncIterator<T> | Iterator<T>) {
    this.#source = source;
  }

  async hasNext(): Promise<boolean> {
    this.#pending ??= await this.#source.next();
    return this.#pending.done !== true;
  }

  /** The next item; only call after hasNext() resolved to true. */
  next(): T {
    const result = this.#pending;
    this.#pending = undefined;
    if (result === undefined || result.done === true) {
      throw new RangeError("AsyncItemCursor.next() called without a pending item");
    }
    return result.value;
  }

  /** Lets the source release what it holds when the walk stops early. */
  async close(): Promise<void> {
    await this.#source.return?.();
  }
}
