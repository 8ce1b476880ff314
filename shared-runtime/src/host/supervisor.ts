// The small supervisor every command tool runs under (`node supervisor.js CGROUP LIMITS PROGRAM ARGS...`).
// It leads the tool's process group, joins the tool's cgroup (when there is one) so everything
// the tool starts is in it, and runs the tool with its own stdin, stdout and stderr. File
// descriptor 3 is a pipe to the runtime: when it closes, the runtime is gone (even by SIGKILL),
// and the supervisor kills the cgroup and the process group. It also reports a failed start, or
// a tool killed by its memory limit, on that pipe, and exits as the tool did, so the runtime sees
// the tool's status. LIMITS, when not 0, are the process and memory limits of a sandboxed tool
// (host/sandbox/resourceLimits.ts), set before it starts.

import { spawn } from "node:child_process";
import { writeSync } from "node:fs";
import { Socket } from "node:net";
import { constants as osConstants } from "node:os";
import { dirname } from "node:path";
import {
  createCgroupV1,
  joinCgroupV1,
  killedForMemory,
  limitCgroupV2,
  parseLimitsArgument,
  removeCgroupV1,
} from "./sandbox/resourceLimits";
import { joinCgroup, killCgroup } from "./toolCgroup";

/** How long the group has, after SIGTERM, before the supervisor kills the cgroup itself. */
const TERM_GRACE_MS = 400;

const [cgroup, limitsArgument, program, ...argv] = process.argv.slice(2);
const inCgroup = cgroup !== undefined && cgroup !== "-" && joinCgroup(cgroup, process.pid);
const limits = parseLimitsArgument(limitsArgument);
// Each limit in the tool's own cgroup where its controller is on there, else in a cgroup v1
// folder of our own (left and removed again as we exit).
const v1Folders: string[] = [];
let memoryFolder: string | undefined;
for (const [controller, value] of [
  ["pids", limits?.pids ?? 0],
  ["memory", limits?.memoryBytes ?? 0],
] as const) {
  if (value <= 0) continue;
  if (inCgroup && cgroup !== undefined && limitCgroupV2(cgroup, controller, value)) {
    if (controller === "memory") memoryFolder = cgroup;
    continue;
  }
  const folder = createCgroupV1(controller, value);
  if (folder === undefined) continue;
  if (!joinCgroupV1(folder, process.pid)) {
    removeCgroupV1(folder, process.pid);
    continue;
  }
  v1Folders.push(folder);
  if (controller === "memory") memoryFolder = folder;
}

/** A line to the runtime written at once: the process exits right after, before a socket's write would flush. */
function reportNow(report: Record<string, unknown>): void {
  try {
    writeSync(3, `${JSON.stringify(report)}\n`);
  } catch {
    // the runtime is gone
  }
}

/** Empties and removes our v1 folders (the tool is gone or being killed). */
function releaseLimits(): void {
  for (const folder of v1Folders) {
    joinCgroupV1(dirname(folder), process.pid);
    killCgroup(folder);
  }
  v1Folders.length = 0;
}
const runtime = new Socket({ fd: 3, readable: true, writable: true });

/** Kills everything the tool started, this process last. */
function killAll(): never {
  if (inCgroup && cgroup !== undefined) {
    // Out of the cgroup first, so killing it does not stop us half-way.
    joinCgroup(dirname(cgroup), process.pid);
    killCgroup(cgroup);
  }
  releaseLimits();
  try {
    process.kill(-process.pid, "SIGKILL");
  } catch {
    // not a group leader (started by hand): the cgroup did what it could
  }
  process.exit(137);
}

runtime.on("data", () => undefined);
runtime.on("end", killAll);
runtime.on("close", killAll);
runtime.on("error", killAll);

if (program === undefined) {
  runtime.end(`${JSON.stringify({ spawnError: "EINVAL" })}\n`);
  process.exit(126);
}

// Under Electron (VS Code's server) the runtime starts us as Node with this variable; the tool
// gets exactly the environment its profile gives.
const env = { ...process.env };
if (env.RLM_PLAN_SUPERVISOR_ELECTRON === "1") {
  delete env.RLM_PLAN_SUPERVISOR_ELECTRON;
  delete env.ELECTRON_RUN_AS_NODE;
}
const child = spawn(program, argv, { stdio: "inherit", shell: false, env });
child.on("error", (error: NodeJS.ErrnoException) => {
  runtime.write(`${JSON.stringify({ spawnError: error.code ?? "EIO" })}\n`, () => process.exit(127));
});
child.on("exit", (exitCode, exitSignal) => {
  const { code, signal } = toolStatus(exitCode, exitSignal);
  // Killed by the memory limit: said before the folder (and its count) goes.
  if (signal === "SIGKILL" && memoryFolder !== undefined && killedForMemory(memoryFolder))
    reportNow({ memoryLimit: limits?.memoryBytes ?? 0 });
  // The tool is done: whatever it left in its cgroup goes now (helpers in the process group are
  // the runtime's to kill, it does so as soon as it sees this exit).
  if (inCgroup && cgroup !== undefined) {
    joinCgroup(dirname(cgroup), process.pid);
    killCgroup(cgroup);
  }
  releaseLimits();
  runtime.removeAllListeners();
  runtime.destroy();
  if (signal !== null) {
    process.removeAllListeners(signal);
    process.kill(process.pid, signal);
  }
  process.exit(code ?? 1);
});

/**
 * The tool's own status. In the sandbox the program is bubblewrap, whose init exits 128 + N when
 * the tool was killed by signal N: that is reported as the signal, as without the sandbox.
 */
function toolStatus(
  code: number | null,
  signal: NodeJS.Signals | null,
): { code: number | null; signal: NodeJS.Signals | null } {
  if (limits === undefined || code === null || code <= 128) return { code, signal };
  const name = Object.entries(osConstants.signals).find(([, number]) => number === code - 128)?.[0];
  return name === undefined ? { code, signal } : { code: null, signal: name as NodeJS.Signals };
}

// The group got the signal too: give the tool its grace period, then end everything.
for (const signal of ["SIGTERM", "SIGINT", "SIGHUP", "SIGQUIT"] as const) {
  process.on(signal, () => setTimeout(killAll, TERM_GRACE_MS).unref());
}
