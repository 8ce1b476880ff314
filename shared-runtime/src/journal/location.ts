// Where a workspace's run journal is: `.rlm-plan/` beside the host profile in force (the profile
// is what makes a folder a workspace, for the CLI and the editor alike), or a folder the user names.

import { existsSync, readdirSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { hostProfileIn } from "../host/profile";
import { JOURNAL_FILE } from "./schema";
import { JOURNAL_DIR } from "./journalStore";

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

/**
 * The journal a command without --journal reads (`rlm-plan runs`, `run --resume`): the one found
 * as the host profile is, walking up from the plan file's folder (when given) or else from
 * `folder`; else the one journal below `folder`. None, or several below: the list of those below.
 */
export function journalFrom(folder: string, planFile?: string): string | string[] {
  const fromPlan =
    planFile !== undefined && existsSync(planFile) ? findJournalDir(dirname(resolve(planFile))) : undefined;
  const found = fromPlan ?? findJournalDir(folder);
  if (found !== undefined) return found;
  const below = journalsBelow(folder);
  return below.length === 1 ? (below[0] as string) : below;
}

/** How far below a folder `journalsBelow` looks: levels, and folders in all. */
const BELOW_DEPTH = 3;
const BELOW_FOLDERS = 2_000;

/**
 * The journals in the folders below `folder`, nearest first (breadth first, names sorted): up to
 * three levels down, at most 2,000 folders read, never into node_modules or a hidden folder. What
 * `rlm-plan runs` from a repository's root reads when no journal is in it or above it (the
 * README's first run records into examples/workspace/.rlm-plan).
 */
export function journalsBelow(folder: string): string[] {
  const found: string[] = [];
  let level = [resolve(folder)];
  let read = 0;
  for (let depth = 1; depth <= BELOW_DEPTH && level.length > 0; depth++) {
    const next: string[] = [];
    for (const dir of level) {
      if (++read > BELOW_FOLDERS) return found;
      let names: string[];
      try {
        names = readdirSync(dir, { withFileTypes: true })
          .filter((entry) => entry.isDirectory() && !entry.name.startsWith(".") && entry.name !== "node_modules")
          .map((entry) => entry.name)
          .sort();
      } catch {
        continue;
      }
      for (const name of names) {
        const child = join(dir, name);
        if (existsSync(join(child, JOURNAL_DIR, JOURNAL_FILE))) found.push(join(child, JOURNAL_DIR));
        next.push(child);
      }
    }
    level = next;
  }
  return found;
}

/**
 * The journal folder a user names with `--journal DIR`: DIR itself when it holds a journal or
 * holds no `.rlm-plan/` journal, else the `.rlm-plan/` journal in it (`--journal
 * examples/workspace`, the workspace's folder, reads what `run` recorded there).
 */
export function namedJournalDir(dir: string): string {
  const folder = resolve(dir);
  if (existsSync(join(folder, JOURNAL_FILE))) return folder;
  const inside = join(folder, JOURNAL_DIR);
  return existsSync(join(inside, JOURNAL_FILE)) ? inside : folder;
}

/** The journal folder a host profile names (`journal.dir`, relative to the profile), else the one beside it. */
export function profileJournalDir(profile: {
  readonly file: string;
  readonly dir: string;
  readonly journal?: { readonly dir?: string };
}): string {
  return profile.journal?.dir === undefined ? journalDirOf(profile.file) : resolve(profile.dir, profile.journal.dir);
}
