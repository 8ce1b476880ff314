// The run journal's file: `.rlm-plan/runs.sqlite` under the workspace, opened with better-sqlite3
// in WAL mode with synchronous=FULL (a committed batch is on disk before the call returns, and
// several processes write at once, each waiting its turn on the write lock). A file that is not
// a journal, is damaged, or was written by a newer format is never deleted or changed: it is
// renamed aside, a fresh journal is started, and the store says so in `notices`.

import { existsSync, mkdirSync, renameSync, statSync, writeFileSync } from "node:fs";
import { basename, join, resolve } from "node:path";
import { ADDED_RUN_COLUMNS, APPLICATION_ID, JOURNAL_FILE, JOURNAL_FORMAT, SCHEMA } from "./schema";
import { isDamage, sqlite, sqliteCode, type Database } from "./sqlite";

/** The journal folder's name under a workspace. */
export const JOURNAL_DIR = ".rlm-plan";

/** How long a writer waits for another process's transaction before it gives up. */
const BUSY_TIMEOUT_MS = 10_000;

/** The journal could not be opened at all (a folder that cannot be created, no SQLite). */
export class JournalError extends Error {}

export class JournalStore {
  readonly file: string;
  /** What opening did that a user should know: a damaged or newer journal moved aside. */
  readonly notices: string[] = [];
  private database: Database;
  private closed = false;

  private constructor(
    readonly dir: string,
    private readonly readonly: boolean,
  ) {
    this.file = join(dir, JOURNAL_FILE);
    this.database = this.openChecked();
  }

  /** Opens (creating folder and file as needed) the journal in `dir`. Throws JournalError. */
  static open(dir: string): JournalStore {
    const folder = resolve(dir);
    try {
      if (!existsSync(folder)) {
        mkdirSync(folder, { recursive: true });
        // The folder ignores itself: a run's history never lands in a commit by accident.
        writeFileSync(join(folder, ".gitignore"), "# rlm-plan's run journal (rlm-plan runs)\n*\n");
      }
    } catch (error) {
      throw new JournalError(`the run journal's folder ${folder} could not be created: ${messageOf(error)}`);
    }
    return new JournalStore(folder, false);
  }

  /** Opens an existing journal for reading only, or undefined when `dir` holds none. */
  static openExisting(dir: string): JournalStore | undefined {
    const folder = resolve(dir);
    if (!existsSync(join(folder, JOURNAL_FILE))) return undefined;
    return new JournalStore(folder, false);
  }

  get db(): Database {
    if (this.closed) throw new JournalError("the run journal is closed");
    return this.database;
  }

  /** The device and inode of the file now at the journal's path (another process may have moved it aside). */
  fileIdentity(): string | undefined {
    try {
      const s = statSync(this.file);
      return `${s.dev}:${s.ino}`;
    } catch {
      return undefined;
    }
  }

  /**
   * After a damage error: moves the file aside (if it is still the one this store opened) and
   * starts a fresh one. Returns the notice.
   */
  recover(error: unknown): string {
    const notice = this.moveAside("damaged", `it is damaged (${messageOf(error)})`);
    try {
      this.database.close();
    } catch {
      // the damaged connection may refuse to close cleanly; the file is aside already
    }
    this.database = this.openChecked();
    return notice;
  }

  /** Reopens the file now at the journal's path (it was moved aside by another process). */
  reopen(): void {
    try {
      this.database.close();
    } catch {
      // as in recover
    }
    this.database = this.openChecked();
  }

  close(): void {
    if (this.closed) return;
    this.closed = true;
    try {
      this.database.close();
    } catch {
      // closing twice or after damage: nothing left to do
    }
  }

  /** Opens the file, moving aside what cannot be used, until a usable journal is open. */
  private openChecked(): Database {
    const Sqlite = sqlite();
    for (let tries = 0; ; tries++) {
      let db: Database | undefined;
      try {
        db = new Sqlite(this.file, { timeout: BUSY_TIMEOUT_MS });
        const refusal = this.prepare(db);
        if (refusal === undefined) return db;
        db.close();
        db = undefined;
        this.notices.push(this.moveAside(refusal.suffix, refusal.why));
      } catch (error) {
        try {
          db?.close();
        } catch {
          // already unusable
        }
        if (!isDamage(error) || tries > 2) {
          throw new JournalError(`the run journal ${this.file} could not be opened: ${messageOf(error)}`);
        }
        this.notices.push(this.moveAside("damaged", `it is damaged (${messageOf(error)})`));
      }
    }
  }

  /** Checks the format and sets the store up; a reason to move the file aside, or undefined. */
  private prepare(db: Database): { suffix: string; why: string } | undefined {
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
    // WAL before anything is written: readers never wait for writers, writers queue on one lock.
    db.pragma("journal_mode = WAL");
    db.pragma("synchronous = FULL");
    db.pragma(`busy_timeout = ${BUSY_TIMEOUT_MS}`);
    if (format === 0 && !this.readonly) {
      db.transaction(() => {
        // Another process may have created it between our read and our write lock.
        if ((db.pragma("user_version", { simple: true }) as number) !== 0) return;
        db.pragma("auto_vacuum = INCREMENTAL");
        db.exec(SCHEMA);
        db.pragma(`application_id = ${APPLICATION_ID}`);
        db.pragma(`user_version = ${JOURNAL_FORMAT}`);
      }).immediate();
    } else if (format === JOURNAL_FORMAT && !this.readonly) addMissingColumns(db);
    return undefined;
  }

  /** Renames the journal (and its -wal and -shm files) aside; nothing is deleted. */
  private moveAside(suffix: string, why: string): string {
    const stamp = new Date()
      .toISOString()
      .replace(/[-:]/g, "")
      .replace(/\.\d+Z$/, "Z");
    const aside = `${this.file}.${suffix}-${stamp}`;
    for (const part of ["", "-wal", "-shm"]) {
      const from = `${this.file}${part}`;
      if (!existsSync(from)) continue;
      try {
        renameSync(from, `${aside}${part}`);
      } catch (error) {
        throw new JournalError(`the run journal ${from} could not be moved aside: ${messageOf(error)}`);
      }
    }
    return `the run journal ${this.file} was not used: ${why}; it was moved to ${basename(aside)} (nothing deleted) and a new journal was started`;
  }
}

/** A store written before a nullable column was added gets it (format unchanged: older readers name their columns). */
function addMissingColumns(db: Database): void {
  const has = (name: string) =>
    (db.prepare("SELECT count(*) AS n FROM pragma_table_info('runs') WHERE name = ?").get(name) as { n: number }).n > 0;
  if (ADDED_RUN_COLUMNS.every((column) => has(column.name))) return;
  db.transaction(() => {
    // Another process may have added them between our read and our write lock.
    for (const column of ADDED_RUN_COLUMNS) if (!has(column.name)) db.exec(`ALTER TABLE runs ADD COLUMN ${column.sql}`);
  }).immediate();
}

export function isJournalDamage(error: unknown): boolean {
  return isDamage(error);
}

export function journalErrorCode(error: unknown): string | undefined {
  return sqliteCode(error);
}

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
