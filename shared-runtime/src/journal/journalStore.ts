// The run journal's file: `.rlm-plan/runs.sqlite` under the workspace, in WAL mode (a batch of
// the recorder's rows is on disk before its promise resolves, the log synced off the event loop;
// other writes commit with synchronous=FULL; several processes write at once, each waiting its
// turn on the write lock). A store is one user's handle on the process's one connection to the
// file (journalFile.ts: the soundness check on open, moving an unusable file aside, group
// commit); closing the last handle closes the connection.

import { existsSync, mkdirSync, statSync, writeFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { JournalError, JournalFile, messageOf, type BatchWriter } from "./journalFile";
import { JOURNAL_FILE } from "./schema";
import { isDamage, sqlite, type Database } from "./sqlite";

export { JournalError } from "./journalFile";

/** The journal folder's name under a workspace. */
export const JOURNAL_DIR = ".rlm-plan";

export class JournalStore {
  readonly file: string;
  /** What opening did that a user should know: a damaged or newer journal moved aside (told to the first opener). */
  readonly notices: string[];
  private readonly shared: JournalFile;
  private closed = false;

  private constructor(readonly dir: string) {
    this.file = join(dir, JOURNAL_FILE);
    this.shared = JournalFile.acquire(this.file);
    this.notices = this.shared.notices.splice(0);
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
    return new JournalStore(folder);
  }

  /** Opens an existing journal, or undefined when `dir` holds none. */
  static openExisting(dir: string): JournalStore | undefined {
    const folder = resolve(dir);
    if (!existsSync(join(folder, JOURNAL_FILE))) return undefined;
    return new JournalStore(folder);
  }

  get db(): Database {
    if (this.closed) throw new JournalError("the run journal is closed");
    return this.shared.db;
  }

  /** Which file at the path this process writes: bumped when one is moved aside and a fresh one started. */
  get generation(): number {
    return this.shared.generation;
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

  /** Whether the file is as this process's last commit left it (nobody else wrote it, nothing moved it). */
  unchanged(): boolean {
    return this.shared.unchanged();
  }

  /** Run `id` as a second connection reads it in the file now at the path: its uid and how many events it has. */
  readBack(id: number): { uid: string; events: number } | undefined {
    const check = new (sqlite())(this.file, { readonly: true, fileMustExist: true });
    try {
      const row = check.prepare("SELECT uid FROM runs WHERE id = ?").get(id) as { uid: string } | undefined;
      const events = check.prepare("SELECT count(*) AS n FROM events WHERE run_id = ?").get(id) as { n: number };
      return row ? { uid: row.uid, events: events.n } : undefined;
    } finally {
      check.close();
    }
  }

  /** After a damage error: moves the file aside and starts a fresh one. Returns the notice. */
  recover(error: unknown): string {
    return this.shared.recover(error);
  }

  /** Reopens the file now at the journal's path (it was moved aside by another process). */
  reopen(): void {
    this.shared.reopen();
  }

  /** Commits the rows writers are waiting to have committed, now, without waiting for the disk (their batch's sync does). */
  commitPending(): void {
    this.shared.commitNow();
  }

  /** Commits `writer`'s rows together with those of the other runs writing now (group commit); synced unless said. */
  commitSoon(writer: BatchWriter, synced = true): Promise<void> {
    return this.shared.commitSoon(writer, synced);
  }

  close(): void {
    if (this.closed) return;
    this.closed = true;
    this.shared.release();
  }
}

export function isJournalDamage(error: unknown): boolean {
  return isDamage(error);
}
