// `--allow-path DIR`, for every command: a folder outside the workspace that paths in workspace
// files may name (the workspace boundary, the core's host/workspaceBoundary.ts). Taken out of the
// arguments before a command reads its own, so each command accepts it the same way, and only
// the person typing the command can give it: never a host profile or a test file.

export const ALLOW_PATH = "--allow-path";

/** `argv` without its `--allow-path DIR` options (up to a `--`), the folders allowed; or what is wrong. */
export function takeAllowPaths(argv: readonly string[]): { readonly argv: string[] } | { readonly error: string } {
  const rest: string[] = [];
  const dirs: string[] = [];
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i] as string;
    if (arg === "--") {
      rest.push(...argv.slice(i));
      break;
    }
    if (arg === ALLOW_PATH) {
      const dir = argv[i + 1];
      if (dir === undefined || dir === "") return { error: `${ALLOW_PATH} needs a folder` };
      dirs.push(dir);
      i++;
    } else if (arg.startsWith(`${ALLOW_PATH}=`)) {
      const dir = arg.slice(ALLOW_PATH.length + 1);
      if (dir === "") return { error: `${ALLOW_PATH} needs a folder` };
      dirs.push(dir);
    } else rest.push(arg);
  }
  if (dirs.length === 0) return { argv: rest };
  // Required only when given (`--version` loads no session); from the session's door, which the
  // static bundle of `check` holds already, not the host's, which would add the run's host to it.
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const { allowOutsidePaths } = require("@rlm-plan/core/session") as typeof import("@rlm-plan/core/session");
  const missing = allowOutsidePaths(dirs);
  if (missing.length > 0) return { error: `${ALLOW_PATH} ${missing[0]}: no such file or folder` };
  return { argv: rest };
}
