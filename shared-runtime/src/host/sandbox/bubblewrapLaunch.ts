// A sandboxed program started with no Node supervisor between the runtime and bubblewrap (a
// supervisor cost two thirds of a sandboxed call: bench/sandbox.bench.ts). bubblewrap does the
// supervisor's jobs itself, or lets the runtime do them:
// - it is started detached, so it leads a process group of its own;
// - `--block-fd 3` holds it, namespaces and mounts made but the tool not yet started, while the
//   runtime moves it (and the child it has cloned, if any) into the tool's cgroup and the process
//   and memory limit cgroups, so everything the tool starts is counted and can be killed. The
//   moves are written off the event loop; bubblewrap is released once they are done, at once for
//   a call, or later for a spare (host/sandbox/spareSandbox.ts);
// - `--die-with-parent` (host/sandbox/bubblewrapArguments.ts) ends it when the runtime dies, and
//   with it the PID namespace and everything in it;
// - its exit status is the tool's, 128 + N meaning signal N; the runtime reads the memory
//   limit's kill count after it exits, and removes the cgroup folders. A runtime killed outright
//   cannot: the next one to start a sandboxed tool removes the (then empty) folders it left.

import type { ChildProcess } from "node:child_process";
import { readdirSync } from "node:fs";
import { constants as osConstants } from "node:os";
import { join } from "node:path";
import { childPids, ProcessGroup, processState } from "../processGroup";
import {
  cgroupPids,
  cgroupRoot,
  createToolCgroup,
  joinCgroupLater,
  killCgroupLater,
  removeCgroup,
} from "../toolCgroup";
import { cgroupV1Parent, createCgroupV1, killedForMemory, limitCgroupV2, type ToolLimits } from "./resourceLimits";

/** The descriptor bubblewrap waits on before it starts the tool. */
const BLOCK_FD = 3;

export interface BubblewrapProcess {
  readonly child: ChildProcess;
  /** bubblewrap's process group (and the tool's cgroup); undefined when it did not start. */
  readonly group: ProcessGroup | undefined;
  /** The memory limit (bytes) that killed the tool, once bubblewrap has exited. */
  memoryLimitHit(): number | undefined;
  /** Resolves once bubblewrap has exited and its limits were read and removed. */
  readonly gone: Promise<void>;
}

/** bubblewrap started and held before the tool: namespaces and mounts made, cgroups joined or joining. */
export interface HeldBubblewrap extends BubblewrapProcess {
  /** Whether bubblewrap and the children it had cloned when confined all still run. */
  alive(): boolean;
  /** Lets bubblewrap start the tool as soon as it is confined. */
  release(): void;
  /** Kills it (the tool never started) and removes its cgroups; resolves when they are gone. */
  discard(): Promise<void>;
}

/** What confinement has done so far: what to read and remove once bubblewrap exits. */
interface Confinement {
  done: boolean;
  memoryFolder: string | undefined;
  readonly v1Folders: string[];
  /** bubblewrap, then the children it had cloned when they were moved. */
  members: readonly number[];
}

/**
 * Starts bubblewrap (`argv` ends with "--", the tool follows) held on its block fd, and moves it
 * into its cgroups; the tool starts at `release()`, once it is there. Throws what `spawn` throws.
 */
export function holdBubblewrap(
  spawn: typeof import("node:child_process").spawn,
  bwrap: string,
  argv: readonly string[],
  options: { cwd: string; env: Record<string, string>; limits: ToolLimits },
): HeldBubblewrap {
  if (!swept) sweepFoldersOfDeadRuntimes();
  const cgroup = createToolCgroup();
  let child: ChildProcess;
  try {
    child = spawn(bwrap, ["--block-fd", String(BLOCK_FD), ...argv], {
      shell: false,
      cwd: options.cwd,
      env: options.env,
      detached: true,
      stdio: ["pipe", "pipe", "pipe", "pipe"],
    });
  } catch (error) {
    if (cgroup !== undefined) removeCgroup(cgroup);
    throw error;
  }
  const block = child.stdio[BLOCK_FD] as NodeJS.WritableStream | null | undefined;
  block?.on("error", () => undefined); // EPIPE: bubblewrap failed before it read
  const pid = child.pid;
  if (pid === undefined) {
    // Not started: `child` emits the error.
    if (cgroup !== undefined) removeCgroup(cgroup);
    const gone = Promise.resolve();
    const none = () => undefined;
    return {
      child,
      group: undefined,
      memoryLimitHit: none,
      gone,
      alive: () => false,
      release: none,
      discard: () => gone,
    };
  }
  const state: Confinement = { done: false, memoryFolder: undefined, v1Folders: [], members: [pid] };
  const confined = confine(pid, cgroup, options.limits, state);
  const group = new ProcessGroup(pid, cgroup);
  let memoryLimitHit: number | undefined;
  const gone = new Promise<void>((resolve) => {
    // Registered before any caller's listener: the count is read while the folders still exist.
    child.once("exit", (code, signal) => {
      const finish = () => {
        const status = bubblewrapStatus(code, signal);
        if (status.signal === "SIGKILL" && state.memoryFolder !== undefined && killedForMemory(state.memoryFolder))
          memoryLimitHit = options.limits.memoryBytes;
        // Empty once bubblewrap's init has followed it (its PID namespace ends with it).
        void Promise.all(state.v1Folders.map(killCgroupLater)).then(() => resolve());
      };
      // Exited while still being moved (it failed, or was killed, before the tool started).
      if (state.done) finish();
      else void confined.then(finish);
    });
  });
  // Whoever waits for the group (a call's end, closing its host) waits for the limit folders too.
  group.waitFor(gone);
  return {
    child,
    group,
    memoryLimitHit: () => memoryLimitHit,
    gone,
    alive: () => state.members.every((member) => processState(member) === "running"),
    release: () => void confined.then(() => block?.end("1")),
    discard: async () => {
      for (const stream of child.stdio) stream?.destroy();
      group.killNow();
      // Waited for (a release alone would not keep the runtime alive until the folder goes).
      if (cgroup !== undefined) await killCgroupLater(cgroup);
      await Promise.all([group.release(), gone]);
    },
  };
}

