// Every file the product reads whole (plans, host profiles, mocks files, the plan files breakpoints
// are set in, items files): only a regular file, and only up to a size limit. A FIFO, a terminal
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
