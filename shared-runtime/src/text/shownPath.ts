// How a message names a file or folder: relative to the current folder when it lies under it (what
// the user typed, and can paste back), else as it is. One rule for every message of the core, so
// no message prints the full path of a folder the user is standing in.

import { isAbsolute, relative, resolve, sep } from "node:path";

/** `file` (absolute, or relative to `cwd`) as messages show it: "." for `cwd` itself. */
export function shownPath(file: string, cwd = process.cwd()): string {
  const rel = relative(cwd, resolve(cwd, file));
  if (rel === "") return ".";
  return rel !== ".." && !rel.startsWith(`..${sep}`) && !isAbsolute(rel) ? rel : file;
}
