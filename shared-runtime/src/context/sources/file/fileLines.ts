// The lines of a file-backed text, read chunk by chunk: a line up to the caller's cap comes as
// its text; a longer one is streamed through a decoder keeping only what was asked for (its
// code point count, a prefix longer than the cap, whether it contains a pattern).

import { StringDecoder } from "node:string_decoder";
import { ChunkStream } from "./chunkStream";
import { codePointCount, isPairAt } from "../codePoints";
import type { FileSession } from "./fileSession";

const NEWLINE = 0x0a;

export interface LineScanOptions {
  /** Lines of at most this many bytes in the file come whole. */
  readonly capBytes: number;
  /** Count the code points of longer lines. */
  readonly countChars: boolean;
  /** Keep a prefix of longer lines and decide whether each line contains this. */
  readonly pattern?: string | undefined;
}

export interface ScannedLine {
  /** The line, or a prefix of it longer than the cap (when a pattern was given; else ""). */
  readonly text: string;
  readonly whole: boolean;
  /** Code points of a line that is not whole, when counted. */
  readonly charLength: number | undefined;
  /** Whether the line contains the pattern, when one was given. */
  readonly contains: boolean;
}

/** A prefix of `text` of at least `units` UTF-16 units that does not split a surrogate pair. */
function prefixUnits(text: string, units: number): string {
  if (units >= text.length) return text;
  return text.slice(0, isPairAt(text, units - 1) ? units + 1 : units);
}

/** Accumulates one line that did not fit in one window. */
class LineBuilder {
  readonly #options: LineScanOptions;
  #pieces: Buffer[] = [];
  #rawBytes = 0;
  #long = false;
  #decoder: StringDecoder | undefined;
  #head = "";
  #chars = 0;
  #contains = false;
  #tail = "";

  constructor(options: LineScanOptions) {
    this.#options = options;
  }

  get empty(): boolean {
    return this.#rawBytes === 0;
  }

  add(bytes: Buffer, start: number, end: number): void {
    if (end <= start) return;
    this.#rawBytes += end - start;
    if (!this.#long) {
      if (this.#rawBytes <= this.#options.capBytes) {
        this.#pieces.push(Buffer.from(bytes.subarray(start, end)));
        return;
      }
      // Too long to keep: decode it on the fly only if something about its text was asked for.
      this.#long = true;
      if (this.#options.countChars || this.#options.pattern !== undefined) {
        const decoder = (this.#decoder = new StringDecoder("utf8"));
        for (const piece of this.#pieces) this.#take(decoder.write(piece));
      }
      this.#pieces = [];
    }
    if (this.#decoder !== undefined) this.#take(this.#decoder.write(bytes.subarray(start, end)));
  }

  /** The line so far as a ScannedLine; the builder is then empty again. */
  finish(): ScannedLine {
    let line: ScannedLine;
    if (!this.#long) {
      const text = Buffer.concat(this.#pieces).toString("utf8");
      const pattern = this.#options.pattern;
      line = { text, whole: true, charLength: undefined, contains: pattern !== undefined && text.includes(pattern) };
    } else {
      if (this.#decoder !== undefined) this.#take(this.#decoder.end());
      const charLength = this.#options.countChars ? this.#chars : undefined;
      line = { text: this.#head, whole: false, charLength, contains: this.#contains };
    }
    this.#pieces = [];
    this.#rawBytes = 0;
    this.#long = false;
    this.#decoder = undefined;
    this.#head = "";
    this.#chars = 0;
    this.#contains = false;
    this.#tail = "";
    return line;
  }

  #take(text: string): void {
    if (text === "") return;
    const { capBytes, countChars, pattern } = this.#options;
    if (countChars) this.#chars += codePointCount(text);
    if (pattern === undefined) return;
    // The head needs more than capBytes bytes, and a UTF-16 unit is at least one byte.
    const missing = capBytes + 1 - this.#head.length;
    if (missing > 0 && Buffer.byteLength(this.#head, "utf8") <= capBytes) this.#head += prefixUnits(text, missing);
    if (this.#contains) return;
    const joined = this.#tail + text;
    this.#contains = joined.includes(pattern);
    this.#tail = pattern.length > 1 ? joined.slice(-(pattern.length - 1)) : "";
  }
}

/** The lines of bytes [0, size), in order. */
export async function* scanLines(
  session: FileSession,
  size: number,
  chunkBytes: number,
  options: LineScanOptions,
): AsyncGenerator<ScannedLine, void, undefined> {
  const builder = new LineBuilder(options);
  const { capBytes, pattern } = options;
  const stream = new ChunkStream(session, 0, size, chunkBytes);
  for (let window = await stream.next(); window !== undefined; window = await stream.next()) {
    const bytes = window.bytes;
    for (let start = 0; start < bytes.length;) {
      const end = bytes.indexOf(NEWLINE, start);
      if (end < 0) {
        builder.add(bytes, start, bytes.length);
        break;
      }
      if (builder.empty && end - start <= capBytes) {
        const text = bytes.toString("utf8", start, end);
        yield { text, whole: true, charLength: undefined, contains: pattern !== undefined && text.includes(pattern) };
      } else {
        builder.add(bytes, start, end);
        yield builder.finish();
      }
      start = end + 1;
    }
  }
  yield builder.finish();
}
