// Starts the built language server as a child process of this one (`node [flags] main.js
// --stdio`), and ends every server still running when this process exits, so that a test that
// failed before stopping its server, or forgot to, leaves no server behind.

import { spawn, type ChildProcessWithoutNullStreams } from "node:child_process";
import { existsSync } from "node:fs";
import { resolve } from "node:path";

/** The built server's entry point, found through the server package's exports map. */
export const SERVER_MAIN = require.resolve("@rlm-plan/language-server/lsp/main");

/** The preload that lets a benchmark ask the server for a full GC and its memory (serverMemoryHook.ts). */
const MEMORY_HOOK = resolve(__dirname, "serverMemoryHook.js");

export interface ServerProcessOptions {
  /** The server's entry point (default SERVER_MAIN): a benchmark measures another build with it. */
  readonly serverMain?: string;
  /** When set, the server runs under `node --cpu-prof --cpu-prof-dir=<dir>` (written when it exits). */
  readonly cpuProfileDir?: string;
  /** Preload the memory hook (with --expose-gc), for LspClient.collectGarbage(). */
  readonly memoryHook?: boolean;
}

const running = new Set<ChildProcessWithoutNullStreams>();
let reaperInstalled = false;

export function spawnServer(options: ServerProcessOptions): ChildProcessWithoutNullStreams {
  const main = options.serverMain ?? SERVER_MAIN;
  if (!existsSync(main)) throw new Error(`${main} is missing: run npm run build first`);
  const nodeArgs = [
    ...(options.cpuProfileDir === undefined ? [] : ["--cpu-prof", `--cpu-prof-dir=${options.cpuProfileDir}`]),
    ...(options.memoryHook === true ? ["--expose-gc", "--require", MEMORY_HOOK] : []),
  ];
  const child = spawn(process.execPath, [...nodeArgs, main, "--stdio"], { stdio: "pipe" });
  running.add(child);
  child.once("exit", () => running.delete(child));
  if (!reaperInstalled) {
    reaperInstalled = true;
    // Only synchronous work is possible here: a kill, no shutdown handshake.
    process.once("exit", () => {
      for (const server of running) server.kill("SIGKILL");
    });
  }
  return child;
}
