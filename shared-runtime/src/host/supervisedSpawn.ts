// How every program the runtime starts on a profile's behalf runs (command tools and MCP servers
// alike): the leader of a new process group, in a cgroup of its own where one can be made
// (host/toolCgroup.ts). Unless the host profile turns it off, inside the operating-system sandbox
// (host/sandbox/): bubblewrap, started directly, which does the supervisor's jobs itself, with
// process and memory limits (host/sandbox/bubblewrapLaunch.ts); for a command tool, the spare
// bubblewrap its previous call started, when it is of the same launch (host/sandbox/spareSandbox.ts).
// Without the sandbox, under the
// supervisor (host/supervisor.ts), with fd 3 the pipe whose end tells it this process is gone.
// The caller gets the child (its stdin, stdout and stderr are the program's), the group to kill,
// the program's exit status, and why it could not start, if so.

import type { ChildProcess } from "node:child_process";
import { accessSync, constants, existsSync, statSync } from "node:fs";
import { join, resolve } from "node:path";
import { ProcessGroup } from "./processGroup";
import { bubblewrapArguments } from "./sandbox/bubblewrapArguments";
import { bubblewrapStatus, holdBubblewrap } from "./sandbox/bubblewrapLaunch";
import { SANDBOX_MAX_MEMORY_MB, SANDBOX_MAX_PROCESSES, type ToolLimits } from "./sandbox/resourceLimits";
import { sandboxAvailability } from "./sandbox/sandboxProbe";
import type { SpareSandbox } from "./sandbox/spareSandbox";
import type { ToolSandbox } from "./sandbox/toolSandbox";
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
  /** The sandbox the profile gives the program; undefined when the profile turns it off. */
  readonly sandbox: ToolSandbox | undefined;
  /** Where a sandboxed program's next start is held ready (command tools); none for MCP servers. */
  readonly spares?: SpareSandbox;
  /** The call's cancellation: a call cancelled already gets no spare made after it. */
  readonly signal?: AbortSignal;
}

/** A program that may not start: the profile requires the sandbox and none can be made here. */
export class SandboxRefusal extends Error {
  readonly code = "ESANDBOX";
}

export interface SupervisedProcess {
  /** The supervisor or bubblewrap: its stdin, stdout and stderr are the program's. */
  readonly child: ChildProcess;
  /** The program's exit status, from the child's (`exit` and `close` events' arguments). */
  status(code: number | null, signal: NodeJS.Signals | null): { code: number | null; signal: NodeJS.Signals | null };
  /** The process group (and cgroup) of everything the program starts; undefined if no pid. */
  readonly group: ProcessGroup | undefined;
  /** The errno code (ENOENT, EACCES, ...) the supervisor met starting the program, once it has said so. */
  startError(): string | undefined;
  /** The memory limit (bytes) that killed the program, once the supervisor has said so. */
  memoryLimitHit(): number | undefined;
  /** Resolves when the supervisor (or bubblewrap) has exited and its report was read. */
  readonly supervisorGone: Promise<void>;
}

/**
 * Starts `launch` supervised; throws what `spawn` throws (the cgroup is removed first), or a
 * SandboxRefusal when the profile requires a sandbox this machine cannot make.
 */
export function spawnSupervised(launch: SupervisedLaunch): SupervisedProcess {
  const start = sandboxed(launch);
  const { program, argv, limits } = start;
  const { cwd, env, spares } = launch;
  if (limits !== undefined) {
    const hold = (what: { program: string; argv: readonly string[]; limits: ToolLimits }) =>
      holdBubblewrap(childProcess().spawn, what.program, what.argv, { cwd, env, limits: what.limits });
    const started = spares?.take(start.key) ?? hold({ program, argv, limits });
    started.release();
    if (started.group !== undefined && launch.signal?.aborted !== true)
      spares?.prepare(launch.signal, () => {
        // The launch as it is now: a spare made for a launch that changed since is never used.
        const next = sandboxed(launch);
        return next.limits === undefined
          ? undefined
          : { key: next.key, bubblewrap: hold({ ...next, limits: next.limits }) };
      });
    return {
      child: started.child,
      group: started.group,
      status: bubblewrapStatus,
      startError: () => undefined,
      memoryLimitHit: started.memoryLimitHit,
      supervisorGone: started.gone,
    };
  }
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
      const text = chunk.toString("utf8");
      startError ??= /"spawnError":"([A-Z0-9_]+)"/.exec(text)?.[1];
    });
    pipe.on("error", () => undefined);
    pipe.on("close", () => resolve());
  });
  return {
    child,
    group,
    status: (code, signal) => ({ code, signal }),
    startError: () => startError,
    memoryLimitHit: () => undefined,
    supervisorGone,
  };
}

