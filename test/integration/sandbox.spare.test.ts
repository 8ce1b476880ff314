// The spare sandbox of a command tool (host/sandbox/spareSandbox.ts), seen from outside as
// processes and cgroup folders: after a call, one bubblewrap waits, held before its tool starts;
// the next call of the same launch runs in it and sees the workspace as it is then; a launch that
// changed, a spare that died, or a `writes` folder replaced since gets a fresh sandbox instead;
// cancelling and closing leave nothing behind.

import assert from "node:assert/strict";
import {
  chmodSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  renameSync,
  rmSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { after, test } from "node:test";
import { createCommandTool, ProcessTracker, sandboxAvailability, type CommandToolSpec } from "@rlm-plan/core/host";
import { processState } from "@rlm-plan/core/host/processGroup";
import { cgroupV1Parent } from "@rlm-plan/core/host/sandbox/resourceLimits";
import { cgroupRoot } from "@rlm-plan/core/host/toolCgroup";
import { holdBubblewrap } from "@rlm-plan/core/host/sandbox/bubblewrapLaunch";
import { SpareSandbox } from "@rlm-plan/core/host/sandbox/spareSandbox";
import { spawn } from "node:child_process";

const available = sandboxAvailability();
// CI installs bubblewrap (scripts/install-e2e.sh): there these tests may not skip.
const skip = available.available ? false : process.env.CI === "true" ? false : `no sandbox here: ${available.reason}`;
// Compiled to test/out/integration: the repository root is three levels up.
const ECHO = join(resolve(__dirname, "..", "..", ".."), "test", "fixtures", "tools", "echo.js");

const dir = mkdtempSync(join(tmpdir(), "rlm-plan-spare-"));
after(() => rmSync(dir, { recursive: true, force: true }));

function tool(spec: Omit<CommandToolSpec, "type">, tracker: ProcessTracker) {
  const handler = createCommandTool(
    { type: "command", ...spec },
    { file: join(dir, "rlmplan.host.json"), dir, sandbox: "required" },
    { tracker },
  );
  return (signal: AbortSignal = new AbortController().signal) =>
    Promise.resolve(handler({ text: "hi" }, { signal, tool: "t" }));
}

/** The command of a process, from /proc (undefined once it is gone or a zombie). */
function commandOf(pid: number): string | undefined {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
    const state = stat.slice(stat.lastIndexOf(")") + 2).split(" ")[0];
    return state === "Z" ? undefined : stat.slice(stat.indexOf("(") + 1, stat.lastIndexOf(")"));
  } catch {
    return undefined;
  }
}

function childrenOf(pid: number): number[] {
  try {
    return readFileSync(`/proc/${pid}/task/${pid}/children`, "utf8").split(" ").filter(Boolean).map(Number);
  } catch {
    return [];
  }
}

/** Every running process below `pid`, with its command. */
function descendants(pid: number): { pid: number; command: string }[] {
  const found: { pid: number; command: string }[] = [];
  for (const child of childrenOf(pid)) {
    const command = commandOf(child);
    if (command !== undefined) found.push({ pid: child, command }, ...descendants(child));
  }
  return found;
}

/** The bubblewrap processes this test started (directly), running. */
function bubblewraps(): number[] {
  return childrenOf(process.pid).filter((pid) => commandOf(pid) === "bwrap");
}

/** The cgroup folders (tool, pids, memory) this process made and has not removed. */
function folders(): string[] {
  return [cgroupRoot(), cgroupV1Parent("pids"), cgroupV1Parent("memory")]
    .filter((parent): parent is string => parent !== undefined && existsSync(parent))
    .flatMap((parent) => readdirSync(parent))
    .filter((name) => new RegExp(`^rlm-plan-(tool|pids|memory)-${process.pid}-`).test(name));
}

