// Every launch of the language server carries the server's Node flags (ServerNodeFlags, V8's
// young generation: bench/README.md, issue 22 target 4, fourth pass): the VS Code client's launch
// (client/src/serverLaunch.ts, forked here the way VS Code forks it) and the
// `rlm-plan-language-server` command's, which starts the server again with them when it was not
// given them, and does not when it was. Real processes; their command lines read from /proc.

import { strict as assert } from "node:assert";
import { fork, spawn, type ChildProcess } from "node:child_process";
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { test } from "node:test";
import { SERVER_MAIN } from "@rlm-plan/lsp-harness";
import { ServerNodeFlags } from "@rlm-plan/language-server/protocol";
import { serverLaunch } from "rlm-plan-client/serverLaunch";

const COMMAND = join(__dirname, "..", "..", "..", "server", "bin", "rlm-plan-language-server.js");
const FLAG = "--max-semi-space-size=32";

/** A process's command line, as the kernel has it; undefined once it is gone. */
function commandLine(pid: number): string[] | undefined {
  try {
    return readFileSync(`/proc/${pid}/cmdline`, "utf8").split("\0").slice(0, -1);
  } catch {
    return undefined;
  }
}

/** The processes whose parent is `pid`. */
function childrenOf(pid: number): number[] {
  const found: number[] = [];
  for (const name of readdirSync("/proc")) {
    if (!/^\d+$/.test(name)) continue;
    try {
      // The fields after the command's ")" are: state, then the parent's pid.
      const stat = readFileSync(`/proc/${name}/stat`, "utf8");
      if (Number(stat.slice(stat.lastIndexOf(")") + 2).split(" ")[1]) === pid) found.push(Number(name));
    } catch {
      // Gone between the listing and the read.
    }
  }
  return found;
}

async function until<T>(what: string, probe: () => T | undefined, ms = 20_000): Promise<T> {
  const deadline = Date.now() + ms;
  for (;;) {
    const value = probe();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((done) => setTimeout(done, 25));
  }
}

function exited(child: ChildProcess): Promise<number | null> {
  return child.exitCode !== null ? Promise.resolve(child.exitCode) : new Promise((done) => child.once("exit", done));
}

/** Sends `initialize` over the command's stdio and waits for its answer. */
async function initialize(child: ChildProcess): Promise<string> {
  const body = JSON.stringify({
    jsonrpc: "2.0",
    id: 1,
    method: "initialize",
    params: { processId: process.pid, rootUri: null, capabilities: {} },
  });
  child.stdin?.write(`Content-Length: ${Buffer.byteLength(body)}\r\n\r\n${body}`);
  let received = "";
  child.stdout?.on("data", (chunk: Buffer) => (received += chunk.toString("utf8")));
  return until("the answer to initialize", () => (received.includes('"capabilities"') ? received : undefined));
}

test("the flags are the young generation's size, and a Node command line that sets it is recognized", () => {
  assert.deepEqual(ServerNodeFlags.flags, [FLAG]);
  assert.equal(ServerNodeFlags.given(["--max-semi-space-size=64"]), true);
  assert.equal(ServerNodeFlags.given(["--max_semi_space_size=8"]), true);
  assert.equal(ServerNodeFlags.given(["--max-old-space-size=4096", "--inspect"]), false);
  assert.equal(ServerNodeFlags.given([], "--max-old-space-size=4096  --max-semi-space-size=32"), true);
  assert.equal(ServerNodeFlags.given([], "--max-old-space-size=4096"), false);
});

test("VS Code's launches (run and debug) fork the server with the flags", async () => {
  const launch = serverLaunch("/ext/dist/server.js", "/ext/dist/serverStart.js", "/storage/code-cache", { KEPT: "1" });
  assert.deepEqual(launch.run, {
    module: "/ext/dist/serverStart.js",
    execArgv: [FLAG],
    env: { KEPT: "1", RLM_PLAN_CODE_CACHE: "/storage/code-cache" },
  });
  assert.deepEqual(launch.debug, {
    module: "/ext/dist/server.js",
    execArgv: [FLAG, "--enable-source-maps", "--nolazy", "--inspect=6011"],
  });
  // Forked as vscode-languageclient forks a module over IPC: the built server, the run options.
  const server = fork(SERVER_MAIN, ["--node-ipc"], { execArgv: [...launch.run.execArgv], stdio: "pipe" });
  try {
    const pid = server.pid as number;
    assert.deepEqual(await until("the server's command line", () => commandLine(pid)), [
      process.execPath,
      FLAG,
      SERVER_MAIN,
      "--node-ipc",
    ]);
  } finally {
    server.kill("SIGTERM");
    await exited(server);
  }
});

test("the command started without the flags starts the server again with them, and ends with it", async () => {
  const command = spawn(process.execPath, [COMMAND, "--stdio"], { stdio: "pipe" });
  const launcher = command.pid as number;
  try {
    const [server] = await until("the server under the command", () => {
      const children = childrenOf(launcher);
      return children.length > 0 ? children : undefined;
    });
    assert.deepEqual(commandLine(server as number), [process.execPath, FLAG, SERVER_MAIN, "--stdio"]);
    // The server answers on the command's own standard streams.
    assert.match(await initialize(command), /"id":1,.*"result":\{"capabilities"/s);
    // The editor closes the server's input: the server ends, then the command, with its status.
    command.stdin.end();
    assert.equal(await exited(command), 0);
    await until("the server's exit", () => (commandLine(server as number) === undefined ? true : undefined));
  } finally {
    command.kill("SIGKILL");
  }
});

for (const [how, args, env] of [
  ["on its command line", [FLAG, COMMAND, "--stdio"], {}],
  ["in NODE_OPTIONS", [COMMAND, "--stdio"], { NODE_OPTIONS: FLAG }],
] as const) {
  test(`the command started with the flags ${how} serves in its own process`, async () => {
    const command = spawn(process.execPath, args, { stdio: "pipe", env: { ...process.env, ...env } });
    try {
      assert.match(await initialize(command), /"id":1,.*"result":\{"capabilities"/s);
      assert.deepEqual(childrenOf(command.pid as number), []);
      command.stdin.end();
      assert.equal(await exited(command), 0);
    } finally {
      command.kill("SIGKILL");
    }
  });
}
