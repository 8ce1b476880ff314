// Signal tests of MCP servers: a workspace whose host profile starts test/fixtures/mcp/
// escapee-server.js (a grandchild and a setsid escapee, all deaf to SIGTERM and SIGHUP), the
// endings every front end is put through, and the check that, 3 s after the end, no process
// whose command line names the test's pid file runs any more (a scan of /proc: the supervisor,
// the server and both helpers all carry it).

import assert from "node:assert/strict";
import { mkdirSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { cgroupRoot } from "@rlm-plan/core/host/toolCgroup";
import { processState } from "@rlm-plan/core/host/processGroup";
import { delay, waitForFile } from "./leftovers";

const ROOT = resolve(__dirname, "..", "..", "..");
export const MCP_ESCAPEE = join(ROOT, "test", "fixtures", "mcp", "escapee-server.js");

/** When the server writes its pids (and what it then never answers): see the fixture. */
export type EscapeeMode = "ok" | "hang-list" | "hang-call";

export const MCP_PLAN = {
  steps: [
    { op: "tool", name: "esc.wait", args: {}, bind: "r" },
    { op: "final", value: { ref: "var", name: "r" } },
  ],
};

/** A folder with a profile whose MCP server `esc` is the escapee server, and `p.rlmplan.json`; the plan's path. */
export function mcpEscapeeWorkspace(folder: string, pidFile: string, mode: EscapeeMode): string {
  mkdirSync(folder, { recursive: true });
  const profile = {
    capabilities: ["tool(esc.wait)"],
    // A loaded machine can take seconds to start the server: the run's default 10 s is too short.
    budget: { time_limit: 300 },
    // Outside the sandbox: these tests follow the supervisor's own guarantees (process group,
    // cgroup) by the host pids the server writes beside the workspace; the sandbox's are in
    // test/cli/sandbox.escapes.test.ts.
    sandbox: "off",
    mcpServers: { esc: { command: process.execPath, args: [MCP_ESCAPEE, pidFile, mode], timeoutMs: 60_000 } },
  };
  writeFileSync(join(folder, "rlmplan.host.json"), JSON.stringify(profile));
  writeFileSync(join(folder, "p.rlmplan.json"), JSON.stringify(MCP_PLAN));
  return join(folder, "p.rlmplan.json");
}

/** The pids the server writes once it is busy. */
export function waitForPids(file: string, what: () => string): Promise<Record<string, number>> {
  return waitForFile(file, what, "the MCP server never got busy");
}

/** One way a front end ends: the signals sent to it in a row, or none (it finishes by itself). */
export interface Ending {
  readonly name: string;
  readonly signals: readonly NodeJS.Signals[];
  /** The status a shell shows: 128 + the signal's number (null for SIGKILL, 0 for success). */
  readonly status: number | null;
}

export const SUCCESS: Ending = { name: "success", signals: [], status: 0 };
export const ENDINGS: readonly Ending[] = [
  SUCCESS,
  { name: "SIGINT", signals: ["SIGINT"], status: 130 },
  { name: "a second SIGINT", signals: ["SIGINT", "SIGINT"], status: 130 },
  { name: "SIGTERM", signals: ["SIGTERM"], status: 143 },
  { name: "SIGHUP", signals: ["SIGHUP"], status: 129 },
  { name: "SIGQUIT", signals: ["SIGQUIT"], status: 131 },
  { name: "SIGKILL", signals: ["SIGKILL"], status: null },
];

/**
 * The endings a test file runs: every one with RLM_PLAN_SIGNAL_MATRIX=1, else the named few
 * (each signal test waits 3 s; the full matrix is for changes to supervision).
 */
export function endingsToRun<T extends { readonly name: string }>(
  endings: readonly T[],
  representative: readonly string[],
): readonly T[] {
  if (process.env.RLM_PLAN_SIGNAL_MATRIX === "1") return endings;
  return endings.filter((ending) => representative.includes(ending.name));
}

/** Processes (zombies aside) whose command line contains `marker`. */
export function processesNaming(marker: string): { pid: number; command: string }[] {
  const found: { pid: number; command: string }[] = [];
  for (const entry of readdirSync("/proc")) {
    if (!/^\d+$/.test(entry)) continue;
    let command: string;
    try {
      command = readFileSync(`/proc/${entry}/cmdline`, "utf8").split("\0").join(" ").trim();
    } catch {
      continue;
    }
    if (command.includes(marker) && processState(Number(entry)) === "running")
      found.push({ pid: Number(entry), command });
  }
  return found;
}

/**
 * Three seconds after the end, no process names `marker`. The setsid escapee is held only where
 * a cgroup can be used (Linux with a writable cgroup v2); elsewhere it is the documented limit:
 * it is killed here instead of failing the test.
 */
export async function assertNoProcessNames(marker: string, where: string): Promise<void> {
  await delay(3000);
  let left = processesNaming(marker);
  if (cgroupRoot() === undefined) {
    for (const { pid } of left.filter((p) => p.command.includes(" escapee "))) process.kill(pid, "SIGKILL");
    left = left.filter((p) => !p.command.includes(" escapee "));
  }
  // What a failing test leaves is killed, so it does not disturb the next one.
  for (const { pid } of left) process.kill(pid, "SIGKILL");
  assert.deepEqual(
    left.map((p) => p.command),
    [],
    `${where}: processes left running 3 s after the end`,
  );
}
