// Whether the operating-system sandbox can run here: bubblewrap installed, and the namespaces it
// needs (user, PID, network, mount) allowed. Asked once per process, by running the same kind of
// sandbox a tool gets around /bin/true: a machine where user namespaces are disabled (a sysctl,
// some containers) answers here with bubblewrap's own reason, not at a tool's first call.

import { accessSync, constants } from "node:fs";
import { delimiter, join } from "node:path";

export type SandboxAvailability =
  { readonly available: true; readonly bwrap: string } | { readonly available: false; readonly reason: string };

let cached: SandboxAvailability | undefined;
let pending: Promise<SandboxAvailability> | undefined;

/** Whether tool processes can be sandboxed on this machine (cached for the process). */
export function sandboxAvailability(): SandboxAvailability {
  cached ??= probeSync();
  return cached;
}

/**
 * The same answer without blocking: bubblewrap runs beside whatever the caller does meanwhile
 * (a run reads its plan and profile), where the synchronous probe held the run's start for the
 * whole of bubblewrap's namespace set-up. Once it has settled, sandboxAvailability() returns it.
 */
export function sandboxAvailabilitySoon(): Promise<SandboxAvailability> {
  if (cached !== undefined) return Promise.resolve(cached);
  pending ??= probeAsync().then((answer) => (cached ??= answer));
  return pending;
}

/** Forgets the cached answer (tests that change PATH). */
export function resetSandboxAvailability(): void {
  cached = undefined;
  pending = undefined;
}

/** The bubblewrap to probe, or the answer without one. */
function bwrapToProbe(): string | SandboxAvailability {
  if (process.platform !== "linux")
    return { available: false, reason: `bubblewrap runs only on Linux (this is ${process.platform})` };
  // RLM_PLAN_BWRAP names the program where it is not on PATH (and lets a test take it away).
  const named = process.env.RLM_PLAN_BWRAP;
  const bwrap = named !== undefined && named !== "" ? executable(named) : findBwrap(process.env.PATH ?? "");
  if (bwrap !== undefined) return bwrap;
  return {
    available: false,
    reason:
      named !== undefined && named !== ""
        ? `RLM_PLAN_BWRAP names ${JSON.stringify(named)}, which is not an executable file`
        : "bubblewrap (bwrap) is not installed (Debian and Ubuntu: apt install bubblewrap)",
  };
}

/** The same kind of sandbox a tool gets, around /bin/true. */
const PROBE_ARGS = [
  "--ro-bind",
  "/",
  "/",
  "--dev",
  "/dev",
  "--proc",
  "/proc",
  "--unshare-pid",
  "--unshare-net",
  "--unshare-ipc",
  "--unshare-uts",
  "--die-with-parent",
  "--new-session",
  "--",
  "/bin/true",
];
const PROBE_TIMEOUT_MS = 5_000;

function probeSync(): SandboxAvailability {
  const bwrap = bwrapToProbe();
  if (typeof bwrap !== "string") return bwrap;
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const { spawnSync } = require("node:child_process") as typeof import("node:child_process");
  const result = spawnSync(bwrap, PROBE_ARGS, {
    encoding: "utf8",
    timeout: PROBE_TIMEOUT_MS,
    stdio: ["ignore", "ignore", "pipe"],
  });
  return answer(bwrap, result.status, result.stderr ?? "", result.error);
}

function probeAsync(): Promise<SandboxAvailability> {
  const bwrap = bwrapToProbe();
  if (typeof bwrap !== "string") return Promise.resolve(bwrap);
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const { spawn } = require("node:child_process") as typeof import("node:child_process");
  return new Promise((resolve) => {
    let child;
    try {
      child = spawn(bwrap, PROBE_ARGS, { timeout: PROBE_TIMEOUT_MS, stdio: ["ignore", "ignore", "pipe"] });
    } catch (error) {
      // Never a rejection: whoever waits for the answer gets one (spawnSync's error, as the sync probe).
      resolve(answer(bwrap, null, "", error instanceof Error ? error : new Error(String(error))));
      return;
    }
    let stderr = "";
    let failed: Error | undefined;
    child.stderr.setEncoding("utf8");
    child.stderr.on("data", (chunk: string) => (stderr += chunk));
    child.on("error", (error) => (failed = error));
    // Killed at the timeout: a signal, no error.
    child.on("close", (status, signal) =>
      resolve(answer(bwrap, status, stderr, failed ?? (signal ? new Error(`it was ended by ${signal}`) : undefined))),
    );
  });
}

function answer(bwrap: string, status: number | null, stderr: string, error: Error | undefined): SandboxAvailability {
  if (status === 0) return { available: true, bwrap };
  const said = stderr
    .trim()
    .split("\n")[0]
    ?.replace(/^bwrap: /, "");
  const why = said || (error ? error.message : `it exited with status ${String(status)}`);
  return { available: false, reason: `bubblewrap cannot make a sandbox here: ${why}` };
}

function findBwrap(path: string): string | undefined {
  for (const dir of [...path.split(delimiter), "/usr/bin", "/bin"]) {
    const found = dir === "" ? undefined : executable(join(dir, "bwrap"));
    if (found !== undefined) return found;
  }
  return undefined;
}

function executable(file: string): string | undefined {
  try {
    accessSync(file, constants.X_OK);
    return file;
  } catch {
    return undefined;
  }
}
