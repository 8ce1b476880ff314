// Every file the product reads (plans, host profiles, mocks files, test files, cassettes, the plan
// files breakpoints are set in, items files read whole; datasets line by line): only a regular
// file, and only up to a size limit, checked before a byte is read. A FIFO, a terminal
// or /dev/zero is refused at once (opened without blocking, then checked with fstat), so a
// careless path never hangs the command, the adapter or the server, nor eats memory; the
// asynchronous reader leaves signals working while it reads.

// node:fs's `promises`, not node:fs/promises: the getter loads them (and Node's streams and
// readline with them) on the first asynchronous read, never for a synchronous check.
import { closeSync, constants, fstatSync, openSync, promises, readSync, type Stats } from "node:fs";

/** The largest plan file read (the editor is measured on plans up to 5 MB). */
export const MAX_PLAN_BYTES = 16 * 1024 * 1024;
/** The largest host profile read. */
export const MAX_HOST_PROFILE_BYTES = 1024 * 1024;
/** The largest mocks file read (answers are parsed, validated and kept: 16 MB is a lot of them). */
export const MAX_MOCKS_BYTES = 16 * 1024 * 1024;
/** The largest items file (`items-file` input) read: its items are held in memory as values. */
export const MAX_ITEMS_FILE_BYTES = 64 * 1024 * 1024;
/** The largest cassette read (its entries are parsed, validated and kept, as a mocks file's answers). */
export const MAX_CASSETTE_BYTES = 16 * 1024 * 1024;
/** The largest lock file read (rlmplan.lock.json: a fingerprint a tool, some 1 KB each). */
export const MAX_LOCK_BYTES = 16 * 1024 * 1024;
/** The largest line of a file read line by line (a dataset's row: one case's inputs). */
export const MAX_LINE_BYTES = 1024 * 1024;

const FLAGS = constants.O_RDONLY | (constants.O_NONBLOCK ?? 0);

/** Thrown for a file that is not regular or is over the limit; its message says which. */
export class FileRefusedError extends Error {
  constructor(
    message: string,
    readonly code: "ENOTREG" | "EFBIG",
  ) {
    super(message);
  }
}

/** The whole text of a regular file of at most maxBytes (a leading byte order mark dropped). */
export function readTextFileSync(path: string, maxBytes: number): string {
  const fd = openSync(path, FLAGS);
  try {
    const size = admit(fstatSync(fd), maxBytes);
    const buffer = Buffer.alloc(size + 1);
    let length = 0;
    for (;;) {
      const n = readSync(fd, buffer, length, buffer.length - length, null);
      if (n === 0) break;
      length += n;
      if (length > size) tooBig(length, maxBytes);
    }
    return text(buffer.subarray(0, length));
  } finally {
    closeSync(fd);
  }
}

/** The same, without blocking the event loop. */
export async function readTextFile(path: string, maxBytes: number): Promise<string> {
  const handle = await promises.open(path, FLAGS);
  try {
    const size = admit(await handle.stat(), maxBytes);
    const buffer = Buffer.alloc(size + 1);
    let length = 0;
    for (;;) {
      const { bytesRead } = await handle.read(buffer, length, buffer.length - length, null);
      if (bytesRead === 0) break;
      length += bytesRead;
      if (length > size) tooBig(length, maxBytes);
    }
    return text(buffer.subarray(0, length));
  } finally {
    await handle.close();
  }
}

/** One line of a file read line by line: its number (1-based), where it is in bytes, its text (no newline). */
export interface FileLine {
  readonly line: number;
  readonly offset: number;
  /** Its length in bytes, without the newline (readRangeSync reads it again). */
  readonly bytes: number;
  readonly text: string;
}

/**
 * The lines of a regular file of at most maxBytes, read in 64 KiB pieces so that only the line at
 * hand is held: a 100 MB dataset costs one piece and one line, not its text and a million strings.
 * A line over maxLineBytes is refused (FileRefusedError, its number in the message); a "\r" before
 * the newline is dropped, and so is a leading byte order mark.
 */