/**
 * Moves bubblewrap, then the children it has already cloned, into the tool's cgroup and the
 * limits' (a child cloned after the move is born inside), recording in `state` what it made.
 * Limits go in the tool's cgroup where its controller is on there, else in a cgroup v1 folder of
 * their own; one that cannot be set is left out, as a machine without cgroups has none. Never
 * rejects.
 */
async function confine(pid: number, toolCgroup: string | undefined, limits: ToolLimits, state: Confinement) {
  try {
    const folders: string[] = [];
    let cgroup: string | undefined;
    if (toolCgroup !== undefined) {
      if (await joinCgroupLater(toolCgroup, pid)) {
        cgroup = toolCgroup;
        folders.push(toolCgroup);
      } else removeCgroup(toolCgroup);
    }
    for (const [controller, value] of [
      ["pids", limits.pids],
      ["memory", limits.memoryBytes],
    ] as const) {
      if (value <= 0) continue;
      if (cgroup !== undefined && limitCgroupV2(cgroup, controller, value)) {
        if (controller === "memory") state.memoryFolder = cgroup;
        continue;
      }
      const folder = createCgroupV1(controller, value, `${process.pid}-${pid}`);
      if (folder === undefined) continue;
      if (!(await joinCgroupLater(folder, pid))) {
        removeCgroup(folder);
        continue;
      }
      state.v1Folders.push(folder);
      folders.push(folder);
      if (controller === "memory") state.memoryFolder = folder;
    }
    const members = [pid, ...childPids(pid)];
    for (const child of members.slice(1)) for (const folder of folders) await joinCgroupLater(folder, child);
    for (const folder of folders) verifyConfined(folder, members);
    state.members = members;
  } catch {
    // Not confined as it must be: it never starts the tool.
    signalOf(pid, "SIGKILL");
  } finally {
    state.done = true;
  }
}

/**
 * What the move must have done: bubblewrap and its children in `folder`. A process that is not
 * there (it exited in between, say) is killed rather than left running unconfined.
 */
function verifyConfined(folder: string, members: readonly number[]): void {
  const inside = new Set(cgroupPids(folder));
  for (const member of members) if (!inside.has(member)) signalOf(member, "SIGKILL");
}

function signalOf(pid: number, signal: NodeJS.Signals): void {
  try {
    process.kill(pid, signal);
  } catch {
    // already gone
  }
}

/**
 * The tool's own status from bubblewrap's: its init exits 128 + N when the tool was killed by
 * signal N, reported as the signal, as without the sandbox.
 */
export function bubblewrapStatus(
  code: number | null,
  signal: NodeJS.Signals | null,
): { code: number | null; signal: NodeJS.Signals | null } {
  if (code === null || code <= 128) return { code, signal };
  const name = Object.entries(osConstants.signals).find(([, number]) => number === code - 128)?.[0];
  return name === undefined ? { code, signal } : { code: null, signal: name as NodeJS.Signals };
}

let swept = false;

/**
 * Removes the cgroup folders (`rlm-plan-KIND-PID-...`) of runtimes (or supervisors) that are gone. Only empty
 * folders can be removed, so one still in use is never touched.
 */
function sweepFoldersOfDeadRuntimes(): void {
  swept = true;
  for (const parent of [cgroupRoot(), cgroupV1Parent("pids"), cgroupV1Parent("memory")]) {
    if (parent === undefined) continue;
    let entries: string[];
    try {
      entries = readdirSync(parent);
    } catch {
      continue;
    }
    for (const entry of entries) {
      // Also `rlm-plan-pids-PID` and `rlm-plan-memory-PID`: named by the supervisor of earlier versions.
      const runtime = /^rlm-plan-(?:tool|pids|memory)-(\d+)(?:-|$)/.exec(entry)?.[1];
      if (runtime !== undefined && processState(Number(runtime)) === "gone") removeCgroup(join(parent, entry));
    }
  }
}
