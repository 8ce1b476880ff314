// The process and memory limits of a sandboxed tool: a fork bomb stops at the process limit and a
// runaway allocation at the memory limit, instead of filling the machine. The kernel's rlimits do
// not bind root for processes (CI and containers run as root) and count address space, not memory,
// so both are cgroup limits: pids.max and memory.max in the tool's cgroup v2 folder where those
// controllers are enabled there, else folders of the cgroup v1 pids and memory hierarchies where
// they are mounted and writable. The runtime moves bubblewrap into them while bubblewrap waits to
// start the tool (host/sandbox/bubblewrapLaunch.ts), so everything the tool starts counts (threads
// too), and reads afterwards whether the memory limit killed it.

import { existsSync, mkdirSync, readFileSync, rmdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";

/** Processes and threads a sandboxed tool may have at once (Node alone runs about a dozen threads). */
export const SANDBOX_MAX_PROCESSES = 512;
/** Memory a sandboxed tool and everything it starts may use together, in MiB. */
export const SANDBOX_MAX_MEMORY_MB = 2048;

export interface ToolLimits {
  readonly pids: number;
  readonly memoryBytes: number;
}

type Controller = "pids" | "memory";
const V1_LIMIT_FILE: Record<Controller, string> = { pids: "pids.max", memory: "memory.limit_in_bytes" };
const V2_LIMIT_FILE: Record<Controller, string> = { pids: "pids.max", memory: "memory.max" };

/** Sets a limit in a cgroup v2 folder where the controller is on; false where it is not. */
export function limitCgroupV2(folder: string, controller: Controller, value: number): boolean {
  const file = join(folder, V2_LIMIT_FILE[controller]);
  if (!existsSync(file)) return false;
  try {
    writeFileSync(file, `${value}\n`);
    return true;
  } catch {
    return false;
  }
}

/**
 * A new folder `rlm-plan-CONTROLLER-NAME` of the cgroup v1 hierarchy of `controller` holding
 * `value`, or undefined where there is none to use.
 */
export function createCgroupV1(controller: Controller, value: number, name: string): string | undefined {
  const parent = cgroupV1Parent(controller);
  if (parent === undefined) return undefined;
  const folder = join(parent, `rlm-plan-${controller}-${name}`);
  try {
    mkdirSync(folder);
  } catch {
    return undefined;
  }
  try {
    writeFileSync(join(folder, V1_LIMIT_FILE[controller]), `${value}\n`);
    return folder;
  } catch {
    rmdirSync(folder);
    return undefined;
  }
}

const v1Parents = new Map<Controller, string | undefined>();

/** This process's folder in the cgroup v1 hierarchy of `controller`, where one is mounted (read once). */
export function cgroupV1Parent(controller: Controller): string | undefined {
  if (v1Parents.has(controller)) return v1Parents.get(controller);
  let parent: string | undefined;
  try {
    if (process.platform === "linux") {
      const mount = readFileSync("/proc/self/mountinfo", "utf8")
        .split("\n")
        .map((line) => line.split(" "))
        .find((fields) => {
          const dash = fields.indexOf("-");
          return fields[dash + 1] === "cgroup" && (fields[dash + 3] ?? "").split(",").includes(controller);
        });
      const own = readFileSync("/proc/self/cgroup", "utf8")
        .split("\n")
        .map((line) => line.split(":"))
        .find((fields) => (fields[1] ?? "").split(",").includes(controller));
      if (mount?.[4] !== undefined && own?.[2] !== undefined) parent = join(mount[4], own[2]);
    }
  } catch {
    // no /proc: no cgroups
  }
  v1Parents.set(controller, parent);
  return parent;
}

/** Whether the memory limit killed a process of this folder (v2 memory.events, v1 memory.oom_control). */
export function killedForMemory(folder: string): boolean {
  for (const file of ["memory.events", "memory.oom_control"]) {
    try {
      const count = /^oom_kill (\d+)$/m.exec(readFileSync(join(folder, file), "utf8"))?.[1];
      if (count !== undefined) return Number(count) > 0;
    } catch {
      // not this cgroup version
    }
  }
  return false;
}
