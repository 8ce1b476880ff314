// A real redis-server (Debian's package) for the queue's tests: started on a free 127.0.0.1
// port in a temporary folder, with nothing saved (`--save '' --appendonly no`), and killed after.
// Without /usr/bin/redis-server a test skips with a message, except in CI (CI=true), where it
// fails: scripts/install-e2e.sh installs it there.

import { spawn, type ChildProcess } from "node:child_process";
import { existsSync, mkdtempSync, rmSync } from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";

export const REDIS_SERVER = process.env["REDIS_SERVER"] ?? "/usr/bin/redis-server";

export interface RedisServer {
  readonly port: number;
  /** redis://127.0.0.1:PORT/QUEUE */
  url(queue: string): string;
  /** Freezes it (SIGSTOP): it still accepts connections (the kernel does) and never answers. */
  freeze(): void;
  /** Kills it and starts an empty one on the same port (a restart that lost everything). */
  restartEmpty(): Promise<void>;
  stop(): Promise<void>;
}

/** Why the queue's tests cannot run here (redis-server missing), or undefined. Throws in CI. */
export function redisMissing(): string | undefined {
  if (existsSync(REDIS_SERVER)) return undefined;
  const message = `${REDIS_SERVER} is missing: install Debian's redis-server (scripts/install-e2e.sh does, as root)`;
  if (process.env["CI"] === "true") throw new Error(`CI: ${message}`);
  return `skipped: ${message}`;
}

/** `requirepass`: the password Redis asks of every client. */
export async function startRedis(options: { requirepass?: string } = {}): Promise<RedisServer> {
  const port = await freePort();
  const dir = mkdtempSync(join(tmpdir(), "rlm-plan-redis-"));
  const extra = options.requirepass !== undefined ? ["--requirepass", options.requirepass] : [];
  let child = await spawnRedis(port, dir, extra);
  const killOnExit = () => child.kill("SIGKILL");
  process.once("exit", killOnExit);
  const kill = async () => {
    if (child.exitCode === null && child.signalCode === null) {
      const exited = new Promise((resolve) => child.once("exit", resolve));
      child.kill("SIGKILL");
      await exited;
    }
  };
  return {
    port,
    url: (queue) => `redis://127.0.0.1:${port}/${queue}`,
    freeze: () => void child.kill("SIGSTOP"),
    restartEmpty: async () => {
      await kill();
      child = await spawnRedis(port, dir, extra);
    },
    stop: async () => {
      process.off("exit", killOnExit);
      await kill();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

async function spawnRedis(port: number, dir: string, extra: readonly string[]): Promise<ChildProcess> {
  const child: ChildProcess = spawn(
    REDIS_SERVER,
    ["--port", String(port), "--bind", "127.0.0.1", "--dir", dir, "--save", "", "--appendonly", "no", ...extra],
    { stdio: ["ignore", "pipe", "pipe"] },
  );
  let output = "";
  await new Promise<void>((resolve, reject) => {
    const onData = (chunk: Buffer) => {
      output += chunk.toString("utf8");
      if (output.includes("Ready to accept connections")) resolve();
    };
    child.stdout?.on("data", onData);
    child.stderr?.on("data", onData);
    child.once("exit", (code) => reject(new Error(`redis-server exited (${code}): ${output}`)));
  });
  return child;
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const address = server.address();
      const port = typeof address === "object" && address ? address.port : 0;
      server.close(() => resolve(port));
    });
  });
}
