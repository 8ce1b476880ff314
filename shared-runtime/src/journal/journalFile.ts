// One journal file as this process holds it: a single connection per file, shared by every
// JournalStore opened on it (a `rlm-plan test --jobs 8` opens one per case), so the file is
// checked once per process, not once per run, and the steps of concurrent runs share commits.
//
// Opening checks the file is sound: SQLite's `quick_check` (every page's structure; a truncated
// file or a header whose page count is not the file's fails as the file is read). A file that is not a
// journal, is damaged, or was written by a newer format is never written into, deleted or
// changed: it is renamed aside with its -wal and -shm, a fresh journal is started, and the notice
// says so. The generation counts the files this process has used at the path: a writer that wrote
// rows into an earlier one writes its run again, whole, into the new one.
//
// Group commit: a writer asks for its rows to be committed (`commitSoon`); every writer that asks
// before the process next turns to its event loop is written in one transaction into the
// write-ahead log, and the promise resolves once the log is synced (logSync.ts: on the thread
// pool, so the event loop runs the other runs meanwhile, and one sync covers every commit made
// while the previous one was under way). WAL lets other processes read meanwhile and queues their
// writers on the file's lock. Where the file cannot be in WAL mode, each batch commits with
// synchronous=FULL, on disk when the commit returns.

import { existsSync, readFileSync, renameSync, statSync, writeFileSync } from "node:fs";
import { basename } from "node:path";
import { APPLICATION_ID, APPROVALS_SCHEMA, JOURNAL_FORMAT, SCHEMA } from "./schema";
import { addMissingParts } from "./addedParts";
import { LogSync } from "./logSync";
import { statement } from "./rows";
import { isDamage, sqlite, type Database } from "./sqlite";

/** How long a writer waits for another process's transaction before it gives up. */
const BUSY_TIMEOUT_MS = 10_000;

/** The journal could not be opened at all (a folder that cannot be created, no SQLite). */
export class JournalError extends Error {}

/** Rows to commit: written inside the batch's transaction, told the outcome after it. */
export interface BatchWriter {
  /** Writes this writer's pending rows (inside the batch's transaction). */
  writeRows(db: Database, generation: number): void;
  /** The batch committed (true) or failed without damage (false: the rows stay pending). */
  settled(committed: boolean, error?: unknown): void;
  /** The batch found the file damaged; it was moved aside with this notice (said by one writer). */
  damaged(notice: string): void;
  /** The batch is committed but the log could not be synced (not tried again): the notice says so. */
  unsynced(notice: string): void;
}

const open = new Map<string, JournalFile>();

/** How long a released connection stays open for the next user. */
const IDLE_MS = 2_000;

let closing = false;
/** Every connection is closed as the process exits (the last close folds the log into the file). */
function closeAtExit(): void {
  if (closing) return;
  closing = true;
  process.once("exit", () => {
    for (const file of [...open.values()]) file.closeNow();
  });
}

/** The file's and its log's inode, size and modification time: what another connection's or a stray write changes. */
export function fileState(path: string): string | undefined {
  const state = (file: string) => {
    try {
      const s = statSync(file);
      return `${s.dev}:${s.ino}:${s.size}:${s.mtimeMs}`;
    } catch {
      return "-";
    }
  };
  const main = state(path);
  return main === "-" ? undefined : `${main} ${state(`${path}-wal`)}`;
}

export class JournalFile {
  /** What opening did that a user should know: handed to the first store that opens the file. */
  notices: string[] = [];
  /** Bumped each time the file at the path is replaced (moved aside here or by another process). */
  generation = 1;
  private database: Database;
  /** Syncs the write-ahead log off the event loop; undefined where the file is not in WAL mode. */
  private log: LogSync | undefined;
  private refs = 0;
  private idle: NodeJS.Timeout | undefined;
  /** The file's state after this connection's last commit (fileState): another writer or a stray write changes it. */
  lastSeen: string | undefined;
  private readonly pending = new Set<BatchWriter>();
  private batch: Promise<void> | undefined;
  /** Whether a writer of the coming batch waits for the disk (a run's first row alone does not). */
  private batchSynced = false;

  private constructor(readonly path: string) {
    this.database = this.openChecked();
    this.lastSeen = fileState(path);
  }

  /**
   * The process's connection to `path`, opened (and checked) on first use. One released a moment
   * ago is used again when the file is as it left it (`rlm-plan test --jobs 1` opens the journal
   * once per case): checking and closing it each time (a checkpoint, an fsync) cost more than the runs.
   */
  static acquire(path: string): JournalFile {
    let file = open.get(path);
    if (file && file.refs === 0 && !file.unchanged()) {
      file.closeNow();
      file = undefined;
    }
    if (!file) {
      file = new JournalFile(path);
      open.set(path, file);
      closeAtExit();
    }
    clearTimeout(file.idle);
    file.idle = undefined;
    file.refs++;
    return file;
  }

