// Whether the process that wrote a `running` run is still alive: a run whose process is gone did
// not finish (it is shown as interrupted and may be resumed at once). A process killed a moment
// ago may still be a zombie (its parent has not collected it: `kill(pid, 0)` still succeeds), and
// its pid may since belong to another process (pids are reused; in a container they start again
// from 1): the run records its process's identity (the boot's id and the process's start time)
// and a pid whose identity is not the recorded one is not the run's. Only a process on this
// machine can be asked; a run from another machine is taken as alive.

import { readFileSync } from "node:fs";
import { hostname } from "node:os";
import { processStartTicks, processState } from "../host/processGroup";

let bootId: string | undefined;
/** This process's identity, read once: every run it records carries it (`rlm-plan test` records one per case). */
let own: string | null | undefined;

/** The process `pid` as a run records it ("BOOT_ID:START_TICKS"), or null where /proc cannot say. */
export function processIdentity(pid: number = process.pid): string | null {
  if (pid === process.pid && own !== undefined) return own;
  const start = processStartTicks(pid);
  let identity: string | null = null;
  if (start !== undefined && start !== "") {
    try {
      bootId ??= readFileSync("/proc/sys/kernel/random/boot_id", "utf8").trim();
    } catch {
      bootId = "";
    }
    identity = `${bootId}:${start}`;
  }
  if (pid === process.pid) own = identity;
  return identity;
}

/** Whether the run's process (`pid` on `machine`, with its recorded `identity`) is still running. */
export function processAlive(pid: number | null, machine: string | null, identity: string | null = null): boolean {
  if (pid === null) return false;
  if (machine !== null && machine !== hostname()) return true;
  if (processState(pid) !== "running") return false;
  if (identity === null) return true;
  const now = processIdentity(pid);
  return now === null || now === identity;
}
