// The one pass over a file at registration: its measures as a text (UTF-8 bytes once decoded,
// code points, lines) and a sparse index of positions where decoding can restart, each with
// its byte offset, code point offset and line number, so reads can start near any position.

import { ChunkStream } from "./chunkStream";
import type { FileSession } from "./fileSession";
import { byteRunStats, lastSyncPoint, syncPointFrom } from "./utf8Bytes";

/** Ascending positions in the file, at least `stride` bytes apart. */
export class SparseIndex {
  /** Byte offset of each entry (the first is 0). */
  readonly bytes: Float64Array;
  /** Code points before each entry. */
  readonly chars: Float64Array;
  /** Newlines before each entry. */
  readonly lines: Float64Array;

  constructor(bytes: readonly number[], chars: readonly number[], lines: readonly number[]) {
    this.bytes = Float64Array.from(bytes);
    this.chars = Float64Array.from(chars);
    this.lines = Float64Array.from(lines);
  }

  get size(): number {
    return this.bytes.length;
  }

  /** The last entry whose code point offset is at most `char`. */
  atChar(char: number): number {
    return lastAtMost(this.chars, char);
  }

  /** The last entry whose byte offset is at most `byte`. */
  atByte(byte: number): number {
    return lastAtMost(this.bytes, byte);
  }
}

function lastAtMost(values: Float64Array, target: number): number {
  let low = 0;
  let high = values.length - 1;
  while (low < high) {
    const mid = (low + high + 1) >> 1;
    if ((values[mid] as number) <= target) low = mid;
    else high = mid - 1;
  }
  return low;
}

export interface FileScan {
  /** Bytes in the file. */
  readonly size: number;
  /** UTF-8 bytes of the decoded text (invalid bytes decode to U+FFFD, 3 bytes each). */
  readonly textBytes: number;
  readonly chars: number;
  readonly newlines: number;
  /** Whether every byte sequence was valid UTF-8. */
  readonly valid: boolean;
  readonly index: SparseIndex;
}

/** Reads bytes [0, size) once, in chunks of `chunkBytes`, with an index entry every `stride` bytes. */
export async function scanFile(
  session: FileSession,
  size: number,
  chunkBytes: number,
  stride: number,
): Promise<FileScan> {
  const entries = { bytes: [0], chars: [0], lines: [0] };
  let textBytes = 0;
  let chars = 0;
  let newlines = 0;
  let valid = true;
  const add = (bytes: Buffer, start: number, end: number): void => {
    if (end <= start) return;
    const stats = byteRunStats(bytes, start, end);
    textBytes += stats.textBytes;
    chars += stats.chars;
    newlines += stats.newlines;
    valid &&= stats.valid;
  };
  let nextEntry = stride;
  // A window is counted up to its last sync point; the few bytes after it (a character the
  // chunk boundary may have split) start the next window.
  const stream = new ChunkStream(session, 0, size, chunkBytes, 4);
  for (let window = await stream.next(); window !== undefined;) {
    const { base, bytes } = window;
    const cut = base + bytes.length >= size ? bytes.length : lastSyncPoint(bytes, bytes.length);
    let counted = 0;
    while (nextEntry <= base + cut) {
      const at = syncPointFrom(bytes, Math.max(counted, nextEntry - base), cut);
      add(bytes, counted, at);
      counted = at;
      entries.bytes.push(base + at);
      entries.chars.push(chars);
      entries.lines.push(newlines);
      nextEntry = base + at + stride;
    }
    add(bytes, counted, cut);
    window = await stream.next(bytes.length - cut);
  }
  const index = new SparseIndex(entries.bytes, entries.chars, entries.lines);
  return { size, textBytes, chars, newlines, valid, index };
}
