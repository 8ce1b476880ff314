// Which test files `rlm-plan test PATH...` runs: a file as named, a folder (every
// *.rlmplan.test.json below it) or a glob the shell did not expand; no argument means the
// current folder. Sorted, so the case order (and shards) are the same on every machine.

import { statSync } from "node:fs";
import { globSync, isDynamicPattern } from "tinyglobby";
import { findTestFiles, isTestFile, SKIPPED_FOLDERS } from "@rlm-plan/core/workspaceFiles";

export interface Discovery {
  readonly files: readonly string[];
  /** Arguments that name nothing (no such file or folder), with why: a usage error. */
  readonly errors: readonly string[];
  /**
   * Folders and patterns that hold no test file, with why: a CI gate that ran nothing must not
   * pass, so the command fails on these unless --allow-empty.
   */
  readonly empty: readonly string[];
}

export function discoverTestFiles(args: readonly string[]): Discovery {
  const files: string[] = [];
  const errors: string[] = [];
  const empty: string[] = [];
  const seen = new Set<string>();
  const add = (file: string) => {
    if (seen.has(file)) return;
    seen.add(file);
    files.push(file);
  };
  for (const arg of args.length === 0 ? ["."] : args) {
    const stat = statOf(arg);
    if (stat?.isDirectory()) {
      const found = findTestFiles(arg);
      if (found.length === 0) empty.push(`${arg}: no *.rlmplan.test.json below it`);
      found.forEach(add);
    } else if (!stat && isDynamicPattern(arg)) {
      const matches = globSync(arg, { ignore: [...SKIPPED_FOLDERS].map((f) => `**/${f}/**`), expandDirectories: false })
        .filter(isTestFile)
        .sort();
      if (matches.length === 0) empty.push(`${arg}: no test file matches this pattern`);
      matches.forEach(add);
    } else if (!stat) {
      errors.push(`${arg}: no such file or folder`);
    } else {
      add(arg);
    }
  }
  return { files, errors, empty };
}

function statOf(path: string): ReturnType<typeof statSync> | undefined {
  try {
    return statSync(path);
  } catch {
    return undefined;
  }
}
