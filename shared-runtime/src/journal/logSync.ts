// The journal's commits made durable without blocking the event loop (issue 34 item 10). A
// batch is committed into the write-ahead log with synchronous=NORMAL (written, not synced: a
// killed process loses nothing, the kernel holds the pages) and this syncs the log file on
// libuv's thread pool, so the runs of the process go on computing while the disk works; the
// runs that wait for their steps (the recorder, before its next call) wait for that sync. The
// commits of one turn share a sync (group commit); a commit made while a sync is under way starts
// its own at once rather than waiting for that one to end and then for its own (a sync covers
// every write before it, so syncs may end in any order). This is what synchronous=FULL does inside
// the commit (sync the log), moved off the main thread; like SQLite, the log's folder is synced
// too, once, so a new log file's name survives a power loss.

import { closeSync, fdatasync, fdatasyncSync, fsyncSync, openSync } from "node:fs";
import { dirname } from "node:path";

interface Waiter {
  readonly upTo: number;
  readonly resolve: (error: unknown) => void;
}

export class LogSync {
  private fd: number | undefined;
  /** Commits written into the log, covered by a sync started, and known to be on disk. */
  private written = 0;
  private started = 0;
  private synced = 0;
  private inFlight = 0;
  private closed = false;
  private readonly waiting: Waiter[] = [];

  /** `log`: the write-ahead log's path (`runs.sqlite-wal`). */
  constructor(private readonly log: string) {}

  /** A commit went into the log, not yet synced. */
  wrote(): void {
    this.written++;
  }

  /** Resolves once every commit written so far is on disk: to undefined, or to the error that kept it off. */
  durable(): Promise<unknown> {
    if (this.synced >= this.written) return Promise.resolve(undefined);
    return new Promise<unknown>((resolve) => {
      this.waiting.push({ upTo: this.written, resolve });
      this.start();
    });
  }

  /** Syncs what was written, blocking (closing the journal, the process exiting). */
  syncNow(): void {
    if (this.synced >= this.written) return;
    const upTo = this.written;
    this.started = Math.max(this.started, upTo);
    let error: unknown;
    try {
      fdatasyncSync(this.opened());
    } catch (failed) {
      error = failed;
    }
    this.done(upTo, error);
  }

  /** No more commits go into this log: its file is let go once the syncs under way end. */
  close(): void {
    this.closed = true;
    this.release();
  }

  /** Starts a sync for the commits no sync under way covers, if anyone waits for them. */
  private start(): void {
    if (this.waiting.length === 0 || this.started >= this.written) return;
    const upTo = this.written;
    this.started = upTo;
    let fd: number;
    try {
      fd = this.opened();
    } catch (error) {
      return this.done(upTo, error);
    }
    this.inFlight++;
    fdatasync(fd, (error) => {
      this.inFlight--;
      this.done(upTo, error ?? undefined);
    });
  }

  /** Commits up to `upTo` are synced (or failed to be: said once to their waiters, never tried again). */
  private done(upTo: number, error: unknown): void {
    this.synced = Math.max(this.synced, upTo);
    for (let i = 0; i < this.waiting.length;) {
      const waiter = this.waiting[i] as Waiter;
      if (waiter.upTo <= this.synced) {
        this.waiting.splice(i, 1);
        waiter.resolve(error);
      } else i++;
    }
    this.start();
    this.release();
  }

  private opened(): number {
    if (this.fd !== undefined) return this.fd;
    // Read-write: fsync needs a writable handle on some systems (Windows' FlushFileBuffers).
    this.fd = openSync(this.log, "r+");
    syncFolder(dirname(this.log));
    return this.fd;
  }

  private release(): void {
    if (!this.closed || this.inFlight > 0 || this.waiting.length > 0 || this.fd === undefined) return;
    try {
      // No POSIX locks live on the log (SQLite locks the -shm file): closing this handle drops none of SQLite's.
      closeSync(this.fd);
    } catch {
      // already gone
    }
    this.fd = undefined;
  }
}

/**
 * Syncs a folder's entries (the log's name), once per log this process opens, before its first
 * sync; where a folder cannot be opened or synced (Windows) there is nothing to do.
 */
function syncFolder(folder: string): void {
  let fd: number | undefined;
  try {
    fd = openSync(folder, "r");
    fsyncSync(fd);
  } catch {
    // not a thing this system does
  } finally {
    if (fd !== undefined) closeSync(fd);
  }
}