  get db(): Database {
    return this.database;
  }

  /** One user less; the last one's leaves the connection open a moment for the next (never past the process). */
  release(): void {
    if (--this.refs > 0) return;
    this.commitNow();
    this.lastSeen = fileState(this.path);
    this.idle = setTimeout(() => this.closeNow(), IDLE_MS);
    this.idle.unref();
  }

  /** Whether the file at the path is the one this connection last wrote (same inode, size and time). */
  unchanged(): boolean {
    return this.lastSeen !== undefined && this.lastSeen === fileState(this.path);
  }

  closeNow(): void {
    clearTimeout(this.idle);
    if (open.get(this.path) === this) open.delete(this.path);
    this.commitNow();
    this.log?.syncNow();
    this.log?.close();
    // Only our own writes since our last commit (the open's check holds): the closed file is sound.
    const clean = this.unchanged();
    closeQuietly(this.database);
    if (clean) markChecked(this.path);
  }

  /** After a damage error: moves the file aside and starts a fresh one. Returns the notice. */
  recover(error: unknown): string {
    const notice = this.moveAside("damaged", `it is damaged (${messageOf(error)})`);
    this.replace();
    return notice;
  }

  /** Reopens the file now at the path (another process moved the one we had aside). */
  reopen(): void {
    this.replace();
  }

  /**
   * Commits `writer`'s rows with those of every writer asking in this turn; resolves once on disk
   * (or failed), or, when no writer of the batch asked for `synced`, once committed: the next
   * synced batch's sync covers it (a sync is of the whole log), and none is waited for in vain.
   */
  commitSoon(writer: BatchWriter, synced = true): Promise<void> {
    this.pending.add(writer);
    if (synced) this.batchSynced = true;
    this.batch ??= new Promise<void>((resolve) =>
      setImmediate(() => {
        const writers = this.commitNow();
        const log = this.batchSynced ? this.log : undefined;
        this.batchSynced = false;
        // Every commit so far, this one's and any made outside a batch: each run waits for its own.
        if (!log) return resolve();
        void log.durable().then((error) => {
          if (error !== undefined) {
            const notice = `the run journal could not be synced to disk (a power loss may lose it): ${messageOf(error)}`;
            for (const written of writers) written.unsynced(notice);
          }
          resolve();
        });
      }),
    );
    return this.batch;
  }

  /**
   * Commits what is pending at once, in one transaction, into the log (synced by `log`, or, not
   * in WAL mode, with the commit). Returns the writers whose rows it committed.
   */
  commitNow(): BatchWriter[] {
    this.batch = undefined;
    if (this.pending.size === 0) return [];
    const writers = [...this.pending];
    this.pending.clear();
    const write = () => {
      const db = this.database;
      const generation = this.generation;
      if (this.log) this.logged(() => db.transaction(() => writers.forEach((w) => w.writeRows(db, generation)))());
      else db.transaction(() => writers.forEach((w) => w.writeRows(db, generation)))();
    };
    try {
      write();
    } catch (error) {
      if (!isDamage(error)) {
        for (const writer of writers) writer.settled(false, error);
        return [];
      }
      const notice = this.recover(error);
      writers[0]?.damaged(notice);
      // Every writer of the batch writes its run again, whole, into the fresh file.
      for (const writer of writers) this.pending.add(writer);
      try {
        write();
      } catch (again) {
        this.pending.clear();
        for (const writer of writers) writer.settled(false, again);
        return [];
      }
      this.pending.clear();
    }
    this.lastSeen = fileState(this.path);
    for (const writer of writers) writer.settled(true);
    return writers;
  }

  /** Runs a transaction committed without syncing (synchronous=NORMAL): `log` syncs it (the next batch's sync). */
  private logged(work: () => void): void {
    const db = this.database;
    // Prepared once per connection: every batch sets both.
    statement(db, "PRAGMA synchronous = NORMAL").run();
    try {
      work();
      this.log?.wrote();
    } finally {
      statement(db, "PRAGMA synchronous = FULL").run();
    }
  }

  private replace(): void {
    // Syncs under way on the old log end on its own handle; the new file gets its own.
    this.log?.close();
    this.log = undefined;
    closeQuietly(this.database);
    this.database = this.openChecked();
    this.lastSeen = fileState(this.path);
    this.generation++;
  }

  /** Opens the file, moving aside what cannot be used, until a usable journal is open. */
  private openChecked(): Database {
    const Sqlite = sqlite();
    for (let tries = 0; ; tries++) {
      let db: Database | undefined;
      try {
        db = new Sqlite(this.path, { timeout: BUSY_TIMEOUT_MS });
        // A file as this program left it at its last close was checked then: not read whole again.
        const prepared = prepare(db, readChecked(this.path) === fileState(this.path));
        if ("wal" in prepared) {
          this.log = prepared.wal ? new LogSync(`${this.path}-wal`) : undefined;
          return db;
        }
        const refusal = prepared;
        closeQuietly(db);
        db = undefined;
        this.notices.push(this.moveAside(refusal.suffix, refusal.why));
      } catch (error) {
        if (db) closeQuietly(db);
        if (!isDamage(error) || tries > 2) {
          throw new JournalError(`the run journal ${this.path} could not be opened: ${messageOf(error)}`);
        }
        this.notices.push(this.moveAside("damaged", `it is damaged (${messageOf(error)})`));
      }
    }
  }

