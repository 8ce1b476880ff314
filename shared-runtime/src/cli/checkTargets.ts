// What `rlm-plan check PATH...` checks: each argument is a plan, a host profile, a directory
// (every plan and host profile below it) or a glob the shell did not expand. Expansion is
// deterministic (sorted) so CI output and SARIF files are stable from run to run.

import { readdirSync, statSync } from "node:fs";
import { basename, join } from "node:path";
import { globSync, isDynamicPattern } from "tinyglobby";

export type TargetKind = "plan" | "host";

export interface CheckTarget {
  readonly file: string;
  readonly kind: TargetKind;
}

export interface Expansion {
  readonly targets: readonly CheckTarget[];
  /** Arguments that named nothing to check, with why. */
  readonly errors: readonly string[];
}

const HOST_PROFILE_NAME = "rlmplan.host.json";
const PLAN_SUFFIXES = [".rlmplan.json", ".rlmplan"];
/** Folders a directory walk never enters: dependencies, build output, VCS and editor state. */
const SKIPPED_FOLDERS = new Set(["node_modules", "out", "dist", ".git", ".e2e", ".vscode-test"]);

export function targetKind(file: string): TargetKind | undefined {
  const name = basename(file);
  if (name === HOST_PROFILE_NAME) return "host";
  return PLAN_SUFFIXES.some((suffix) => name.endsWith(suffix)) ? "plan" : undefined;
}

export function expandTargets(args: readonly string[]): Expansion {
  const targets: CheckTarget[] = [];
  const errors: string[] = [];
  const seen = new Set<string>();
  const add = (file: string, kind: TargetKind) => {
    if (seen.has(file)) return;
    seen.add(file);
    targets.push({ file, kind });
  };
  for (const arg of args) {
    const stat = statOf(arg);
    if (stat?.isDirectory()) {
      const found = walk(arg);
      if (found.length === 0) errors.push(`${arg}: no *.rlmplan.json, *.rlmplan or ${HOST_PROFILE_NAME} below it`);
      for (const file of found) add(file, targetKind(file) as TargetKind);
    } else if (!stat && isDynamicPattern(arg)) {
      const matches = globSync(arg, { ignore: [...SKIPPED_FOLDERS].map((f) => `**/${f}/**`), expandDirectories: false })
        .filter((file) => targetKind(file) !== undefined)
        .sort();
      if (matches.length === 0) errors.push(`${arg}: no plan or host profile matches this pattern`);
      for (const file of matches) add(file, targetKind(file) as TargetKind);
    } else {
      // A named file is checked as what its name says; any other name is taken as a plan, and
      // a missing file is reported when it is read, like any unreadable plan.
      add(arg, targetKind(arg) ?? "plan");
    }
  }
  return { targets, errors };
}

function statOf(path: string): ReturnType<typeof statSync> | undefined {
  try {
    return statSync(path);
  } catch {
    return undefined;
  }
}

/** Plans and host profiles below `dir`, sorted, without following symbolic links. */
function walk(dir: string): string[] {
  const found: string[] = [];
  const pending = [dir];
  while (pending.length > 0) {
    const current = pending.pop() as string;
    let entries;
    try {
      entries = readdirSync(current, { withFileTypes: true });
    } catch {
      continue;
    }
    for (const entry of entries) {
      const path = join(current, entry.name);
      if (entry.isDirectory()) {
        if (!SKIPPED_FOLDERS.has(entry.name)) pending.push(path);
      } else if (entry.isFile() && targetKind(path) !== undefined) {
        found.push(path);
      }
    }
  }
  return found.sort();
}
