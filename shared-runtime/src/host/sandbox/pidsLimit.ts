// The process limit of a sandboxed tool: a fork bomb stops at it instead of filling the machine.
// The kernel's RLIMIT_NPROC does not bind root (CI and containers run as root), so the limit is a
// cgroup's pids.max: the tool's cgroup v2 folder when the pids controller is enabled there, else
// a folder of the cgroup v1 pids hierarchy where one is mounted and writable. The supervisor joins
// it before starting the tool, so everything the tool starts counts (threads too).

import { existsSync, mkdirSync, readFileSync, rmdirSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";

/** Processes and threads a sandboxed tool may have at once (Node alone runs about a dozen threads). */
export const SANDBOX_MAX_PROCESSES = 512;

/** Sets pids.max in a cgroup v2 folder where the controller is on; false where it is not. */
export function limitCgroupV2(folder: string, max: number): boolean {
  const file = join(folder, "pids.max");
  if (!existsSync(file)) return false;
  try {
    writeFileSync(file, `${max}\n`);
    return true;
  } catch {
    return false;
  }
}

/** A new cgroup v1 pids folder holding `max`, or undefined where there is none to use. */
export function createPidsCgroupV1(max: number): string | undefined {
  if (process.platform !== "linux") return undefined;
  try {
    const mount = readFileSync("/proc/self/mountinfo", "utf8")
      .split("\n")
      .map((line) => line.split(" "))
      .find((fields) => {
        const dash = fields.indexOf("-");
        return fields[dash + 1] === "cgroup" && (fields[dash + 3] ?? "").split(",").includes("pids");
      });
    const own = readFileSync("/proc/self/cgroup", "utf8")
      .split("\n")
      .map((line) => line.split(":"))
      .find((fields) => (fields[1] ?? "").split(",").includes("pids"));
    if (!mount || mount[4] === undefined || own?.[2] === undefined) return undefined;
    const folder = join(mount[4], own[2], `rlm-plan-pids-${process.pid}`);
    mkdirSync(folder);
    try {
      writeFileSync(join(folder, "pids.max"), `${max}\n`);
    } catch {
      rmdirSync(folder);
      return undefined;
    }
    return folder;
  } catch {
    return undefined;
  }
}

/** Moves `pid` into a cgroup v1 folder; false when that is not allowed. */
export function joinPidsCgroupV1(folder: string, pid: number): boolean {
  try {
    writeFileSync(join(folder, "cgroup.procs"), `${pid}\n`);
    return true;
  } catch {
    return false;
  }
}

/** Leaves a cgroup v1 folder (to its parent) and removes it; false while processes remain in it. */
export function removePidsCgroupV1(folder: string, pid: number): boolean {
  joinPidsCgroupV1(dirname(folder), pid);
  try {
    rmdirSync(folder);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === "ENOENT";
  }
}
