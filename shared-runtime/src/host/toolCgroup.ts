// Linux control groups for tool processes. A process group is easy to leave (`setsid`), a cgroup
// is not: every process a tool starts stays in the cgroup its supervisor created, and writing
// `cgroup.kill` (or SIGKILL to each pid in `cgroup.procs` on older kernels) ends them all. Used
// only where a cgroup v2 hierarchy is mounted and writable (we run as root there); elsewhere the
// process group is the limit, and a tool that calls `setsid` can escape it (see ARCHITECTURE.md).

import { existsSync, mkdirSync, readFileSync, rmdirSync, writeFileSync } from "node:fs";
import { rmdir, writeFile } from "node:fs/promises";
import { join } from "node:path";

let cachedRoot: string | null | undefined;

/** The cgroup v2 folder this process is in, when it is mounted and we may create children in it. */
export function cgroupRoot(): string | undefined {
  if (cachedRoot !== undefined) return cachedRoot ?? undefined;
  cachedRoot = null;
  if (process.platform !== "linux") return undefined;
  try {
    const mount = readFileSync("/proc/self/mountinfo", "utf8")
      .split("\n")
      .map((line) => line.split(" "))
      .find((fields) => fields[fields.indexOf("-") + 1] === "cgroup2");
    const own = readFileSync("/proc/self/cgroup", "utf8")
      .split("\n")
      .find((line) => line.startsWith("0::"));
    if (!mount || mount[4] === undefined || own === undefined) return undefined;
    const folder = join(mount[4], own.slice(3));
    const probe = join(folder, `rlm-plan-probe-${process.pid}`);
    mkdirSync(probe);
    rmdirSync(probe);
    cachedRoot = folder;
  } catch {
    // Not mounted, not writable, or not Linux: process groups only.
  }
  return cachedRoot ?? undefined;
}

/** A new cgroup for one tool call, or undefined where cgroups cannot be used. */
export function createToolCgroup(): string | undefined {
  const root = cgroupRoot();
  if (root === undefined) return undefined;
  const folder = join(root, `rlm-plan-tool-${process.pid}-${++counter}`);
  try {
    mkdirSync(folder);
    return folder;
  } catch {
    return undefined;
  }
}
let counter = 0;

/** Moves a process into a cgroup; false when that is not allowed. */
export function joinCgroup(folder: string, pid: number): boolean {
  try {
    writeFileSync(join(folder, "cgroup.procs"), `${pid}\n`);
    return true;
  } catch {
    return false;
  }
}

/**
 * joinCgroup off the event loop: the first move after a quiet spell waits for the kernel (an RCU
 * grace period, 5 to 20 ms), time a runtime serving other calls should not spend blocked.
 */
export async function joinCgroupLater(folder: string, pid: number): Promise<boolean> {
  try {
    await writeFile(join(folder, "cgroup.procs"), `${pid}\n`);
    return true;
  } catch {
    return false;
  }
}

/** The pids in a cgroup (empty when it is gone). */
export function cgroupPids(folder: string): number[] {
  try {
    return readFileSync(join(folder, "cgroup.procs"), "utf8")
      .split("\n")
      .filter((line) => line !== "")
      .map(Number);
  } catch {
    return [];
  }
}

/** How long killCgroup waits for killed processes to leave, so their folder can be removed. */
const EMPTY_WAIT_MS = 500;
const sleeper = new Int32Array(new SharedArrayBuffer(4));

/** SIGKILL to everything in the cgroup, without waiting for it to leave. */
export function signalCgroup(folder: string): void {
  const killFile = join(folder, "cgroup.kill");
  try {
    if (existsSync(killFile)) writeFileSync(killFile, "1\n");
  } catch {
    // fall back to one pid at a time
  }
  for (const pid of cgroupPids(folder)) {
    try {
      process.kill(pid, "SIGKILL");
    } catch {
      // already gone
    }
  }
}

/** SIGKILL to everything in the cgroup; then removes it once empty (SIGKILL takes a moment). */
export function killCgroup(folder: string): void {
  signalCgroup(folder);
  // Synchronous on purpose: callers are exit hooks and a supervisor about to exit.
  for (let waited = 0; !removeCgroup(folder) && waited < EMPTY_WAIT_MS; waited += 10) Atomics.wait(sleeper, 0, 0, 10);
}

/**
 * killCgroup for a runtime that goes on, off its event loop: a sandbox's init often leaves its
 * cgroups a moment after bubblewrap has exited, and removing a cgroup v1 memory folder that was
 * used takes milliseconds (the kernel drains its charges on every CPU).
 */
export async function killCgroupLater(folder: string): Promise<void> {
  for (let waited = 0; !(await removeCgroupLater(folder)) && waited < EMPTY_WAIT_MS; waited += 10) {
    signalCgroup(folder);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

/** removeCgroup off the event loop. */
export async function removeCgroupLater(folder: string): Promise<boolean> {
  try {
    await rmdir(folder);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === "ENOENT";
  }
}

/** Removes an empty cgroup; false while processes (or zombies) are still in it. */
export function removeCgroup(folder: string): boolean {
  try {
    rmdirSync(folder);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === "ENOENT";
  }
}
