// Read access to a text context by code point and by line. Operations only use this interface,
// so a text kept outside memory (a large file) can implement it without them changing.

import { utf8Length } from "../json";
import { truncateToBytes, type BoundedText } from "./byteBudget";

export interface TextSource {
  /** UTF-8 bytes of the whole text. */
  readonly byteLength: number;
  /** Length in code points, as SWI-Prolog's string_length counts. */
  readonly charLength: number;
  /** Lines as split_string(Text, "\n", "", Lines) gives them: "" is one line, "a\n" two. */
  readonly lineCount: number;
  /** The code points [start, start + count), clamped to the text. */
  chars(start: number, count: number): string;
  /** The lines in order, produced one at a time. */
  lines(): Iterator<string>;
}

const SURROGATE = /[\uD800-\uDFFF]/;
/** Code points between two remembered UTF-16 offsets of a text with astral characters. */
const CHECKPOINT_STRIDE = 1024;

function isPairAt(text: string, i: number): boolean {
  const high = text.charCodeAt(i);
  if (high < 0xd800 || high > 0xdbff) return false;
  const low = text.charCodeAt(i + 1);
  return low >= 0xdc00 && low <= 0xdfff;
}

/** Code points in `text`; a lone surrogate counts as one, as string iteration does. */
export function codePointCount(text: string): number {
  if (!SURROGATE.test(text)) return text.length;
  let count = 0;
  for (let i = 0; i < text.length; i += isPairAt(text, i) ? 2 : 1) count++;
  return count;
}

class MemoryText implements TextSource {
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
    if (!SURROGATE.test(text)) {
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

/** A text held in memory, stored once and never split into lines or copied per operation. */
export function memoryTextSource(text: string): TextSource {
  return new MemoryText(text);
}

/**
 * sub_string/5 then truncate_text_bytes/4, reading no more of the text than the budget can
 * return: a code point is at least one byte, so `maxBytes` code points always fill the budget.
 */
export function boundedChars(source: TextSource, start: number, count: number, maxBytes: number): BoundedText {
  if (count > maxBytes) {
    return { text: truncateToBytes(source.chars(start, Math.max(0, maxBytes)), maxBytes).text, truncated: true };
  }
  return truncateToBytes(source.chars(start, count), maxBytes);
}
