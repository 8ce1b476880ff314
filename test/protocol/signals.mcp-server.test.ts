// The language server lists a profile's MCP tools (rlmPlan.listMcpTools on) from a server that
// starts a grandchild and a setsid escapee: 3 s after the language server ends, by shutdown or
// by any signal, its input closed or its client gone, none of them runs. The default tier runs
// success, SIGKILL and its input closed; RLM_PLAN_SIGNAL_MATRIX=1 runs every ending.

import { spawn } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, describe, test } from "node:test";
import { LspClient } from "@rlm-plan/lsp-harness";
import {
  assertNoProcessNames,
  ENDINGS,
  endingsToRun,
  MCP_PLAN,
  mcpEscapeeWorkspace,
  waitForPids,
} from "../support/mcpLeftovers";

const dir = mkdtempSync(join(tmpdir(), "rlm-plan-server-mcp-signals-"));
after(() => rmSync(dir, { recursive: true, force: true }));

interface ServerEnding {
  readonly name: string;
  /** Whether the MCP server answers its tool list (else the listing is still running at the end). */
  readonly answers: boolean;
  end(client: LspClient, parent: { kill(): void }): Promise<void> | void;
}

const signalled = (signals: readonly NodeJS.Signals[]) => (client: LspClient) => {
  for (const signal of signals) process.kill(client.pid ?? 0, signal);
};

const SERVER_ENDINGS: readonly ServerEnding[] = [
  { name: "success", answers: true, end: (client) => client.stop() },
  { name: "shutdown mid-listing", answers: false, end: (client) => client.stop() },
  { name: "its input closed", answers: false, end: (client) => client.closeInput() },
  { name: "its client's process gone", answers: false, end: (_client, parent) => parent.kill() },
  ...ENDINGS.filter((ending) => ending.signals.length > 0).map((ending) => ({
    name: ending.name,
    answers: false,
    end: signalled(ending.signals),
  })),
];

const REPRESENTATIVE = ["success", "its input closed", "SIGKILL"];

describe("the language server: no MCP server process outlives it", { concurrency: true }, () => {
  for (const [index, ending] of endingsToRun(SERVER_ENDINGS, REPRESENTATIVE).entries()) {
    test(`ended by ${ending.name}`, async () => {
      const pidFile = join(dir, `pids-${index}.json`);
      const planFile = mcpEscapeeWorkspace(join(dir, `ws-${index}`), pidFile, ending.answers ? "ok" : "hang-list");
      // The "client process" the server watches (initialize's processId): a process we can end.
      const parent = spawn(process.execPath, ["-e", "setInterval(() => {}, 1000)"], { stdio: "ignore" });
      try {
        const client = await LspClient.start({
          root: join(dir, `ws-${index}`),
          processId: parent.pid,
          settings: { listMcpTools: true },
        });
        try {
          await client.open(planFile, JSON.stringify(MCP_PLAN));
          await waitForPids(pidFile, () => client.stderr);
          await ending.end(client, parent);
          await client.whenExited();
          await assertNoProcessNames(pidFile, `the language server ended by ${ending.name}`);
        } finally {
          // Already ended when the test passed; ended here when it failed before the ending.
          await client.stop();
        }
      } finally {
        parent.kill("SIGKILL");
      }
    });
  }
});