/**
 * The program to start: bubblewrap around the tool (with its limits) where there is a sandbox;
 * `key` names the launch (what a spare must have been started with to serve it).
 */
function sandboxed(launch: SupervisedLaunch): {
  program: string;
  argv: readonly string[];
  limits: ToolLimits | undefined;
  key: string;
} {
  const bare = { program: launch.program, argv: launch.argv, limits: undefined, key: "" };
  if (launch.sandbox === undefined) return bare;
  const availability = sandboxAvailability();
  if (!availability.available) {
    if (launch.sandbox.mode === "required")
      throw new SandboxRefusal(
        `the host profile requires the sandbox ("sandbox": "required") and ${availability.reason}`,
      );
    return bare;
  }
  // A program that does not exist fails here as `spawn` would have failed (ENOENT, EACCES): in
  // the sandbox it would be bubblewrap's exit status 1, and the message would lose the command.
  const file = resolve(launch.cwd, launch.program);
  try {
    accessSync(file, constants.X_OK);
  } catch (error) {
    throw Object.assign(new Error(`spawn ${launch.program}`), { code: (error as NodeJS.ErrnoException).code });
  }
  const options = bubblewrapArguments(launch.sandbox, { program: file, argv: launch.argv, cwd: launch.cwd });
  // bubblewrap sets PWD; the program gets exactly the environment its profile gives.
  const unsetPwd = ENV_PROGRAM === undefined ? [] : [ENV_PROGRAM, "-u", "PWD"];
  const argv = [...options, ...unsetPwd, file, ...launch.argv];
  // A bind mount holds the folder it was made on: one replaced since (or a `writes` path made
  // since, which bubblewrap could not bind) changes the key, so a spare's mounts are today's.
  // Every folder bound (the workspace, the program's install folder, the folders of the files
  // its command line names, the `writes` paths) is read from the command line itself.
  const bound = options.flatMap((option, at) => (BIND_OPTIONS.has(option) ? [options[at + 1] as string] : []));
  const mounted = [...bound, launch.cwd].map(identity);
  return {
    program: availability.bwrap,
    argv,
    limits: { pids: SANDBOX_MAX_PROCESSES, memoryBytes: SANDBOX_MAX_MEMORY_MB * 1024 * 1024 },
    key: JSON.stringify([availability.bwrap, argv, launch.cwd, launch.env, mounted]),
  };
}

/**
 * Which file or folder is at `path` now, or "" when none is: device, inode and birth time (a
 * folder removed and made again often gets the same inode back). Not its change time, which a
 * tool writing in its `writes` folder changes at every call.
 */
function identity(path: string): string {
  try {
    const stat = statSync(path, { bigint: true });
    return `${stat.dev}:${stat.ino}:${stat.birthtimeNs}`;
  } catch {
    return "";
  }
}

/** bubblewrap's options that bind a folder of the system (followed by it, then where it goes). */
const BIND_OPTIONS = new Set(["--bind", "--ro-bind", "--ro-bind-try", "--bind-try"]);

/** coreutils' env, present on every system bubblewrap runs on. */
const ENV_PROGRAM = ["/usr/bin/env", "/bin/env"].find((path) => existsSync(path));

/**
 * node:child_process (with net and dgram) on the first program: a run whose tools are built in
 * starts none, and loading it was a twentieth of a bare Node start (bench/README.md).
 */
function childProcess(): typeof import("node:child_process") {
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  return require("node:child_process") as typeof import("node:child_process");
}
