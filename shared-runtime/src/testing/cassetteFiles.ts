// The cassettes of one test run: each file read once however many cases replay it, and, when
// recording, each file's entries collected from every case (derived from the run journal's
// record of the case's run: cassetteRecording.ts) and written once at the end, sorted by case
// so a recording again changes only what changed.

import { mkdirSync, writeFileSync } from "node:fs";
import { dirname } from "node:path";
import { shownPath } from "../text/shownPath";
import type { SecretMask } from "../mask/secretMask";
import { cassetteText, loadCassette, type CassetteEntry, type CassetteResult } from "./cassette";
import { RecordedRuns } from "./cassetteRecording";

export class CassetteFiles {
  private readonly read = new Map<string, CassetteResult>();
  private readonly recorded = new Map<string, CassetteEntry[]>();

  /** The journal runs the recorded cases' cassettes were derived from. */
  readonly journal = new RecordedRuns();

  /** `mask` hides every secret the run knows (provider keys) in what is recorded. */
  constructor(private readonly mask: SecretMask) {}

  cassette(file: string): CassetteResult {
    let result = this.read.get(file);
    if (!result) {
      result = loadCassette(file, shownPath(file));
      this.read.set(file, result);
    }
    return result;
  }

  /** A recorded case's entries (from the journal) for the cassette `file`. */
  add(file: string, entries: readonly CassetteEntry[]): void {
    let list = this.recorded.get(file);
    if (!list) {
      list = [];
      this.recorded.set(file, list);
    }
    for (const entry of entries) list.push(this.mask.maskValue(entry));
  }

  /** Writes every recorded cassette; returns the files written. */
  write(now: Date = new Date()): string[] {
    const written: string[] = [];
    for (const [file, entries] of this.recorded) {
      // Stable: by case, then in the order the case made its calls.
      const sorted = entries
        .map((entry, i) => ({ entry, i }))
        .sort((a, b) => compareText(a.entry.case ?? "", b.entry.case ?? "") || a.i - b.i)
        .map(({ entry }) => entry);
      mkdirSync(dirname(file), { recursive: true });
      writeFileSync(file, cassetteText(sorted, now.toISOString()));
      written.push(file);
    }
    return written;
  }
}

function compareText(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
