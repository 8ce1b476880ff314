// Whether the process that wrote a `running` run is still alive: a run whose process is gone did
// not finish (it is shown as interrupted and may be resumed). Only a process on this machine can be
// asked; a run from another machine is taken as alive.

import { hostname } from "node:os";

export function processAlive(pid: number | null, machine: string | null): boolean {
  if (pid === null) return false;
  if (machine !== null && machine !== hostname()) return true;
  if (pid === process.pid) return true;
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    // EPERM: it exists but belongs to someone else.
    return (error as NodeJS.ErrnoException).code === "EPERM";
  }
}
