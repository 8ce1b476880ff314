// A debug run calls a tool of an MCP server that starts a grandchild and a setsid escapee: 3 s
// after the debug adapter ends (the run finishing, disconnect, terminate, its input closed, or a
// signal, SIGKILL included), none of them runs. The default tier runs success, disconnect and
// SIGKILL; RLM_PLAN_SIGNAL_MATRIX=1 runs every ending.

import { spawn, type ChildProcessWithoutNullStreams } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { after, describe, test } from "node:test";
import { DebugClient } from "@vscode/debugadapter-testsupport";
import { delay } from "../support/leftovers";
import { assertNoProcessNames, ENDINGS, endingsToRun, mcpEscapeeWorkspace, waitForPids } from "../support/mcpLeftovers";

// Compiled to test/out/debug: the repository root is three levels up.
const ROOT = resolve(__dirname, "..", "..", "..");
const ADAPTER = join(ROOT, "debug-adapter", "bin", "rlm-plan-debug-adapter.js");

const dir = mkdtempSync(join(tmpdir(), "rlm-dap-mcp-signals-"));
after(() => rmSync(dir, { recursive: true, force: true }));

interface AdapterEnding {
  readonly name: string;
  /** Whether the MCP server answers the call (else the call is still running at the end). */
  readonly answers: boolean;
  end(client: DebugClient, adapter: ChildProcessWithoutNullStreams, terminated: Promise<void>): Promise<unknown>;
}

const ADAPTER_ENDINGS: readonly AdapterEnding[] = [
  {
    name: "success",
    answers: true,
    end: async (client, _adapter, terminated) => {
      await terminated;
      await client.disconnectRequest({});
    },
  },
  { name: "disconnect", answers: false, end: (client) => client.disconnectRequest({ terminateDebuggee: true }) },
  {
    name: "terminate",
    answers: false,
    end: async (client) => {
      await client.terminateRequest({});
      await client.disconnectRequest({});
    },
  },
  { name: "its input closed", answers: false, end: async (_client, adapter) => adapter.stdin.end() },
  ...ENDINGS.filter((ending) => ending.signals.length > 0).map((ending) => ({
    name: ending.name,
    answers: false,
    end: async (_client: DebugClient, adapter: ChildProcessWithoutNullStreams) => {
      for (const signal of ending.signals) adapter.kill(signal);
    },
  })),
];

const REPRESENTATIVE = ["success", "disconnect", "SIGKILL"];

/** The test support's client over an adapter process we started ourselves. */
class AttachedClient extends DebugClient {
  attach(adapter: ChildProcessWithoutNullStreams): void {
    this.connect(adapter.stdout, adapter.stdin);
  }
}

/** The adapter as a child of ours (so signals reach it), driven by the test support's client. */
async function launch(program: string, cwd: string) {
  const adapter = spawn(process.execPath, [ADAPTER], { cwd, stdio: ["pipe", "pipe", "pipe"] });
  let stderr = "";
  adapter.stderr.on("data", (chunk: Buffer) => (stderr += chunk.toString()));
  const exited = new Promise<void>((done) => adapter.once("exit", () => done()));
  const client = new AttachedClient(process.execPath, ADAPTER, "rlm-plan");
  client.defaultTimeout = 60_000;
  client.attach(adapter);
  const terminated = new Promise<void>((done) => client.once("terminated", () => done()));
  await Promise.all([
    client.waitForEvent("initialized").then(() => client.configurationDoneRequest()),
    client
      .initializeRequest({ adapterID: "rlm-plan", linesStartAt1: true, columnsStartAt1: true, pathFormat: "path" })
      .then(() => client.launchRequest({ program, stopOnEntry: false } as never)),
  ]);
  return { adapter, client, terminated, exited, stderr: () => stderr };
}

describe("the debug adapter: no MCP server process outlives it", { concurrency: true }, () => {
  for (const [index, ending] of endingsToRun(ADAPTER_ENDINGS, REPRESENTATIVE).entries()) {
    test(`ended by ${ending.name}`, async () => {
      const folder = join(dir, `ws-${index}`);
      const pidFile = join(dir, `pids-${index}.json`);
      const program = mcpEscapeeWorkspace(folder, pidFile, ending.answers ? "ok" : "hang-call");
      const { adapter, client, terminated, exited, stderr } = await launch(program, folder);
      try {
        await waitForPids(pidFile, stderr);
        await ending.end(client, adapter, terminated);
        // The adapter exits after disconnect, its input closed or a signal; terminate alone would not.
        await Promise.race([exited, delay(10_000)]);
        await assertNoProcessNames(pidFile, `the debug adapter ended by ${ending.name}`);
      } finally {
        adapter.kill("SIGKILL");
      }
    });
  }
});
