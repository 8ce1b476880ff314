// bubblewrap's command line for one tool process. The system is mounted read-only; then what a
// tool must not see is covered: /tmp and /run by empty private folders (sockets of other programs
// live there, a Docker socket among them), every home folder by an empty one (keys, tokens,
// shell histories). Then what the tool needs is mounted back read-only (the workspace, its working
// folder, the folder its program is installed in), and last the paths it declared in `writes`,
// writable. Namespaces: its own PIDs (it sees and can signal only its own processes, and /proc
// shows only them), IPC, host name and, unless it declares the network, network.

import { lstatSync, readlinkSync, realpathSync, statSync } from "node:fs";
import { homedir } from "node:os";
import { basename, dirname, join, relative, resolve, sep } from "node:path";
import type { ToolSandbox } from "./toolSandbox";

/** Folders covered by an empty private one in every sandbox (besides each home folder). */
const PRIVATE_FOLDERS = ["/tmp", "/var/tmp", "/run", "/var/run", "/dev/shm"];

export interface SandboxedLaunch {
  /** The program as it will be started: an absolute path, or a path relative to `cwd`. */
  readonly program: string;
  /** Its arguments: a file one names (a script) is readable where the profile put it. */
  readonly argv: readonly string[];
  readonly cwd: string;
}

/** bubblewrap's options for `launch` in `sandbox`, ending with "--" (the program and its arguments follow). */
export function bubblewrapArguments(sandbox: ToolSandbox, launch: SandboxedLaunch): string[] {
  const args = ["--die-with-parent", "--new-session", "--unshare-pid", "--unshare-ipc", "--unshare-uts"];
  args.push("--unshare-cgroup-try");
  if (!sandbox.network) args.push("--unshare-net");
  args.push("--ro-bind", "/", "/", "--dev", "/dev", "--proc", "/proc");
  const hidden = hiddenFolders();
  for (const folder of hidden) args.push("--tmpfs", folder);
  // Mounted back, parents before children so none hides another.
  const named = namedFiles(launch, hidden);
  const back = new Set<string>([sandbox.workspace, real(launch.cwd), installFolder(launch), ...named.folders]);
  if (sandbox.network) back.add("/run/systemd/resolve");
  for (const folder of [...back].sort((a, b) => a.length - b.length)) args.push("--ro-bind-try", folder, folder);
  for (const [target, link] of named.links) args.push("--symlink", target, link);
  for (const path of sandbox.writes) args.push("--bind", path, path);
  args.push("--chdir", launch.cwd, "--");
  return args;
}

/**
 * What is covered, as real paths that exist here (bubblewrap mounts over a folder the system
 * has; /var/run is usually a link to /run): the private folders, every home folder, the user's.
 */
function hiddenFolders(): string[] {
  const own = process.env.HOME ?? homedir();
  const candidates = [...PRIVATE_FOLDERS, "/root", "/home", ...(own !== "" && own !== sep ? [own] : [])];
  const folders = new Set<string>();
  for (const folder of candidates) if (isFolder(folder)) folders.add(real(folder));
  return [...folders];
}

/**
 * What the files the command line names (`node ../../node_modules/server/dist/index.js`) need to
 * be found at the path it names them by: the profile's author chose them, so a script outside
 * the workspace, or reached through a link from a hidden folder, must still load. A link on the
 * way that lies in a hidden folder is made again in the sandbox (`links`: target, then the link);
 * a file whose real place is hidden brings back, read-only, the folder below the hidden one that
 * holds it.
 * Files only: a folder argument would mount back what the sandbox hides.
 */
function namedFiles(
  launch: SandboxedLaunch,
  hidden: readonly string[],
): { folders: string[]; links: [string, string][] } {
  const folders: string[] = [];
  const links = new Map<string, string>();
  const isHidden = (path: string) => hidden.some((folder) => path === folder || path.startsWith(folder + sep));
  for (const arg of launch.argv) {
    if (arg === "" || arg.startsWith("-")) continue;
    const path = resolve(launch.cwd, arg);
    try {
      if (!statSync(path).isFile()) continue;
    } catch {
      continue; // not a file: an ordinary argument
    }
    const found = real(path);
    // The deepest hidden folder holding it (a user's home rather than all of /home).
    const under = hidden.filter((folder) => found.startsWith(folder + sep)).sort((a, b) => b.length - a.length)[0];
    // Its whole project comes back (the first folder below the hidden one: a checkout in /tmp, a
    // project in a home folder), since a script loads its siblings and its node_modules; never
    // the hidden folder itself.
    if (under !== undefined) {
      const top = relative(under, found).split(sep)[0] ?? "";
      folders.push(join(under, top));
    }
    let at: string = sep;
    for (const part of path.split(sep).filter((name) => name !== "")) {
      at = join(at, part);
      if (isHidden(at) && lstatSync(at).isSymbolicLink()) links.set(at, readlinkSync(at));
    }
  }
  return { folders, links: [...links].map(([link, target]) => [target, link]) };
}

/**
 * The folder the program is installed in, to be seen even under a hidden folder (Node from nvm
 * under ~/.nvm, from a CI cache under /tmp): a program in a `bin` folder brings its prefix
 * (node's lib/node_modules, where npx lives), any other its own folder.
 */
function installFolder(launch: SandboxedLaunch): string {
  const program = real(launch.program.startsWith(sep) ? launch.program : `${launch.cwd}${sep}${launch.program}`);
  const folder = dirname(program);
  return basename(folder) === "bin" ? dirname(folder) : folder;
}

function real(path: string): string {
  try {
    return realpathSync(path);
  } catch {
    return path;
  }
}

function isFolder(path: string): boolean {
  try {
    return statSync(path).isDirectory();
  } catch {
    return false;
  }
}
