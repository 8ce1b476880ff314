// Where a workspace's run journal is: `.rlm-plan/` beside the host profile in force (the profile
// is what makes a folder a workspace, for the CLI and the editor alike), or a folder the user names.

import { existsSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { hostProfileIn } from "../session/hostProfiles";
import { JOURNAL_FILE } from "./schema";
import { JOURNAL_DIR } from "./store";

/** The journal folder of runs under the host profile `profileFile`. */
export function journalDirOf(profileFile: string): string {
  return join(dirname(resolve(profileFile)), JOURNAL_DIR);
}

/**
 * The journal folder seen from `folder`: the nearest `.rlm-plan/` holding a journal in it or
 * above it, else the one beside the nearest host profile; undefined when there is neither.
 */
export function findJournalDir(folder: string): string | undefined {
  let dir = resolve(folder);
  for (;;) {
    if (existsSync(join(dir, JOURNAL_DIR, JOURNAL_FILE))) return join(dir, JOURNAL_DIR);
    const parent = dirname(dir);
    if (parent === dir) break;
    dir = parent;
  }
  const profile = hostProfileIn(resolve(folder));
  return profile === undefined ? undefined : journalDirOf(profile);
}

/** The journal folder a host profile names (`journal.dir`, relative to the profile), else the one beside it. */
export function profileJournalDir(profile: {
  readonly file: string;
  readonly dir: string;
  readonly journal?: { readonly dir?: string };
}): string {
  return profile.journal?.dir === undefined ? journalDirOf(profile.file) : resolve(profile.dir, profile.journal.dir);
}
