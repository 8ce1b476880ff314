// How every program the runtime starts on a profile's behalf runs (command tools and MCP servers
// alike): under the supervisor (host/supervisor.ts), the leader of a new process group, in a
// cgroup of its own where one can be made (host/toolCgroup.ts), with fd 3 the pipe whose end
// tells the supervisor this process is gone. The caller gets the child (its stdin, stdout and
// stderr are the program's), the group to kill, and why the program could not start, if so.

import type { ChildProcess } from "node:child_process";
import { join } from "node:path";
import { ProcessGroup } from "./processGroup";
import { createToolCgroup, removeCgroup } from "./toolCgroup";

/** The compiled supervisor, beside this file (out/host/) or beside the bundle (dist/). */
const SUPERVISOR = join(__dirname, "supervisor.js");

export interface SupervisedLaunch {
  /** The program, resolved to a path (or a name the supervisor finds on its PATH). */
  readonly program: string;
  readonly argv: readonly string[];
  readonly cwd: string;
  /** The program's whole environment. */
  readonly env: Record<string, string>;
}

export interface SupervisedProcess {
  /** The supervisor: its stdin, stdout and stderr are the program's, its exit status is the program's. */
  readonly child: ChildProcess;
  /** The process group (and cgroup) of everything the program starts; undefined if no pid. */
  readonly group: ProcessGroup | undefined;
  /** The errno code (ENOENT, EACCES, ...) the supervisor met starting the program, once it has said so. */
  startError(): string | undefined;
  /** Resolves when the supervisor's pipe is closed: the supervisor has exited (its report read). */
  readonly supervisorGone: Promise<void>;
}

/** Starts `launch` supervised; throws what `spawn` throws (the cgroup is removed first). */
export function spawnSupervised(launch: SupervisedLaunch): SupervisedProcess {
  const { program, argv, cwd, env } = launch;
  const cgroup = createToolCgroup();
  // Under Electron (VS Code's server) the supervisor runs as Node; it drops these two variables
  // again, so the program gets exactly the environment its profile gives.
  const electron = process.versions.electron !== undefined;
  const supervisorEnv = electron ? { ...env, ELECTRON_RUN_AS_NODE: "1", RLM_PLAN_SUPERVISOR_ELECTRON: "1" } : env;
  let child: ChildProcess;
  try {
    child = childProcess().spawn(process.execPath, [SUPERVISOR, cgroup ?? "-", program, ...argv], {
      shell: false,
      cwd,
      env: supervisorEnv,
      detached: true,
      stdio: ["pipe", "pipe", "pipe", "pipe"],
    });
  } catch (error) {
    if (cgroup !== undefined) removeCgroup(cgroup);
    throw error;
  }
  const group = child.pid === undefined ? undefined : new ProcessGroup(child.pid, cgroup);
  if (group === undefined && cgroup !== undefined) removeCgroup(cgroup);
  let startError: string | undefined;
  const pipe = child.stdio[3] as NodeJS.ReadableStream | null | undefined;
  const supervisorGone = new Promise<void>((resolve) => {
    if (!pipe) return resolve();
    pipe.on("data", (chunk: Buffer) => {
      startError ??= /"spawnError":"([A-Z0-9_]+)"/.exec(chunk.toString("utf8"))?.[1];
    });
    pipe.on("error", () => undefined);
    pipe.on("close", () => resolve());
  });
  return { child, group, startError: () => startError, supervisorGone };
}

/**
 * node:child_process (with net and dgram) on the first program: a run whose tools are built in
 * starts none, and loading it was a twentieth of a bare Node start (bench/README.md).
 */
function childProcess(): typeof import("node:child_process") {
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  return require("node:child_process") as typeof import("node:child_process");
}
