// Which files of a folder are plans and host profiles, by name, and how to find them below a
// folder: one rule for `rlm-plan check DIR`, the language server's workspace symbols and any
// other tool that walks a workspace. Deterministic (sorted) so outputs are stable run to run.

import { readdirSync } from "node:fs";
import { basename, join } from "node:path";
import { parse } from "jsonc-parser";
import { HOST_PROFILE_FILENAME, HOST_PROFILE_SCHEMA } from "./host/profile";
import { PLAN_FIELDS } from "./plan/ast";
import { MAX_PLAN_BYTES, readTextFileSync } from "./text/boundedFile";

export type WorkspaceFileKind = "plan" | "host";

/** The endings that make a file a plan. */
export const PLAN_FILE_SUFFIXES: readonly string[] = [".rlmplan.json", ".rlmplan"];

/** Folders a walk never enters: dependencies, build output, VCS and editor test state. */
export const SKIPPED_FOLDERS: ReadonlySet<string> = new Set([
  "node_modules",
  "out",
  "dist",
  ".git",
  ".e2e",
  ".vscode-test",
]);

export function workspaceFileKind(file: string): WorkspaceFileKind | undefined {
  const name = basename(file);
  if (name === HOST_PROFILE_FILENAME) return "host";
  return PLAN_FILE_SUFFIXES.some((suffix) => name.endsWith(suffix)) ? "plan" : undefined;
}

/** Top-level keys only a host profile has (a plan has "steps", "description" and "$schema"). */
const HOST_ONLY_KEYS: ReadonlySet<string> = new Set(
  Object.keys((HOST_PROFILE_SCHEMA as { properties: object }).properties).filter(
    (key) => !Object.hasOwn(PLAN_FIELDS, key),
  ),
);

/**
 * What a file named neither way holds (`rlm-plan check cr.host.json`): a host profile when its
 * top-level object has no "steps" and a key only host profiles have (even beside a misspelt
 * one); anything else, unreadable or not JSON included, is undefined (taken as a plan).
 */
export function workspaceFileKindByContent(file: string): WorkspaceFileKind | undefined {
  let value: unknown;
  try {
    value = parse(readTextFileSync(file, MAX_PLAN_BYTES), [], { allowTrailingComma: true });
  } catch {
    return undefined;
  }
  if (typeof value !== "object" || value === null || Array.isArray(value)) return undefined;
  const keys = Object.keys(value);
  if (keys.includes("steps")) return "plan";
  return keys.some((key) => HOST_ONLY_KEYS.has(key)) ? "host" : undefined;
}

/** Told of each folder a walk could not read (its files are not listed), with why. */
export type UnreadableFolder = (folder: string, error: NodeJS.ErrnoException) => void;

/**
 * Plans and host profiles below `dir`, sorted, without following symbolic links; at most `limit`
 * (the walk stops there, so a huge tree costs a bounded amount). A folder that cannot be read
 * is passed to `unreadable` (and skipped).
 */
export function findWorkspaceFiles(
  dir: string,
  limit = Number.POSITIVE_INFINITY,
  unreadable?: UnreadableFolder,
): string[] {
  return findFiles(dir, (path) => workspaceFileKind(path) !== undefined, limit, unreadable);
}

/** The ending of a test file (`rlm-plan test`); not a plan, though it ends in .json too. */
export const TEST_FILE_SUFFIX = ".rlmplan.test.json";

export function isTestFile(file: string): boolean {
  return basename(file).endsWith(TEST_FILE_SUFFIX);
}

/** Test files below `dir`, sorted, as findWorkspaceFiles walks. */
export function findTestFiles(dir: string, limit = Number.POSITIVE_INFINITY): string[] {
  return findFiles(dir, isTestFile, limit);
}

function findFiles(
  dir: string,
  wanted: (path: string) => boolean,
  limit: number,
  unreadable?: UnreadableFolder,
): string[] {
  const found: string[] = [];
  const pending = [dir];
  while (pending.length > 0 && found.length < limit) {
    const current = pending.pop() as string;
    let entries;
    try {
      entries = readdirSync(current, { withFileTypes: true });
    } catch (error) {
      unreadable?.(current, error as NodeJS.ErrnoException);
      continue;
    }
    for (const entry of entries) {
      const path = join(current, entry.name);
      if (entry.isDirectory()) {
        if (!SKIPPED_FOLDERS.has(entry.name)) pending.push(path);
      } else if (entry.isFile() && wanted(path)) {
        found.push(path);
        if (found.length >= limit) break;
      }
    }
  }
  return found.sort();
}
