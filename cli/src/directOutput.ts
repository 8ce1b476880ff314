// stdout and stderr written with fs.writeSync instead of Node's streams, for the output of the
// short commands (check, estimate, --version, --help). Creating process.stdout or process.stderr
// loads node:stream (and node:net for a pipe, node:tty for a terminal): 8-13 ms of CPU each, a
// tenth of a bare Node start, paid by every `check` in a pre-commit hook (bench/README.md, "Issue
// 22 target 6, fourth pass"). Node's own writes are synchronous to files and POSIX terminals and
// asynchronous to pipes (process.stdout's "A note on process I/O"): a pipe's stream writes at once
// what the pipe takes and queues the rest, and the process waits for the queue before it exits.
// A blocking write does the same for a few lines of output. The stream comes back, for this write
// and every later one (so the order holds), wherever a write cannot complete at once or fails
// otherwise: a pipe or socket someone made non-blocking (EAGAIN), a closed descriptor, Windows
// (whose console wants WriteConsoleW, which only the stream uses). A reader gone from stdout
// (`rlm-plan check | head`, EPIPE) ends the output quietly, as the stream's error handler did.

import { fstatSync, writeSync } from "node:fs";

export interface DirectOutput {
  write(text: string): boolean;
  /** Whether the descriptor is a terminal; asked only when colors could be shown. */
  readonly isTTY: boolean;
}

/**
 * A writer on `fd` (1 or 2) that falls back to `stream()` (process.stdout or process.stderr,
 * created then) for good once a write cannot complete at once.
 */
export function directOutput(fd: 1 | 2, stream: () => NodeJS.WriteStream): DirectOutput {
  let fallback: NodeJS.WriteStream | undefined = process.platform === "win32" ? stream() : undefined;
  let closed = false;
  let tty: boolean | undefined;
  return {
    write(text: string): boolean {
      if (fallback) return fallback.write(text);
      if (closed) return true;
      const bytes = Buffer.from(text, "utf8");
      let written = 0;
      try {
        while (written < bytes.length) written += writeSync(fd, bytes, written, bytes.length - written);
        return true;
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code === "EPIPE" && fd === 1) {
          closed = true;
          return true;
        }
        fallback = stream();
        return fallback.write(bytes.subarray(written));
      }
    },
    get isTTY(): boolean {
      if (fallback) return fallback.isTTY === true;
      // A file or a pipe is no terminal: node:tty (which loads node:net) only for a character device.
      // eslint-disable-next-line @typescript-eslint/no-require-imports
      tty ??= isCharacterDevice(fd) && (require("node:tty") as typeof import("node:tty")).isatty(fd);
      return tty;
    },
  };
}

function isCharacterDevice(fd: number): boolean {
  try {
    return fstatSync(fd).isCharacterDevice();
  } catch {
    return false;
  }
}
