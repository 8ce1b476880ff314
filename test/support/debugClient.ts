// The debug adapter tests' client: the committed adapter bin run as a child process and driven over
// stdio by @vscode/debugadapter-testsupport's DebugClient, with no deadline a loaded machine can meet.

import { join, resolve } from "node:path";
import { DebugClient } from "@vscode/debugadapter-testsupport";

// Compiled to test/out/support: the repository root is three levels up.
const ROOT = resolve(__dirname, "..", "..", "..");
export const ADAPTER = join(ROOT, "debug-adapter", "bin", "rlm-plan-debug-adapter.js");

/**
 * DebugClient fails every request and awaited event after its `defaultTimeout` (5 s unless set).
 * That is a timed assertion: beside an e2e run on two cores, 30 s was not enough for a launch. This
 * is only a backstop against a hung adapter, far beyond any load seen (a whole tier takes minutes).
 */
export const HANG_BACKSTOP_MS = 10 * 60_000;

/** A client (not started) for the adapter, in `cwd`. */
export function debugClient(cwd: string): DebugClient {
  const client = new DebugClient(process.execPath, ADAPTER, "rlm-plan", { cwd });
  client.defaultTimeout = HANG_BACKSTOP_MS;
  return client;
}
