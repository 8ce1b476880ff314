// Whether the operating-system sandbox can run here: bubblewrap installed, and the namespaces it
// needs (user, PID, network, mount) allowed. Asked once per process, by running the same kind of
// sandbox a tool gets around /bin/true: a machine where user namespaces are disabled (a sysctl,
// some containers) answers here with bubblewrap's own reason, not at a tool's first call.

import { accessSync, constants } from "node:fs";
import { delimiter, join } from "node:path";

export type SandboxAvailability =
  { readonly available: true; readonly bwrap: string } | { readonly available: false; readonly reason: string };

let cached: SandboxAvailability | undefined;

/** Whether tool processes can be sandboxed on this machine (cached for the process). */
export function sandboxAvailability(): SandboxAvailability {
  cached ??= probe();
  return cached;
}

/** Forgets the cached answer (tests that change PATH). */
export function resetSandboxAvailability(): void {
  cached = undefined;
}

function probe(): SandboxAvailability {
  if (process.platform !== "linux")
    return { available: false, reason: `bubblewrap runs only on Linux (this is ${process.platform})` };
  // RLM_PLAN_BWRAP names the program where it is not on PATH (and lets a test take it away).
  const named = process.env.RLM_PLAN_BWRAP;
  const bwrap = named !== undefined && named !== "" ? executable(named) : findBwrap(process.env.PATH ?? "");
  if (bwrap === undefined)
    return {
      available: false,
      reason:
        named !== undefined && named !== ""
          ? `RLM_PLAN_BWRAP names ${JSON.stringify(named)}, which is not an executable file`
          : "bubblewrap (bwrap) is not installed (Debian and Ubuntu: apt install bubblewrap)",
    };
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const { spawnSync } = require("node:child_process") as typeof import("node:child_process");
  const result = spawnSync(
    bwrap,
    [
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
    ],
    { encoding: "utf8", timeout: 5_000, stdio: ["ignore", "ignore", "pipe"] },
  );
  if (result.status === 0) return { available: true, bwrap };
  const said = (result.stderr ?? "")
    .trim()
    .split("\n")[0]
    ?.replace(/^bwrap: /, "");
  const why = said || (result.error ? result.error.message : `it exited with status ${String(result.status)}`);
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