export function* readLinesSync(path: string, maxBytes: number, maxLineBytes = MAX_LINE_BYTES): Generator<FileLine> {
  const fd = openSync(path, FLAGS);
  try {
    admit(fstatSync(fd), maxBytes);
    const piece = Buffer.alloc(64 * 1024);
    let parts: Buffer[] = [];
    let partBytes = 0;
    let read = 0;
    let line = 1;
    let lineStart = 0;
    const finish = (): FileLine => {
      const bytes = parts.length === 1 ? (parts[0] as Buffer) : Buffer.concat(parts, partBytes);
      let text = bytes.toString("utf8");
      if (text.endsWith("\r")) text = text.slice(0, -1);
      if (line === 1 && text.charCodeAt(0) === 0xfeff) text = text.slice(1);
      const done = { line, offset: lineStart, bytes: partBytes, text };
      parts = [];
      partBytes = 0;
      return done;
    };
    for (;;) {
      const n = readSync(fd, piece, 0, piece.length, null);
      if (n === 0) break;
      if (read + n > maxBytes) tooBig(read + n, maxBytes);
      let from = 0;
      while (from < n) {
        const newline = piece.indexOf(10, from);
        const end = newline === -1 || newline >= n ? n : newline;
        if (partBytes + end - from > maxLineBytes)
          throw new FileRefusedError(
            `line ${line} has more than ${maxLineBytes} bytes, over the limit of a line`,
            "EFBIG",
          );
        // A copy: the piece is reused for the next read.
        parts.push(Buffer.from(piece.subarray(from, end)));
        partBytes += end - from;
        if (end === n) break;
        yield finish();
        line += 1;
        lineStart = read + end + 1;
        from = end + 1;
      }
      read += n;
    }
    if (partBytes > 0) yield finish();
  } finally {
    closeSync(fd);
  }
}

/** `length` bytes at `offset` of a regular file (a line readLinesSync gave), as text; at most maxBytes. */
export function readRangeSync(path: string, offset: number, length: number, maxBytes: number): string {
  if (length > maxBytes) tooBig(length, maxBytes);
  const fd = openSync(path, FLAGS);
  try {
    admit(fstatSync(fd), Number.MAX_SAFE_INTEGER);
    const buffer = Buffer.alloc(length);
    let done = 0;
    while (done < length) {
      const n = readSync(fd, buffer, done, length - done, offset + done);
      if (n === 0) break;
      done += n;
    }
    return buffer.subarray(0, done).toString("utf8");
  } finally {
    closeSync(fd);
  }
}

/** The size to read, or the reason the file is refused. */
function admit(stat: Stats, maxBytes: number): number {
  if (stat.isDirectory()) throw Object.assign(new Error("it is a folder, not a file"), { code: "EISDIR" });
  if (!stat.isFile()) throw new FileRefusedError(`it is ${kind(stat)}, not a regular file`, "ENOTREG");
  if (stat.size > maxBytes) tooBig(stat.size, maxBytes);
  return stat.size;
}

/** A file over the limit (or one that grew while it was read: `size` is what was read by then). */
function tooBig(size: number, maxBytes: number): never {
  throw new FileRefusedError(`it has ${size} bytes or more, over the limit of ${maxBytes}`, "EFBIG");
}

function kind(stat: Stats): string {
  if (stat.isFIFO()) return "a FIFO (named pipe)";
  if (stat.isCharacterDevice()) return "a character device";
  if (stat.isBlockDevice()) return "a block device";
  if (stat.isSocket()) return "a socket";
  return "not a plain file";
}

function text(bytes: Buffer): string {
  const decoded = bytes.toString("utf8");
  return decoded.charCodeAt(0) === 0xfeff ? decoded.slice(1) : decoded;
}
