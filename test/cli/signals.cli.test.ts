// Every way `rlm-plan run` and `propose --run` end (SIGINT, SIGTERM, SIGHUP, SIGQUIT, a quick
// second SIGINT, SIGKILL) leaves none of the tool's processes behind, 3 s later: its grandchild
// and a helper that left the process group with setsid included. By default `run` is ended by
// SIGINT, a second SIGINT and SIGKILL, `propose --run` by SIGTERM and SIGKILL (each ending waits
// 3 s); RLM_PLAN_SIGNAL_MATRIX=1 (CI) ends both every way.

import assert from "node:assert/strict";
import { spawn } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, describe, test } from "node:test";
import { startChatServer } from "../support/chatServer";
import { childOutput } from "../support/childOutput";
import { assertNothingLeft, escapeeWorkspace, TOOL_PLAN, waitForFile } from "../support/leftovers";
import { CLI } from "../support/cliWorkspace";
import { endingsToRun } from "../support/mcpLeftovers";

const dir = mkdtempSync(join(tmpdir(), "rlm-plan-signals-"));
after(() => rmSync(dir, { recursive: true, force: true }));

type Ending = { readonly name: string; readonly signals: readonly NodeJS.Signals[]; readonly status: number | null };

const ENDINGS: readonly Ending[] = [
  { name: "SIGINT", signals: ["SIGINT"], status: 130 },
  { name: "SIGTERM", signals: ["SIGTERM"], status: 143 },
  { name: "SIGHUP", signals: ["SIGHUP"], status: 129 },
  { name: "SIGQUIT", signals: ["SIGQUIT"], status: 131 },
  { name: "a second SIGINT", signals: ["SIGINT", "SIGINT"], status: 130 },
  { name: "SIGKILL", signals: ["SIGKILL"], status: null },
];

async function endWith(ending: Ending, args: readonly string[], pidFile: string, env: NodeJS.ProcessEnv = {}) {
  const child = spawn(process.execPath, [CLI, ...args], {
    cwd: dir,
    env: { PATH: process.env.PATH, NO_COLOR: "1", ...env },
    stdio: ["ignore", "pipe", "pipe"],
  });
  const output = childOutput(child);
  let stderr = "";
  child.stderr.on("data", (chunk: Buffer) => (stderr += chunk.toString()));
  const pids = await waitForFile(pidFile, () => stderr);
  for (const signal of ending.signals) child.kill(signal);
  const result = await output;
  assert.equal(result.code, ending.status, `exit status after ${ending.name}: ${result.stderr}`);
  await assertNothingLeft(pids, `${args[0]} ended by ${ending.name}`);
}

describe("rlm-plan run: no tool process outlives the command", () => {
  for (const [index, ending] of endingsToRun(ENDINGS, ["SIGINT", "a second SIGINT", "SIGKILL"]).entries()) {
    test(`ended by ${ending.name}`, async () => {
      const pidFile = join(dir, `run-${index}.json`);
      const plan = escapeeWorkspace(join(dir, `run-${index}`), pidFile);
      await endWith(ending, ["run", plan], pidFile);
    });
  }
});

describe("rlm-plan propose --run: no tool process outlives the command", () => {
  for (const [index, ending] of endingsToRun(ENDINGS, ["SIGTERM", "SIGKILL"]).entries()) {
    test(`ended by ${ending.name}`, async () => {
      const chat = await startChatServer([], { kind: "ok", text: JSON.stringify(TOOL_PLAN) });
      try {
        const pidFile = join(dir, `propose-${index}.json`);
        const folder = join(dir, `propose-${index}`);
        escapeeWorkspace(folder, pidFile, {
          capabilities: ["model(local)"],
          providers: { local: { type: "openai-chat", baseUrl: chat.baseUrl, model: "m" } },
        });
        const host = join(folder, "rlmplan.host.json");
        await endWith(ending, ["propose", "run the tool", "--provider", "local", "--host", host, "--run"], pidFile);
      } finally {
        await chat.close();
      }
    });
  }
});
