// A text backed by a file, for files far larger than memory would like: registration reads it
// once to measure and index it; each operation then opens it, checks it is unchanged, reads only
// the chunks it needs, and closes it. Results are those of the same text held in memory.
//
// The file is decoded as UTF-8; invalid bytes become U+FFFD exactly as Buffer#toString("utf8")
// (and so readFileSync(path, "utf8")) decodes them, and a byte order mark stays a character.

import { stat } from "node:fs/promises";
import { resolve } from "node:path";
import { hasLoneSurrogate } from "../codePoints";
import { fileChars } from "./fileChars";
import { scanFile, type FileScan } from "./fileIndex";
import { scanLines } from "./fileLines";
import { searchBytes } from "./fileSearch";
import { FileSession, identityOf, type FileIdentity } from "./fileSession";
import type { LineMatch, TextLine, TextReader, TextSource } from "../textSource";

export interface TextFileOptions {
  /** Bytes per read (default 1 MiB): memory per operation is about two chunks. */
  readonly chunkBytes?: number;
  /** Bytes between index entries (default 64 KiB): a read at a position decodes at most this much first. */
  readonly indexStrideBytes?: number;
}

export const DEFAULT_CHUNK_BYTES = 1 << 20;
export const DEFAULT_INDEX_STRIDE_BYTES = 1 << 16;
/** The stride widens for files of more than 4 GiB, so that the index stays under 1.5 MiB. */
const MAX_INDEX_ENTRIES = 1 << 16;

function positiveInteger(value: number | undefined, fallback: number, what: string): number {
  if (value === undefined) return fallback;
  if (!Number.isSafeInteger(value) || value <= 0) throw new RangeError(`${what} must be a positive integer`);
  return value;
}

class FileText implements TextSource {
  readonly byteLength: number;
  readonly charLength: number;
  readonly lineCount: number;
  readonly #path: string;
  readonly #identity: FileIdentity;
  readonly #scan: FileScan;
  readonly #chunkBytes: number;

  constructor(path: string, identity: FileIdentity, scan: FileScan, chunkBytes: number) {
    this.#path = path;
    this.#identity = identity;
    this.#scan = scan;
    this.#chunkBytes = chunkBytes;
    this.byteLength = scan.textBytes;
    this.charLength = scan.chars;
    this.lineCount = scan.newlines + 1;
  }

  async read<T>(use: (reader: TextReader) => Promise<T>, signal?: AbortSignal): Promise<T> {
    const session = FileSession.open(this.#path, this.#identity, signal);
    let result: T;
    try {
      result = await use(this.#reader(session));
    } catch (error) {
      await session.close(false).catch(() => undefined);
      throw error;
    }
    await session.close(true);
    return result;
  }

  #reader(session: FileSession): TextReader {
    const scan = this.#scan;
    const chunkBytes = this.#chunkBytes;
    return {
      byteLength: this.byteLength,
      charLength: this.charLength,
      lineCount: this.lineCount,
      chars: (start, count) => fileChars(session, scan, chunkBytes, start, count),
      lines: (capBytes, countChars) => fileLines(session, scan, chunkBytes, capBytes, countChars),
      matches: (pattern, capBytes) => this.#matches(session, pattern, capBytes),
    };
  }

  #matches(session: FileSession, pattern: string, capBytes: number): AsyncIterable<LineMatch> {
    const scan = this.#scan;
    // Lines never hold a newline, so such a pattern matches nothing.
    if (pattern.includes("\n")) return noMatches();
    if (hasLoneSurrogate(pattern) || (!scan.valid && pattern.includes("\uFFFD"))) {
      return lineMatches(session, scan, this.#chunkBytes, pattern, capBytes);
    }
    return searchBytes(session, scan, this.#chunkBytes, Buffer.from(pattern, "utf8"), capBytes);
  }
}

async function* noMatches(): AsyncGenerator<LineMatch, void, undefined> {}

async function* fileLines(
  session: FileSession,
  scan: FileScan,
  chunkBytes: number,
  capBytes: number,
  countChars: boolean,
): AsyncGenerator<TextLine, void, undefined> {
  for await (const line of scanLines(session, scan.size, chunkBytes, { capBytes, countChars })) {
    yield line.whole ? line.text : { charLength: line.charLength };
  }
}

/** The slower way, line by line through the decoder, for patterns the bytes cannot decide. */
async function* lineMatches(
  session: FileSession,
  scan: FileScan,
  chunkBytes: number,
  pattern: string,
  capBytes: number,
): AsyncGenerator<LineMatch, void, undefined> {
  let index = 0;
  for await (const line of scanLines(session, scan.size, chunkBytes, { capBytes, countChars: false, pattern })) {
    if (line.contains) yield { index, text: line.text, last: index === scan.newlines };
    index++;
  }
}

/** Registration failed: the file could not be read, or changed while it was being read. */
function registrationError(path: string, error: unknown): Error {
  const reason = error instanceof Error ? error.message : String(error);
  return new Error(`cannot register ${path} as a text file: ${reason}`, { cause: error });
}

/**
 * Reads and indexes the file at `path` (resolved against the current directory now). Rejects
 * with the file system's error if it cannot be read, or if it is not a regular file.
 */
export async function openTextFile(path: string, options: TextFileOptions = {}): Promise<TextSource> {
  const chunkBytes = positiveInteger(options.chunkBytes, DEFAULT_CHUNK_BYTES, "chunkBytes");
  const stride = positiveInteger(options.indexStrideBytes, DEFAULT_INDEX_STRIDE_BYTES, "indexStrideBytes");
  const absolute = resolve(path);
  const stats = await stat(absolute, { bigint: true });
  if (!stats.isFile()) throw registrationError(absolute, new Error("not a regular file"));
  const identity = identityOf(stats);
  let scan: FileScan;
  try {
    const session = FileSession.open(absolute, identity);
    try {
      const size = Number(identity.size);
      scan = await scanFile(session, size, chunkBytes, Math.max(stride, Math.ceil(size / MAX_INDEX_ENTRIES)));
    } catch (error) {
      await session.close(false).catch(() => undefined);
      throw error;
    }
    await session.close(true);
  } catch (error) {
    throw registrationError(absolute, error);
  }
  return new FileText(absolute, identity, scan, chunkBytes);
}
