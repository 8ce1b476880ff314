// An MCP server that starts a grandchild and a setsid escapee leaves no process behind, 3 s after
// `rlm-plan run` (or the CLI command that lists MCP tools) ends: by success or by a signal,
// SIGKILL included. The default tier runs success, SIGINT and SIGKILL; RLM_PLAN_SIGNAL_MATRIX=1
// runs every ending of test/support/mcpLeftovers.ts.

import assert from "node:assert/strict";
import { spawn } from "node:child_process";
import { existsSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, describe, test } from "node:test";
import { constants } from "node:os";
import { childOutput } from "../support/childOutput";
import {
  assertNoProcessNames,
  ENDINGS,
  endingsToRun,
  mcpEscapeeWorkspace,
  type Ending,
  type EscapeeMode,
  waitForPids,
} from "../support/mcpLeftovers";
import { CLI } from "../support/cliWorkspace";

/** The CLI command that lists a profile's MCP tools (the plan's path follows it). */
const LIST_TOOLS_COMMAND: readonly string[] = ["check", "--preflight"];

const dir = mkdtempSync(join(tmpdir(), "rlm-plan-mcp-signals-"));
after(() => rmSync(dir, { recursive: true, force: true }));

const REPRESENTATIVE = ["success", "SIGINT", "SIGKILL"];

async function endWith(ending: Ending, command: readonly string[], name: string, busyMode: EscapeeMode) {
  const pidFile = join(dir, `${name}.pids`);
  const plan = mcpEscapeeWorkspace(join(dir, name), pidFile, ending.signals.length === 0 ? "ok" : busyMode);
  const child = spawn(process.execPath, [CLI, ...command, plan], {
    cwd: dir,
    env: { PATH: process.env.PATH, NO_COLOR: "1" },
    stdio: ["ignore", "pipe", "pipe"],
  });
  const exit = new Promise<NodeJS.Signals | null>((done) => child.once("exit", (_code, signal) => done(signal)));
  const output = childOutput(child);
  let stderr = "";
  child.stderr.on("data", (chunk: Buffer) => (stderr += chunk.toString()));
  await waitForPids(pidFile, () => stderr);
  for (const signal of ending.signals) child.kill(signal);
  const result = await output;
  const signal = await exit;
  // A shell shows 128 + n for both: the command exited with it, or died of the signal.
  const shown = signal === null || signal === "SIGKILL" ? result.code : 128 + constants.signals[signal];
  assert.equal(shown, ending.status, `${command.join(" ")} ended by ${ending.name}: ${result.stderr}`);
  assert.ok(existsSync(pidFile));
  await assertNoProcessNames(pidFile, `${command.join(" ")} ended by ${ending.name}`);
}

describe("rlm-plan run: no MCP server process outlives the command", { concurrency: true }, () => {
  for (const ending of endingsToRun(ENDINGS, REPRESENTATIVE)) {
    test(`ended by ${ending.name}`, () => endWith(ending, ["run"], `run-${slug(ending.name)}`, "hang-call"));
  }
});

describe(
  `rlm-plan ${LIST_TOOLS_COMMAND.join(" ")}: no MCP server process outlives the listing`,
  { concurrency: true },
  () => {
    for (const ending of endingsToRun(ENDINGS, REPRESENTATIVE)) {
      test(`ended by ${ending.name}`, () =>
        endWith(ending, LIST_TOOLS_COMMAND, `list-${slug(ending.name)}`, "hang-list"));
    }
  },
);

function slug(name: string): string {
  return name.replace(/[^A-Za-z0-9]+/g, "-");
}
