// The workspace boundary: a path written in a workspace file (a host profile's inputs, journal and
// working folders; a test file's plan, host profile, mocks, cassettes and dataset) is followed
// through every symlink and must land inside the workspace, and never in a repository's .git. A
// pull request writes those files, and a CI gate reads them: without this, `"path": "/etc/passwd"`
// or a link to it would be read and its content printed. The workspace is the host profile's
// folder or the repository root (the nearest .git above), whichever is higher. Only the user widens
// it (`--allow-path DIR`, the user setting `rlmPlan.allowPaths`), never a workspace file: the
// allowed folders are held here for the process, so no reader can be handed a list that skips them.

import { readlinkSync, realpathSync, statSync, type Stats } from "node:fs";
import { basename, dirname, isAbsolute, join, relative, resolve, sep } from "node:path";
import { shownPath as shown } from "../text/shownPath";
import { HOST_PROFILE_FILENAME } from "./filename";

/** How messages tell the user to let an outside path through. */
export const ALLOW_PATH_HINT =
  "allow an outside folder with --allow-path DIR on the command line or rlmPlan.allowPaths in the user settings";

let allowed: readonly string[] = [];

/**
 * The folders outside the workspace the user allows (each followed through its symlinks), for the
 * rest of the process; relative ones from `cwd`. Returns the folders that do not exist (not
 * allowed), for the front end to report.
 */
export function allowOutsidePaths(dirs: readonly string[], cwd = process.cwd()): string[] {
  const missing: string[] = [];
  const real: string[] = [];
  for (const dir of dirs) {
    try {
      real.push(realpathSync(resolve(cwd, dir)));
    } catch {
      missing.push(dir);
    }
  }
  allowed = real;
  return missing;
}

/** The folders allowed so far (real paths). */
export function allowedOutsidePaths(): readonly string[] {
  return allowed;
}

export type WorkspacePath =
  { readonly ok: true; readonly path: string } | { readonly ok: false; readonly message: string };

/**
 * `written`, a path read from `workspaceFile` (relative to `base`, by default that file's folder),
 * as an absolute path if it stays inside the workspace of `workspaceFile`, else why not. The path
 * need not exist: a missing file is the reader's to report, but only once it is known to be inside.
 */
export function workspacePath(workspaceFile: string, written: string, base?: string): WorkspacePath {
  const folder = base ?? dirname(resolve(workspaceFile));
  const path = resolve(folder, written);
  const real = realPath(path);
  if (allowed.some((dir) => within(dir, real))) return { ok: true, path };
  const root = workspaceRootOf(workspaceFile);
  // A link on the written part of the path (not in the folders above the workspace file) is named.
  const leads = real === resolve(realPath(folder), written) ? "" : ` leads to ${shown(real)}, which`;
  if (!within(root, real))
    return {
      ok: false,
      message: `${JSON.stringify(written)}${leads} is outside the workspace (${shown(root)}): a path in a workspace file must stay in the folder of the host profile or of the repository; ${ALLOW_PATH_HINT}`,
    };
  if (relative(root, real).split(sep).includes(".git"))
    return {
      ok: false,
      message: `${JSON.stringify(written)}${leads} is inside a repository's .git folder, which no workspace file may name; ${ALLOW_PATH_HINT}`,
    };
  return { ok: true, path };
}

/**
 * The workspace a file belongs to (a real path): the highest of the nearest folder holding a
 * `.git` (a folder, or a file in a git worktree) and the nearest holding a host profile, at or
 * above the file's folder; the file's own folder when there is neither.
 */
export function workspaceRootOf(file: string): string {
  const start = realPath(dirname(resolve(file)));
  let repository: string | undefined;
  let profile: string | undefined;
  for (let dir = start; ;) {
    repository ??= statOf(join(dir, ".git")) ? dir : undefined;
    profile ??= statOf(join(dir, HOST_PROFILE_FILENAME))?.isFile() ? dir : undefined;
    const parent = dirname(dir);
    if (parent === dir) break;
    dir = parent;
  }
  // Both are folders above `start`: the higher is the shorter.
  const found = [repository, profile].filter((dir): dir is string => dir !== undefined);
  return found.sort((a, b) => a.length - b.length)[0] ?? start;
}

/**
 * `path` with every symlink followed. Where it does not exist: its nearest existing folder's real
 * path joined with the rest, a dangling link followed to where it points (a write through it, such
 * as a recorded cassette, would create its target).
 */
function realPath(path: string, links = 0): string {
  try {
    return realpathSync(path);
  } catch {
    const parent = dirname(path);
    if (parent === path) return path;
    const link = links < 40 ? linkTarget(path) : undefined;
    if (link !== undefined) return realPath(resolve(dirname(path), link), links + 1);
    return join(realPath(parent, links), basename(path));
  }
}

function linkTarget(path: string): string | undefined {
  try {
    return readlinkSync(path);
  } catch {
    return undefined;
  }
}

function within(dir: string, path: string): boolean {
  const rel = relative(dir, path);
  return rel === "" || (!rel.startsWith(`..${sep}`) && rel !== ".." && !isAbsolute(rel));
}

/** What is at `path`, or undefined where nothing can be seen. */
function statOf(path: string): Stats | undefined {
  try {
    return statSync(path);
  } catch {
    return undefined;
  }
}
