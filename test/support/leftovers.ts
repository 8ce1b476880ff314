// Signal tests' tools: a workspace whose plan runs test/fixtures/tools/escapee.js (a grandchild
// and a setsid escapee, all deaf to SIGTERM), and the check that none of them runs any more.

import assert from "node:assert/strict";
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { cgroupRoot } from "@rlm-plan/core/host/toolCgroup";
import { processState } from "@rlm-plan/core/host/processGroup";

const ROOT = resolve(__dirname, "..", "..", "..");
export const ESCAPEE = join(ROOT, "test", "fixtures", "tools", "escapee.js");

export const TOOL_PLAN = {
  steps: [
    { op: "tool", name: "slow", args: { ref: "input", name: "args" }, bind: "r" },
    { op: "final", value: { ref: "var", name: "r" } },
  ],
};

/** The host profile that runs escapee.js as tool `slow`, writing pids to `pidFile`. */
export function escapeeProfile(pidFile: string, extra: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    capabilities: ["tool(slow)", ...((extra.capabilities as string[] | undefined) ?? [])],
    inputs: { args: { type: "value", value: { pidFile } } },
    // Outside the sandbox: the tests follow the tool's tree by the host pids it writes beside the
    // workspace (the sandbox's own guarantees: test/cli/sandbox.escapes.test.ts).
    sandbox: "off",
    tools: { slow: { type: "command", command: [process.execPath, ESCAPEE], timeoutMs: 60000 } },
    ...Object.fromEntries(Object.entries(extra).filter(([key]) => key !== "capabilities")),
  };
}

/** A folder with the profile and `p.rlmplan.json`; returns the plan's path. */
export function escapeeWorkspace(folder: string, pidFile: string, extra?: Record<string, unknown>): string {
  mkdirSync(folder, { recursive: true });
  writeFileSync(join(folder, "rlmplan.host.json"), JSON.stringify(escapeeProfile(pidFile, extra)));
  writeFileSync(join(folder, "p.rlmplan.json"), JSON.stringify(TOOL_PLAN));
  return join(folder, "p.rlmplan.json");
}

/** The pids a tool writes once it runs (a minute at most: node starts slowly on a loaded machine). */
export async function waitForFile(
  file: string,
  what: () => string,
  never = "the tool never started",
): Promise<Record<string, number>> {
  for (let i = 0; i < 1200; i++) {
    if (existsSync(file)) return JSON.parse(readFileSync(file, "utf8")) as Record<string, number>;
    await delay(50);
  }
  throw new Error(`${never}: ${what()}`);
}

export function delay(ms: number): Promise<void> {
  return new Promise((done) => setTimeout(done, ms));
}

/**
 * Three seconds after the end, none of the tool's processes runs. The setsid escapee is only
 * held where a cgroup can be used (Linux with a writable cgroup v2); elsewhere it is the
 * documented limit, and this reports it instead of failing.
 */
export async function assertNothingLeft(pids: Record<string, number>, where: string): Promise<void> {
  await delay(3000);
  const cgroups = cgroupRoot() !== undefined;
  for (const [name, pid] of Object.entries(pids)) {
    const state = processState(pid);
    if (name === "escapee" && !cgroups) {
      if (state === "running") process.kill(pid, "SIGKILL");
      continue;
    }
    assert.notEqual(state, "running", `${where}: the tool's ${name} (pid ${pid}) still runs`);
  }
}
