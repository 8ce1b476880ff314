// Command tools as real processes: results, every kind of failure, the explicit environment,
// and that timeouts and cancellation leave no process of the tool's tree running.

import assert from "node:assert/strict";
import { existsSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { after, describe, test } from "node:test";
import { createCommandTool, ProcessTracker, type CommandToolSpec } from "@rlm-plan/core/host";
import { processState } from "@rlm-plan/core/host/processGroup";
import type { JsonValue } from "@rlm-plan/core";
import type { ToolContext } from "@rlm-plan/core/run/host";

// Compiled to test/out/unit: the repository root is three levels up.
const ROOT = resolve(__dirname, "..", "..", "..");
const TOOLS = join(ROOT, "test", "fixtures", "tools");
const NODE = process.execPath;

const dir = mkdtempSync(join(tmpdir(), "rlm-plan-tools-command-"));
after(() => rmSync(dir, { recursive: true, force: true }));

function spec(script: string, extra: Partial<CommandToolSpec> = {}): CommandToolSpec {
  return { type: "command", command: [NODE, join(TOOLS, script)], ...extra };
}

function context(signal: AbortSignal = new AbortController().signal): ToolContext {
  return { signal, tool: "t" };
}

/**
 * The tools' profile: in the sandbox where it can be made, by default; "off" for the tests that
 * follow a tool's process tree by the pids it writes (in the sandbox those are its own namespace's).
 */
function sandboxHost(sandbox?: "off") {
  return { file: join(dir, "rlmplan.host.json"), dir, ...(sandbox ? { sandbox } : {}) };
}

async function call(
  toolSpec: CommandToolSpec,
  args: JsonValue,
  options: { signal?: AbortSignal; hostEnv?: NodeJS.ProcessEnv; sandbox?: "off" } = {},
) {
  const tool = createCommandTool(toolSpec, sandboxHost(options.sandbox), { hostEnv: options.hostEnv ?? process.env });
  return tool(args, context(options.signal));
}

async function failure(promise: Promise<unknown> | unknown): Promise<string> {
  try {
    await promise;
  } catch (error) {
    return (error as Error).message;
  }
  assert.fail("expected the call to fail");
}

/** Waits for the pid file a tree.js tool writes once its grandchild runs. */
async function pidsOf(file: string): Promise<{ child: number; grandchild: number }> {
  const deadline = Date.now() + 5000;
  while (!existsSync(file)) {
    if (Date.now() > deadline) assert.fail("the tool never wrote its pid file");
    await new Promise((r) => setTimeout(r, 10));
  }
  return JSON.parse(readFileSync(file, "utf8")) as { child: number; grandchild: number };
}

/**
 * Dead means no longer running. A killed process whose parent already exited can stay a zombie
 * (dead, exit status not yet collected by init) for a moment; that is not an orphan.
 */
function assertNotRunning(pid: number, what: string): void {
  assert.notEqual(processState(pid), "running", `${what} (pid ${pid}) is still running`);
}

/** For kills the call does not wait for: the signal is sent, the exit follows shortly. */
async function assertGoneSoon(pid: number, what: string, withinMs = 3000): Promise<void> {
  const deadline = Date.now() + withinMs;
  while (processState(pid) === "running" && Date.now() < deadline) await new Promise((r) => setTimeout(r, 25));
  assertNotRunning(pid, what);
}

describe("command tools: results", () => {
  test("arguments go in as JSON on stdin, the JSON on stdout comes back", async () => {
    const args = { text: "héllo 🌍", list: [1, 2.5, null, true], nested: { a: "b" } };
    assert.deepEqual(await call(spec("echo.js"), args), { args, cwd: dir });
  });

  test("cwd is relative to the profile's folder", async () => {
    const result = (await call(spec("echo.js", { cwd: ".." }), 1)) as { cwd: string };
    assert.equal(result.cwd, resolve(dir, ".."));
  });

  test("a tool that ignores stdin still works", async () => {
    assert.deepEqual(
      await call({ type: "command", command: [NODE, "-e", "process.stdout.write('[1,2]')"] }, "x".repeat(300_000)),
      [1, 2],
    );
  });
});

describe("command tools: failures", () => {
  test("non-zero exit: the status and the last stderr line", async () => {
    assert.equal(await failure(call(spec("fail.js"), {})), "exited with status 3: something broke");
  });

  test("non-zero exit without stderr", async () => {
    assert.equal(
      await failure(call({ type: "command", command: [NODE, "-e", "process.exit(4)"] }, {})),
      "exited with status 4",
    );
  });

  test("killed by a signal", async () => {
    assert.equal(
      await failure(call({ type: "command", command: [NODE, "-e", "process.kill(process.pid, 'SIGKILL')"] }, {})),
      "was killed by signal SIGKILL",
    );
  });

  test("stdout that is not JSON", async () => {
    assert.match(
      await failure(call(spec("not-json.js"), {})),
      /^printed something that is not JSON on stdout \(invalid JSON: .*\): a command tool must print one JSON value$/,
    );
  });

  test("nothing on stdout", async () => {
    assert.equal(
      await failure(call({ type: "command", command: [NODE, "-e", ""] }, {})),
      "printed nothing on stdout: a command tool must print one JSON value",
    );
  });

  test("stdout over the cap kills the tool", async () => {
    assert.equal(
      await failure(call(spec("flood.js", { maxStdoutBytes: 1024 }), {})),
      "wrote more than 1024 bytes to stdout: raise maxStdoutBytes or make the tool print less",
    );
  });

  test("a program that is not on PATH", async () => {
    assert.equal(
      await failure(call({ type: "command", command: ["rlm-plan-no-such-program"] }, {})),
      'command "rlm-plan-no-such-program" was not found on PATH',
    );
  });

  test("a program path that does not exist", async () => {
    assert.equal(
      await failure(call({ type: "command", command: ["./no-such-tool"] }, {})),
      'command "./no-such-tool" was not found',
    );
  });

  test("a working folder that does not exist", async () => {
    const message = await failure(call(spec("echo.js", { cwd: "no-such-folder" }), {}));
    assert.equal(message, `its working folder ${JSON.stringify(join(dir, "no-such-folder"))} does not exist`);
  });

  test("stderr is capped to its tail", async () => {
    const code = "process.stderr.write('a'.repeat(100000) + '\\nthe end\\n'); process.exit(1)";
    assert.equal(
      await failure(call({ type: "command", command: [NODE, "-e", code], maxStderrBytes: 16 }, {})),
      "exited with status 1: the end",
    );
  });
});

describe("command tools: the environment is explicit", () => {
  test("only env and the inherited names reach the tool", async () => {
    const hostEnv = { PATH: "/usr/bin:/bin", HOME: "/root", API_KEY: "s3cret", LANG: "C" };
    const result = await call(
      spec("env.js", { env: { MODE: "x" }, inheritEnv: ["PATH", "LANG", "NOT_SET"] }),
      {},
      { hostEnv },
    );
    assert.deepEqual(result, { PATH: "/usr/bin:/bin", LANG: "C", MODE: "x" });
  });

  test("with no env at all, the tool's environment is empty", async () => {
    assert.deepEqual(await call(spec("env.js"), {}, { hostEnv: { SECRET: "x", PATH: process.env.PATH } }), {});
  });

  test("a bare program name is found on the host's PATH even when the tool gets no PATH", async () => {
    const nodeDir = resolve(NODE, "..");
    const result = await call(
      { type: "command", command: ["node", join(TOOLS, "env.js")] },
      {},
      { hostEnv: { PATH: nodeDir } },
    );
    assert.deepEqual(result, {});
  });
});

describe("command tools: no process outlives a call", () => {
  test("timeout kills the tool and its grandchild", async () => {
    const pidFile = join(dir, "timeout.json");
    const started = Date.now();
    // Long enough for tree.js to start and write its pid file on a loaded machine (at 800 ms,
    // with the process tiers two files at a time on two busy cores, it was killed before that).
    const message = await failure(call(spec("tree.js", { timeoutMs: 3000 }), { pidFile }, { sandbox: "off" }));
    const elapsed = Date.now() - started;
    assert.equal(message, "timed out after 3000 ms");
    assert.ok(elapsed < 3000 + 1000, `the call took ${elapsed} ms`);
    const pids = await pidsOf(pidFile);
    assertNotRunning(pids.child, "the tool");
    assertNotRunning(pids.grandchild, "its grandchild");
  });

  test("cancellation kills the tree within a second", async () => {
    const pidFile = join(dir, "cancel.json");
    const controller = new AbortController();
    const pending = call(
      spec("tree.js", { timeoutMs: 20_000 }),
      { pidFile },
      { signal: controller.signal, sandbox: "off" },
    );
    const pids = await pidsOf(pidFile);
    assert.equal(processState(pids.grandchild), "running");
    const cancelled = Date.now();
    controller.abort();
    assert.equal(await failure(pending), "was cancelled");
    assert.ok(Date.now() - cancelled < 1000, `cancellation took ${Date.now() - cancelled} ms`);
    assertNotRunning(pids.child, "the tool");
    assertNotRunning(pids.grandchild, "its grandchild");
  });

  test("a tree that ignores SIGTERM gets SIGKILL, still within a second", async () => {
    const pidFile = join(dir, "stubborn.json");
    const controller = new AbortController();
    const pending = call(
      spec("tree.js", { timeoutMs: 20_000 }),
      { pidFile, stubborn: true },
      { signal: controller.signal, sandbox: "off" },
    );
    const pids = await pidsOf(pidFile);
    const cancelled = Date.now();
    controller.abort();
    assert.equal(await failure(pending), "was cancelled");
    const took = Date.now() - cancelled;
    assert.ok(took >= 400 && took < 1000, `cancellation took ${took} ms`);
    assertNotRunning(pids.child, "the tool");
    assertNotRunning(pids.grandchild, "its grandchild");
  });

  test("a helper left behind by a tool that exited is killed, and the call does not wait for it", async () => {
    const started = Date.now();
    const result = (await call(spec("helper-left-behind.js"), {}, { sandbox: "off" })) as { helper: number };
    assert.ok(Date.now() - started < 5000);
    await assertGoneSoon(result.helper, "the helper");
  });

  test("an already-cancelled call starts nothing", async () => {
    const controller = new AbortController();
    controller.abort();
    assert.equal(
      await failure(call(spec("echo.js"), {}, { signal: controller.signal })),
      "was cancelled before it started",
    );
  });

  test("closing the tracker kills what is still running", async () => {
    const tracker = new ProcessTracker();
    const pidFile = join(dir, "tracker.json");
    const tool = createCommandTool(spec("tree.js", { timeoutMs: 20_000 }), sandboxHost("off"), { tracker });
    const controller = new AbortController();
    const pending = Promise.resolve(tool({ pidFile }, context(controller.signal))).catch((e: Error) => e.message);
    const pids = await pidsOf(pidFile);
    await tracker.closeAll();
    assertNotRunning(pids.child, "the tool");
    assertNotRunning(pids.grandchild, "its grandchild");
    controller.abort();
    assert.equal(typeof (await pending), "string");
  });
});
