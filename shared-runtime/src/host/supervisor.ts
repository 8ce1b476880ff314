// The small supervisor every tool outside the sandbox runs under (`node supervisor.js CGROUP PROGRAM ARGS...`;
// in the sandbox, bubblewrap does these jobs itself: host/sandbox/bubblewrapLaunch.ts).
// It leads the tool's process group, joins the tool's cgroup (when there is one) so everything
// the tool starts is in it, and runs the tool with its own stdin, stdout and stderr. File
// descriptor 3 is a pipe to the runtime: when it closes, the runtime is gone (even by SIGKILL),
// and the supervisor kills the cgroup and the process group. It also reports a failed start on
// that pipe, and exits as the tool did, so the runtime sees the tool's status.

import { spawn } from "node:child_process";
import { Socket } from "node:net";
import { dirname } from "node:path";
import { joinCgroup, killCgroup } from "./toolCgroup";

/** How long the group has, after SIGTERM, before the supervisor kills the cgroup itself. */
const TERM_GRACE_MS = 400;

const [cgroup, program, ...argv] = process.argv.slice(2);
const inCgroup = cgroup !== undefined && cgroup !== "-" && joinCgroup(cgroup, process.pid);
const runtime = new Socket({ fd: 3, readable: true, writable: true });

/** Kills everything the tool started, this process last. */
function killAll(): never {
  if (inCgroup && cgroup !== undefined) {
    // Out of the cgroup first, so killing it does not stop us half-way.
    joinCgroup(dirname(cgroup), process.pid);
    killCgroup(cgroup);
  }
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
child.on("exit", (code, signal) => {
  // The tool is done: whatever it left in its cgroup goes now (helpers in the process group are
  // the runtime's to kill, it does so as soon as it sees this exit).
  if (inCgroup && cgroup !== undefined) {
    joinCgroup(dirname(cgroup), process.pid);
    killCgroup(cgroup);
  }
  runtime.removeAllListeners();
  runtime.destroy();
  if (signal !== null) {
    process.removeAllListeners(signal);
    process.kill(process.pid, signal);
  }
  process.exit(code ?? 1);
});

// The group got the signal too: give the tool its grace period, then end everything.
for (const signal of ["SIGTERM", "SIGINT", "SIGHUP", "SIGQUIT"] as const) {
  process.on(signal, () => setTimeout(killAll, TERM_GRACE_MS).unref());
}
