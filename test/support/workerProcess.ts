// `rlm-plan worker` as a real child process for the queue's tests: started from a workspace
// folder, its stderr kept (and waited on: "ready", a job's line), signalled, and killed when the
// test process exits.

import { spawn, type ChildProcessByStdio } from "node:child_process";
import type { Readable } from "node:stream";
import { CLI } from "./cliWorkspace";

export interface WorkerProcess {
  readonly name: string;
  readonly child: ChildProcessByStdio<null, Readable, Readable>;
  /** Everything it wrote to stderr so far. */
  log(): string;
  /** Resolves once its stderr matches `pattern` (now or later). */
  waitFor(pattern: RegExp): Promise<void>;
  /** Resolves to its exit code (null when a signal ended it). */
  readonly exited: Promise<number | null>;
}

const started = new Set<WorkerProcess>();
process.once("exit", () => {
  for (const worker of started) if (worker.child.exitCode === null) worker.child.kill("SIGKILL");
});

export async function startWorker(
  cwd: string,
  name: string,
  args: readonly string[],
  env: NodeJS.ProcessEnv = {},
): Promise<WorkerProcess> {
  const child = spawn(process.execPath, [CLI, "worker", "--name", name, ...args], {
    cwd,
    env: { ...process.env, NO_COLOR: "1", ...env },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let log = "";
  const waiters: { pattern: RegExp; resolve: () => void }[] = [];
  child.stderr.setEncoding("utf8").on("data", (chunk: string) => {
    log += chunk;
    for (const waiter of [...waiters])
      if (waiter.pattern.test(log)) {
        waiters.splice(waiters.indexOf(waiter), 1);
        waiter.resolve();
      }
  });
  child.stdout.resume();
  const exited = new Promise<number | null>((resolve) => child.once("exit", (code) => resolve(code)));
  const worker: WorkerProcess = {
    name,
    child,
    log: () => log,
    exited,
    waitFor: (pattern) =>
      pattern.test(log)
        ? Promise.resolve()
        : new Promise<void>((resolve, reject) => {
            waiters.push({ pattern, resolve });
            void exited.then(() => {
              if (!pattern.test(log)) reject(new Error(`worker ${name} exited before ${String(pattern)}:\n${log}`));
            });
          }),
  };
  started.add(worker);
  await worker.waitFor(/ready: queue/);
  return worker;
}

export async function stopWorker(worker: WorkerProcess): Promise<void> {
  if (worker.child.exitCode !== null || worker.child.signalCode !== null) return;
  worker.child.kill("SIGKILL");
  await worker.exited;
}
