// Sequential reads of a range of a file in fixed-size chunks, into two reused buffers: while the
// caller works on one window, the next chunk is already being read into the other. A window may
// begin with the last few bytes of the previous one, for what straddles a chunk boundary.

import type { ContextFault } from "../../contextErrors";
import type { FileSession } from "./fileSession";

/** Bytes [base, base + bytes.length) of the file; valid until the next call to next(). */
export interface Window {
  readonly base: number;
  readonly bytes: Buffer;
}

interface Read {
  readonly done: Promise<ContextFault | undefined>;
  readonly slot: 0 | 1;
  readonly position: number;
  readonly length: number;
}

export class ChunkStream {
  readonly #session: FileSession;
  readonly #end: number;
  readonly #chunkBytes: number;
  readonly #maxCarry: number;
  readonly #prefetch: boolean;
  readonly #buffers: (Buffer | undefined)[] = [undefined, undefined];
  #slot: 0 | 1 = 0;
  #position: number;
  #inFlight: Read | undefined;
  #last: Window | undefined;

  /** Reads [start, end) in chunks of `chunkBytes`; windows can carry up to `maxCarry` bytes. */
  constructor(session: FileSession, start: number, end: number, chunkBytes: number, maxCarry = 0, prefetch = true) {
    this.#session = session;
    this.#position = start;
    this.#end = end;
    this.#chunkBytes = Math.max(1, Math.min(chunkBytes, end - start));
    this.#maxCarry = maxCarry;
    this.#prefetch = prefetch;
  }

  /** The next window, starting with the last `keep` bytes of the previous one; undefined at the end. */
  async next(keep = 0): Promise<Window | undefined> {
    const previous = this.#last;
    const carried = previous === undefined ? 0 : Math.min(keep, this.#maxCarry, previous.bytes.length);
    const read = this.#inFlight ?? this.#start();
    this.#inFlight = undefined;
    if (read === undefined) return (this.#last = undefined);
    const fault = await read.done;
    if (fault !== undefined) throw fault;
    const buffer = this.#buffers[read.slot] as Buffer;
    const at = this.#maxCarry - carried;
    if (previous !== undefined && carried > 0) {
      previous.bytes.copy(buffer, at, previous.bytes.length - carried);
    }
    const window: Window = { base: read.position - carried, bytes: buffer.subarray(at, this.#maxCarry + read.length) };
    this.#last = window;
    if (this.#prefetch) this.#inFlight = this.#start();
    return window;
  }

  #start(): Read | undefined {
    if (this.#position >= this.#end) return undefined;
    const slot = this.#slot;
    this.#slot = slot === 0 ? 1 : 0;
    const buffer = (this.#buffers[slot] ??= Buffer.allocUnsafe(this.#maxCarry + this.#chunkBytes));
    const length = Math.min(this.#chunkBytes, this.#end - this.#position);
    const read: Read = {
      done: this.#session.begin(buffer, this.#maxCarry, length, this.#position),
      slot,
      position: this.#position,
      length,
    };
    this.#position += length;
    return read;
  }
}
