// How the server process ends without leaving a tool behind: SIGTERM, SIGINT, SIGHUP, the end of
// its input (the client closed stdio or died) all kill every tool process group first, then exit.
// The library's own exit paths (the `exit` notification, the client's process gone) call
// process.exit, where the runtime's exit hook kills the groups; a SIGKILL of the server is the
// supervisors' to handle (host/supervisor.ts).

import { killAllGroupsNow } from "@rlm-plan/core/host";

const SIGNALS: readonly (readonly [NodeJS.Signals, number])[] = [
  ["SIGTERM", 143],
  ["SIGINT", 130],
  ["SIGHUP", 129],
];

/** Installs the handlers; `stdio` says the client talks over stdin, so its end is the client's. */
export function exitWithoutLeftovers(stdio: boolean): void {
  for (const [signal, status] of SIGNALS) process.on(signal, () => end(status));
  if (stdio) {
    process.stdin.on("end", () => end(0));
    process.stdin.on("close", () => end(0));
  }
}

function end(status: number): never {
  killAllGroupsNow();
  process.exit(status);
}