async function until<T>(what: string, probe: () => T | undefined): Promise<T> {
  const deadline = Date.now() + 10_000;
  for (;;) {
    const value = probe();
    if (value !== undefined) return value;
    if (Date.now() > deadline) assert.fail(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

/** The one spare bubblewrap once it is there (and no other bubblewrap runs). */
function spare(): Promise<number> {
  return until("the spare", () => {
    const running = bubblewraps();
    return running.length === 1 ? running[0] : undefined;
  });
}

async function assertNothingLeft(): Promise<void> {
  await until("the bubblewraps to end", () => (bubblewraps().length === 0 ? true : undefined));
  assert.deepEqual(folders(), []);
}

test(
  "a call leaves one spare, held before its tool starts, and closing its owner ends it and its cgroups",
  { skip },
  async () => {
    const tracker = new ProcessTracker();
    const call = tool({ command: [process.execPath, ECHO] }, tracker);
    assert.deepEqual(bubblewraps(), [], "no spare before the first call");
    assert.deepEqual(await call(), { args: { text: "hi" }, cwd: dir });
    const held = await spare();
    // bubblewrap and the child it cloned for the namespaces: the tool's program is not started.
    assert.deepEqual(
      descendants(held).map((process) => process.command),
      ["bwrap"],
    );
    await tracker.closeAll();
    assert.equal(processState(held), "gone");
    await assertNothingLeft();
  },
);

test("the next call of the same launch runs in the spare", { skip }, async () => {
  const tracker = new ProcessTracker();
  const call = tool({ command: ["/bin/sh", "-c", "cat >/dev/null; sleep 0.5; echo 1"] }, tracker);
  assert.equal(await call(), 1);
  const held = await spare();
  const second = call();
  await until("the tool to run in the spare", () =>
    descendants(held).some((process) => process.command === "sleep") ? true : undefined,
  );
  assert.equal(await second, 1);
  await tracker.closeAll();
  await assertNothingLeft();
});

test("a file written in the workspace after the spare started is what the call reads", { skip }, async () => {
  const tracker = new ProcessTracker();
  const note = join(dir, "note.json");
  writeFileSync(note, '"old"');
  const call = tool({ command: ["/bin/sh", "-c", "cat >/dev/null; cat note.json"] }, tracker);
  assert.equal(await call(), "old");
  await spare();
  writeFileSync(note, '"new"');
  assert.equal(await call(), "new");
  await tracker.closeAll();
  await assertNothingLeft();
});

test("a spare of another launch is not used: the call runs the program it resolves now", { skip }, async () => {
  const tracker = new ProcessTracker();
  const [first, second] = [join(dir, "path-1"), join(dir, "path-2")];
  const script = (folder: string, output: string) => {
    mkdirSync(folder, { recursive: true });
    writeFileSync(join(folder, "which"), `#!/bin/sh\ncat >/dev/null\necho '"${output}"'\n`);
    chmodSync(join(folder, "which"), 0o755);
  };
  script(second, "second");
  const call = tool({ command: ["which"], env: { PATH: `${first}:${second}` } }, tracker);
  assert.equal(await call(), "second");
  const held = await spare();
  script(first, "first");
  assert.equal(await call(), "first");
  assert.notEqual(processState(held), "running", "the other launch's spare is ended");
  assert.equal(await call(), "first");
  await tracker.closeAll();
  await assertNothingLeft();
});

test("a spare killed from outside is not used: the call starts its own sandbox and succeeds", { skip }, async () => {
  const tracker = new ProcessTracker();
  const call = tool({ command: [process.execPath, ECHO] }, tracker);
  await call();
  const held = await spare();
  process.kill(held, "SIGKILL");
  // Dead (a zombie), and the call comes before this process has heard of it (no turn of its
  // event loop in between): the call sees it dead, not the exit event.
  const deadline = Date.now() + 5000;
  while (processState(held) === "running" && Date.now() < deadline);
  assert.deepEqual(await call(), { args: { text: "hi" }, cwd: dir });
  await tracker.closeAll();
  await assertNothingLeft();
});

test("a call cancelled while a spare waits leaves only the spare, and closing leaves nothing", { skip }, async () => {
  const tracker = new ProcessTracker();
  const call = tool({ command: ["/bin/sh", "-c", "cat >/dev/null; sleep 30"] }, tracker);
  const controller = new AbortController();
  const running = call(controller.signal);
  // The call's bubblewrap and the spare its start prepared.
  await until("the call and its spare", () => (bubblewraps().length === 2 ? true : undefined));
  controller.abort();
  await assert.rejects(running, { message: "was cancelled" });
  await spare();
  await tracker.closeAll();
  await assertNothingLeft();
});

test("a writes folder made or replaced after the spare started is the one the call writes", { skip }, async () => {
  const tracker = new ProcessTracker();
  const out = join(dir, "out");
  const call = tool(
    { command: ["/bin/sh", "-c", "cat >/dev/null; echo $$ > out/mark; echo 1"], writes: ["out"] },
    tracker,
  );
  // Missing: the call fails (bubblewrap binds only what exists), and so does its spare.
  await assert.rejects(call(), /exited with status 1/);
  mkdirSync(out);
  assert.equal(await call(), 1);
  assert.ok(existsSync(join(out, "mark")));
  await spare();
  // Replaced while the spare holds a mount of the old folder: the call writes in the new one.
  rmSync(out, { recursive: true });
  mkdirSync(out);
  assert.equal(await call(), 1);
  assert.ok(existsSync(join(out, "mark")), "the tool wrote in the folder that is there now");
  await tracker.closeAll();
  await assertNothingLeft();
});

test("a program's folder replaced after the spare started is the one the call runs", { skip }, async () => {
  // Outside the workspace: bound on its own (its install folder), so only its own identity tells.
  const outside = mkdtempSync(join(tmpdir(), "rlm-plan-spare-program-"));
  const prefix = join(outside, "tool");
  const install = (output: string) => {
    mkdirSync(join(prefix, "bin"), { recursive: true });
    writeFileSync(join(prefix, "bin", "say"), `#!/bin/sh\ncat >/dev/null\necho '"${output}"'\n`);
    chmodSync(join(prefix, "bin", "say"), 0o755);
  };
  try {
    install("old");
    const tracker = new ProcessTracker();
    const call = tool({ command: [join(prefix, "bin", "say")] }, tracker);
    assert.equal(await call(), "old");
    await spare();
    // Replaced by rename, as a package manager or a build does: the spare's mount holds the old one.
    renameSync(prefix, join(outside, "tool.old"));
    install("new");
    assert.equal(await call(), "new");
    await tracker.closeAll();
    await assertNothingLeft();
  } finally {
    rmSync(outside, { recursive: true, force: true });
  }
});

test("a spare whose bubblewrap cannot start is not kept, and the runtime goes on", async () => {
  // spawn fails after it returns (ENOENT here; EAGAIN or EMFILE on a full machine), by an
  // 'error' event: unheard, it would end this process.
  const tracker = new ProcessTracker();
  const spares = new SpareSandbox(tracker);
  const limits = { pids: 0, memoryBytes: 0 };
  spares.prepare(undefined, () => ({
    key: "k",
    bubblewrap: holdBubblewrap(spawn, join(dir, "no-such-bwrap"), [], { cwd: dir, env: {}, limits }),
  }));
  for (let turn = 0; turn < 3; turn++) await new Promise((resolve) => setImmediate(resolve));
  assert.equal(spares.take("k"), undefined);
  await tracker.closeAll();
  assert.deepEqual(folders(), []);
});
