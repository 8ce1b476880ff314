// A text held in memory, stored once and never split into lines or copied per operation.

import { utf8Length } from "../../json";
import { hasSurrogates, isPairAt } from "./codePoints";
import type { LineMatch, TextLine, TextReader, TextSource } from "./textSource";

/** Code points between two remembered UTF-16 offsets of a text with astral characters. */
const CHECKPOINT_STRIDE = 1024;

/** A memory text also offers synchronous reads. */
export interface MemoryTextSource extends TextSource {
  /** The code points [start, start + count), clamped to the text. */
  chars(start: number, count: number): string;
  /** The lines in order, produced one at a time. */
  lines(): Iterator<string>;
}

class MemoryText implements MemoryTextSource {
  readonly byteLength: number;
  readonly charLength: number;
  readonly lineCount: number;
  readonly #text: string;
  /** UTF-16 offset of every CHECKPOINT_STRIDE-th code point; absent when the two coincide. */
  readonly #checkpoints: Uint32Array | undefined;

  constructor(text: string) {
    this.#text = text;
    this.byteLength = utf8Length(text);
    let lines = 1;
    for (let at = text.indexOf("\n"); at >= 0; at = text.indexOf("\n", at + 1)) lines++;
    this.lineCount = lines;
    if (!hasSurrogates(text)) {
      this.charLength = text.length;
      this.#checkpoints = undefined;
      return;
    }
    const offsets: number[] = [];
    let count = 0;
    for (let i = 0; i < text.length; i += isPairAt(text, i) ? 2 : 1) {
      if (count % CHECKPOINT_STRIDE === 0) offsets.push(i);
      count++;
    }
    this.charLength = count;
    this.#checkpoints = Uint32Array.from(offsets);
  }

  // An in-memory text is bounded by the profile or plan it came from; no signal to watch.
  read<T>(use: (reader: TextReader) => Promise<T>): Promise<T> {
    return use(memoryReader(this));
  }

  chars(start: number, count: number): string {
    const from = Math.max(0, Math.min(start, this.charLength));
    const to = Math.max(from, Math.min(from + count, this.charLength));
    return this.#text.slice(this.#offset(from), this.#offset(to));
  }

  *lines(): Generator<string, void, undefined> {
    const text = this.#text;
    let start = 0;
    for (;;) {
      const end = text.indexOf("\n", start);
      if (end < 0) {
        yield text.slice(start);
        return;
      }
      yield text.slice(start, end);
      start = end + 1;
    }
  }

  /** UTF-16 offset of code point `index`, for 0 <= index <= charLength. */
  #offset(index: number): number {
    const checkpoints = this.#checkpoints;
    if (checkpoints === undefined) return index;
    if (index >= this.charLength) return this.#text.length;
    const block = Math.floor(index / CHECKPOINT_STRIDE);
    let offset = checkpoints[block] as number;
    for (let left = index - block * CHECKPOINT_STRIDE; left > 0; left--) {
      offset += isPairAt(this.#text, offset) ? 2 : 1;
    }
    return offset;
  }
}

/** Lines in memory always fit: whatever the cap, the whole line is returned. */
function memoryReader(text: MemoryText): TextReader {
  return {
    byteLength: text.byteLength,
    charLength: text.charLength,
    lineCount: text.lineCount,
    chars: (start, count) => Promise.resolve(text.chars(start, count)),
    lines: (): AsyncIterator<TextLine> => {
      const lines = text.lines();
      return { next: () => Promise.resolve(lines.next()) };
    },
    matches: (pattern) => memoryMatches(text, pattern),
  };
}

async function* memoryMatches(text: MemoryText, pattern: string): AsyncGenerator<LineMatch, void, undefined> {
  const lines = text.lines();
  const lastIndex = text.lineCount - 1;
  let index = 0;
  for (let line = lines.next(); line.done !== true; line = lines.next(), index++) {
    if (line.value.includes(pattern)) yield { index, text: line.value, last: index === lastIndex };
  }
}

/** A text held in memory. */
export function memoryTextSource(text: string): MemoryTextSource {
  return new MemoryText(text);
}
