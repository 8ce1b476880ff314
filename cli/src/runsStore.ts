// The journal a `runs` command reads, found and opened once for all of them (list, show, export,
// prune, diff): the one --journal names, else the one found from here (or the --plan file's
// folder). It first says on stderr which journal it is, so the runs of another workspace are never
// taken for these.

import { JOURNAL_FILE, JournalError, journalFrom, JournalStore, namedJournalDir } from "@rlm-plan/core/journal";
import { shownPath } from "@rlm-plan/core/text";
import { join } from "node:path";
import { shownFile } from "./guardedOutput";
import type { OutputSink } from "./sink";

/**
 * The journal open, its notices said; `{absent: DIR}` when the folder holds no journal yet; a
 * number (the exit status, 2) when none can be read, said on stderr.
 */
export function openRunsJournal(
  values: ReadonlyMap<string, string>,
  io: OutputSink,
): JournalStore | { readonly absent: string } | number {
  const named = values.get("--journal");
  const dir = named !== undefined ? namedJournalDir(named) : journalFrom(process.cwd(), values.get("--plan"));
  if (typeof dir !== "string") {
    const below = dir.map((found) => shownFile(shownPath(found))).join(", ");
    io.stderr.write(
      dir.length === 0
        ? "rlm-plan: no run journal here: no .rlm-plan/ in this folder, above it or below it, and no host profile; pass --journal DIR\n"
        : `rlm-plan: no run journal here, and ${dir.length} below: ${below}; pass --journal DIR\n`,
    );
    return 2;
  }
  io.stderr.write(`rlm-plan: journal ${shownFile(shownPath(join(dir, JOURNAL_FILE)))}\n`);
  let store: JournalStore | undefined;
  try {
    store = JournalStore.openExisting(dir);
  } catch (error) {
    io.stderr.write(`rlm-plan: ${error instanceof JournalError ? error.message : String(error)}\n`);
    return 2;
  }
  if (!store) return { absent: dir };
  for (const notice of store.notices) io.stderr.write(`rlm-plan: ${notice}\n`);
  return store;
}

/** The line for a journal that failed while being read. */
export function journalReadError(store: JournalStore, error: unknown): string {
  return `rlm-plan: the run journal ${store.file} could not be read: ${String((error as Error).message ?? error)}\n`;
}
