// Notices that the run journal changed, for the Runs page's live list: a cheap poll of the
// journal file's and its write-ahead log's size and time (SQLite writes a run's rows to the log
// first), never a query. fs.watch would miss a journal that does not exist yet and a WAL that
// another process checkpoints; a stat twice a second costs nothing.

import { statSync } from "node:fs";
import { join } from "node:path";
import { JOURNAL_FILE } from "@rlm-plan/core/journal";

/** How often the journal's files are looked at. */
export const JOURNAL_POLL_MS = 400;

export class JournalWatch {
  private readonly listeners = new Set<() => void>();
  private last: string;
  private readonly timer: NodeJS.Timeout;

  constructor(private readonly dir: string) {
    this.last = this.signature();
    this.timer = setInterval(() => this.poll(), JOURNAL_POLL_MS);
  }

  /** Calls `listener` after each change; returns what stops it. */
  onChange(listener: () => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  close(): void {
    clearInterval(this.timer);
    this.listeners.clear();
  }

  private poll(): void {
    const now = this.signature();
    if (now === this.last) return;
    this.last = now;
    for (const listener of this.listeners) listener();
  }

  private signature(): string {
    return [JOURNAL_FILE, `${JOURNAL_FILE}-wal`]
      .map((name) => {
        try {
          const stat = statSync(join(this.dir, name));
          return `${stat.size}:${stat.mtimeMs}`;
        } catch {
          return "-";
        }
      })
      .join("|");
  }
}
