// What `rlm-plan check PATH...` checks: each argument is a plan, a host profile, a mocks or test
// file named as such, a directory
// (every plan and host profile below it) or a glob the shell did not expand. Expansion is
// deterministic (sorted) so CI output and SARIF files are stable from run to run.

import { statSync } from "node:fs";
import { globSync, isDynamicPattern } from "tinyglobby";
import { MOCKS_FILE_SUFFIX } from "@rlm-plan/core/session";
import {
  findWorkspaceFiles,
  isTestFile,
  SKIPPED_FOLDERS,
  workspaceFileKind as targetKind,
  workspaceFileKindByContent,
  type UnreadableFolder,
  type WorkspaceFileKind as TargetKind,
} from "@rlm-plan/core/workspaceFiles";

export interface CheckTarget {
  readonly file: string;
  /** A mocks file is checked only when named (a folder's walk finds plans and host profiles). */
  readonly kind: TargetKind | "mocks" | "test";
}

export interface Expansion {
  readonly targets: readonly CheckTarget[];
  /** Arguments that named nothing to check, with why. */
  readonly errors: readonly string[];
}

/** `unreadable` is told of each folder below a folder argument that could not be read. */
export function expandTargets(args: readonly string[], unreadable?: UnreadableFolder): Expansion {
  const targets: CheckTarget[] = [];
  const errors: string[] = [];
  const seen = new Set<string>();
  const add = (file: string, kind: CheckTarget["kind"]) => {
    if (seen.has(file)) return;
    seen.add(file);
    targets.push({ file, kind });
  };
  for (const arg of args) {
    const stat = statOf(arg);
    if (stat?.isDirectory()) {
      const found = findWorkspaceFiles(arg, undefined, unreadable);
      if (found.length === 0) errors.push(`${arg}: no *.rlmplan.json, *.rlmplan or rlmplan.host.json below it`);
      for (const file of found) add(file, targetKind(file) as TargetKind);
    } else if (!stat && isDynamicPattern(arg)) {
      const matches = globSync(arg, { ignore: [...SKIPPED_FOLDERS].map((f) => `**/${f}/**`), expandDirectories: false })
        .filter((file) => targetKind(file) !== undefined)
        .sort();
      if (matches.length === 0) errors.push(`${arg}: no plan or host profile matches this pattern`);
      for (const file of matches) add(file, targetKind(file) as TargetKind);
    } else {
      // A named file is checked as what its name says; any other name by what it holds (a host
      // profile, as `--host` takes any name), else as a plan: a missing file is reported when
      // it is read, like any unreadable plan.
      const kind = arg.endsWith(MOCKS_FILE_SUFFIX)
        ? "mocks"
        : isTestFile(arg)
          ? "test"
          : (targetKind(arg) ?? workspaceFileKindByContent(arg));
      add(arg, kind ?? "plan");
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
