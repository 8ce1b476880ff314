// One operation's access to a registered file: opened for the operation, checked to still be
// the file that was registered (same device, inode, size and modification time), read at
// explicit positions, and closed when the operation ends, after any read still in flight.
//
// Opening, checking and closing are synchronous (metadata calls of microseconds, which would
// cost more as round trips to the thread pool); reading is not, so a long scan never blocks.

import { closeSync, constants, fstatSync, openSync, read, type BigIntStats } from "node:fs";
import { ContextFault, operationStopped, sourceChanged, sourceUnavailable } from "../../contextErrors";

/** What tells a registered file from the same path holding other bytes. */
export interface FileIdentity {
  readonly dev: bigint;
  readonly ino: bigint;
  readonly size: bigint;
  readonly mtimeNs: bigint;
}

export function identityOf(stats: BigIntStats): FileIdentity {
  return { dev: stats.dev, ino: stats.ino, size: stats.size, mtimeNs: stats.mtimeNs };
}

export function sameIdentity(a: FileIdentity, b: FileIdentity): boolean {
  return a.dev === b.dev && a.ino === b.ino && a.size === b.size && a.mtimeNs === b.mtimeNs;
}

function errorCode(error: unknown): string {
  if (typeof error === "object" && error !== null && "code" in error && typeof error.code === "string") {
    return error.code;
  }
  return "EIO";
}

/** Non-blocking, so that a FIFO put where the file was cannot hang the open (it fails the check). */
const OPEN_FLAGS = constants.O_RDONLY | (constants.O_NONBLOCK ?? 0);

function readAt(fd: number, buffer: Buffer, offset: number, length: number, position: number): Promise<number> {
  return new Promise((done, fail) => {
    read(fd, buffer, offset, length, position, (error, bytesRead) => (error ? fail(error) : done(bytesRead)));
  });
}

export class FileSession {
  readonly #fd: number;
  readonly #identity: FileIdentity;
  readonly #pending = new Set<Promise<unknown>>();
  readonly #signal: AbortSignal | undefined;
  #closed = false;

  private constructor(fd: number, identity: FileIdentity, signal: AbortSignal | undefined) {
    this.#fd = fd;
    this.#identity = identity;
    this.#signal = signal;
  }

  /**
   * Opens `path` for one operation; throws a ContextFault if it is gone or changed. Once
   * `signal` (the run's) aborts, every read fails: the operation stops with its run instead of
   * scanning the rest of a 100 MB file after the run has ended.
   */
  static open(path: string, identity: FileIdentity, signal?: AbortSignal): FileSession {
    let fd: number;
    try {
      fd = openSync(path, OPEN_FLAGS);
    } catch (error) {
      throw sourceUnavailable(errorCode(error));
    }
    const session = new FileSession(fd, identity, signal);
    try {
      session.check();
    } catch (error) {
      closeSync(fd);
      throw error;
    }
    return session;
  }

  /** Throws source_changed unless the open file is still the registered one. */
  check(): void {
    let stats: BigIntStats;
    try {
      stats = fstatSync(this.#fd, { bigint: true });
    } catch (error) {
      throw sourceUnavailable(errorCode(error));
    }
    if (!sameIdentity(identityOf(stats), this.#identity)) throw sourceChanged();
  }

  /** Reads exactly `length` bytes at `position` into buffer[offset, offset + length). */
  async read(buffer: Buffer, offset: number, length: number, position: number): Promise<void> {
    if (this.#closed) throw new Error("FileSession.read after close");
    if (this.#signal?.aborted) throw operationStopped();
    for (let done = 0; done < length;) {
      let bytesRead: number;
      try {
        bytesRead = await readAt(this.#fd, buffer, offset + done, length - done, position + done);
      } catch (error) {
        throw sourceUnavailable(errorCode(error));
      }
      // The file is shorter than when it was registered.
      if (bytesRead === 0) throw sourceChanged();
      done += bytesRead;
    }
  }

  /** A fresh buffer with the bytes [start, end) of the file. */
  async bytes(start: number, end: number): Promise<Buffer> {
    const buffer = Buffer.allocUnsafe(end - start);
    await this.read(buffer, 0, end - start, start);
    return buffer;
  }

  /**
   * Starts a read that may finish after its caller stopped caring: its failure comes back as
   * the resolved value (never an unhandled rejection), and close() waits for it.
   */
  begin(buffer: Buffer, offset: number, length: number, position: number): Promise<ContextFault | undefined> {
    const read = this.read(buffer, offset, length, position).then(
      () => undefined,
      (error: unknown) => (error instanceof ContextFault ? error : sourceUnavailable(errorCode(error))),
    );
    this.#pending.add(read);
    void read.then(() => this.#pending.delete(read));
    return read;
  }

  /** Waits for reads in flight, checks the file again if asked (it may have changed meanwhile), and closes it. */
  async close(checkAgain: boolean): Promise<void> {
    await Promise.all(this.#pending);
    this.#closed = true;
    try {
      if (checkAgain) this.check();
    } finally {
      closeSync(this.#fd);
    }
  }
}
