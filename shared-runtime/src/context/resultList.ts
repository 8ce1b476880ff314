// The list an operation builds (parts, mapped items, matches), bounded by the output bytes its run
// has left: a result over them fails the step on the output budget anyway, so past that size its
// items are only measured, never kept. A partition of a 1 MB text into single characters then holds
// no million parts (400 MB), and the budget error still reports the result's exact size.

import { utf8Length, type JsonValue } from "../json";
import type { Work } from "./payload";

export class ResultList {
  private readonly items: JsonValue[] = [];
  private count = 0;
  /** The list's JSON text so far, in UTF-8 bytes, brackets included; measured only under a cap. */
  private bytes = 2;

  /** `cap`: the output bytes the run has left; undefined outside a run (nothing measured). */
  constructor(private readonly cap: number | undefined) {}

  /** How many items the result has, kept or only measured. */
  get length(): number {
    return this.count;
  }

  push(item: JsonValue): void {
    this.count++;
    if (this.cap === undefined) {
      this.items.push(item);
      return;
    }
    this.bytes += utf8Length(JSON.stringify(item)) + (this.count > 1 ? 1 : 0);
    if (this.bytes <= this.cap) this.items.push(item);
    else if (this.items.length > 0) this.items.length = 0;
  }

  /** The operation's result: the list, or its size alone when it is over the cap. */
  work(truncated: boolean): Work {
    if (this.cap !== undefined && this.bytes > this.cap) return { value: [], truncated, oversize: this.bytes };
    return { value: this.items, truncated };
  }
}