  /** Renames the journal (and its -wal and -shm files) aside; nothing is deleted. */
  private moveAside(suffix: string, why: string): string {
    const stamp = new Date()
      .toISOString()
      .replace(/[-:]/g, "")
      .replace(/\.\d+Z$/, "Z");
    let aside = `${this.path}.${suffix}-${stamp}`;
    // Two in one second (a fresh file found damaged again): the second gets a number.
    for (let n = 2; existsSync(aside); n++) aside = `${this.path}.${suffix}-${stamp}-${n}`;
    for (const part of ["", "-wal", "-shm"]) {
      const from = `${this.path}${part}`;
      if (!existsSync(from)) continue;
      try {
        renameSync(from, `${aside}${part}`);
      } catch (error) {
        throw new JournalError(`the run journal ${from} could not be moved aside: ${messageOf(error)}`);
      }
    }
    return `the run journal ${this.path} was not used: ${why}; it was moved to ${basename(aside)} (nothing deleted) and a new journal was started`;
  }
}

/** Checks the format and soundness and sets the connection up: a reason to move the file aside, or whether it is in WAL mode. */
function prepare(db: Database, checkedBefore: boolean): { suffix: string; why: string } | { wal: boolean } {
  const format = db.pragma("user_version", { simple: true }) as number;
  const application = db.pragma("application_id", { simple: true }) as number;
  const tables = db.prepare("SELECT count(*) AS n FROM sqlite_schema").get() as { n: number };
  if (application !== APPLICATION_ID && (application !== 0 || tables.n > 0)) {
    return { suffix: "foreign", why: "it is not an rlm-plan run journal" };
  }
  if (format > JOURNAL_FORMAT) {
    return {
      suffix: "newer",
      why: `it was written by a newer rlm-plan (journal format ${format}; this rlm-plan reads format ${JOURNAL_FORMAT})`,
    };
  }
  if (tables.n > 0 && !checkedBefore) {
    // Every page's structure, once per process: a damaged page that no write happens to touch
    // would otherwise take new runs and lose them (and every listing) later. About 0.1 s per
    // 1,000 runs of 30 steps, so skipped when the file is as this program last closed it.
    const problems = db.prepare("PRAGMA quick_check(3)").raw().all() as [string][];
    const first = problems[0]?.[0];
    if (first !== "ok") return { suffix: "damaged", why: `it is damaged (${firstProblem(first)})` };
  }
  // WAL before anything is written: readers never wait for writers, writers queue on one lock.
  // A file system without shared memory refuses WAL: the journal then commits each batch synced.
  const wal = db.pragma("journal_mode = WAL", { simple: true }) === "wal";
  db.pragma("synchronous = FULL");
  db.pragma(`busy_timeout = ${BUSY_TIMEOUT_MS}`);
  if (format === 0) {
    db.transaction(() => {
      // Another process may have created it between our read and our write lock.
      if ((db.pragma("user_version", { simple: true }) as number) !== 0) return;
      db.pragma("auto_vacuum = INCREMENTAL");
      db.exec(SCHEMA);
      db.exec(APPROVALS_SCHEMA);
      db.pragma(`application_id = ${APPLICATION_ID}`);
      db.pragma(`user_version = ${JOURNAL_FORMAT}`);
    }).immediate();
  } else if (format === JOURNAL_FORMAT) addMissingParts(db);
  return { wal };
}

/**
 * The file's state (fileState) as this program last closed it, sound, kept beside it in
 * `runs.sqlite.checked`: a later open finding the file in that state (no write since, by anyone,
 * SQLite or not) need not read every page again. Any other state is checked.
 */
function readChecked(path: string): string | undefined {
  try {
    return readFileSync(`${path}.checked`, "utf8");
  } catch {
    return undefined;
  }
}

function markChecked(path: string): void {
  const state = fileState(path);
  try {
    if (state !== undefined) writeFileSync(`${path}.checked`, state);
  } catch {
    // not kept: the next open checks the file whole
  }
}

/** quick_check's first finding on one line ("Tree 4 page 20: btreeInitPage() returns error code 11"). */
function firstProblem(report: string | undefined): string {
  const lines = (report ?? "").split("\n").filter((line) => line !== "" && !/^\*\*\* in database/.test(line));
  return `quick_check: ${lines[0] ?? "no answer"}`;
}

function closeQuietly(db: Database): void {
  try {
    db.close();
  } catch {
    // a damaged connection may refuse to close cleanly; the file is aside already
  }
}

export function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
