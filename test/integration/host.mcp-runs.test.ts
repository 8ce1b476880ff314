// MCP servers as tool sources in runs, against real processes: the npm reference server
// (@modelcontextprotocol/server-everything over stdio) and a scripted fault server. Plans call
// their tools, results become values, faults become tool_error, cancellation sends
// notifications/cancelled and kills the server's process group, and nothing is left running.

import assert from "node:assert/strict";
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { after, describe, test } from "node:test";
import { createRunHost, parseHostProfile, sandboxAvailability, type CreatedHost } from "@rlm-plan/core/host";
import { processState } from "@rlm-plan/core/host/processGroup";
import { runPlan } from "@rlm-plan/core/run/startRun";
import { type JsonValue, type RunOutcome } from "@rlm-plan/core";

const ROOT = resolve(__dirname, "..", "..", "..");
const EVERYTHING = join(ROOT, "node_modules", "@modelcontextprotocol", "server-everything", "dist", "index.js");
const FAULT = join(ROOT, "test", "fixtures", "mcp", "fault-server.js");
const SUPERVISOR = join(ROOT, "shared-runtime", "out", "host", "supervisor.js");
const probed = sandboxAvailability();
const BWRAP = probed.available ? probed.bwrap : "\0";
const NODE = process.execPath;

const dir = mkdtempSync(join(tmpdir(), "rlm-plan-mcp-runs-"));
after(() => rmSync(dir, { recursive: true, force: true }));

let count = 0;
/**
 * A host for `servers`. In the sandbox where it can be made, by default; "off" for the tests that
 * follow a server by the pid it writes (in the sandbox that is its own namespace's).
 */
async function hostWith(
  servers: Record<string, unknown>,
  capabilities: string[],
  sandbox?: "off",
): Promise<CreatedHost> {
  const file = join(dir, `p${++count}.json`);
  const text = JSON.stringify({ capabilities, mcpServers: servers, ...(sandbox ? { sandbox } : {}) });
  const parsed = parseHostProfile(text, file);
  assert.ok(parsed.ok, JSON.stringify(!parsed.ok && parsed.errors));
  return createRunHost(parsed.profile);
}

const toolStep = (name: string, args: JsonValue, bind = "r") => ({ op: "tool", name, args, bind });
/** A value as plain JSON (runs build prototype-free objects). */
const plain = (value: JsonValue): unknown => JSON.parse(JSON.stringify(value));
const final = (name = "r") => ({ op: "final", value: { ref: "var", name } });

async function run(created: CreatedHost, steps: unknown[], signal?: AbortSignal): Promise<RunOutcome> {
  return runPlan(
    { kind: "value", value: { steps } as JsonValue },
    created.policy,
    created.host,
    signal ? { signal } : {},
  );
}

function faultServer(env: Record<string, string> = {}, extra: Record<string, unknown> = {}) {
  // It logs what it hears into the test's folder: a path it declares it writes.
  return { command: NODE, args: [FAULT], env, writes: ["."], ...extra };
}

async function waitFor(file: string): Promise<string> {
  const deadline = Date.now() + 10_000;
  while (!existsSync(file) || readFileSync(file, "utf8") === "") {
    if (Date.now() > deadline) assert.fail(`${file} never appeared`);
    await new Promise((r) => setTimeout(r, 20));
  }
  return readFileSync(file, "utf8");
}

/** The notifications the fault server logged, once `count` of `method` have arrived. */
async function notifications(file: string, method: string, count = 1): Promise<{ method: string; params?: unknown }[]> {
  const deadline = Date.now() + 10_000;
  for (;;) {
    const lines = existsSync(file)
      ? readFileSync(file, "utf8")
          .split("\n")
          .filter((l) => l !== "")
      : [];
    const parsed = lines.map((l) => JSON.parse(l) as { method: string; params?: unknown });
    if (parsed.filter((n) => n.method === method).length >= count || Date.now() > deadline) return parsed;
    await new Promise((r) => setTimeout(r, 20));
  }
}

/** Processes (not zombies) whose command line names `path`: servers of this checkout only. */
function processesRunning(path: string): number[] {
  return readdirSync("/proc")
    .filter((entry) => /^\d+$/.test(entry))
    .filter((pid) => {
      try {
        return readFileSync(`/proc/${pid}/cmdline`, "utf8").includes(path) && processState(Number(pid)) === "running";
      } catch {
        return false;
      }
    })
    .map(Number);
}

function assertGone(pid: number, what: string): void {
  assert.notEqual(processState(pid), "running", `${what} (pid ${pid}) is still running`);
}

describe("MCP tools in runs: the reference server over stdio", () => {
  test("echo and get-sum run as everything.echo and everything.get-sum; closing the host leaves no server process", async () => {
    const created = await hostWith(
      { everything: { command: NODE, args: [EVERYTHING, "stdio"], startupTimeoutMs: 30_000 } },
      ["tool(everything.echo)", "tool('everything.get-sum')"],
    );
    try {
      const outcome = await run(created, [
        toolStep("everything.echo", { message: "hi" }, "e"),
        toolStep("everything.get-sum", { a: 2, b: 40 }, "s"),
        {
          op: "final",
          value: [
            { ref: "var", name: "e" },
            { ref: "var", name: "s" },
          ],
        },
      ]);
      assert.deepEqual(outcome.ok && outcome.value, ["Echo: hi", "The sum of 2 and 40 is 42."]);
      // One server for both calls (every process that names the server is listed). In the sandbox,
      // bubblewrap (and its init in the server's PID namespace) and no supervisor stand before it;
      // without, the supervisor (host/supervisor.ts).
      const running = processesRunning(EVERYTHING).map((pid) => readFileSync(`/proc/${pid}/cmdline`, "utf8"));
      const kind = (command: string) =>
        command.includes(SUPERVISOR) ? "supervisor" : command.startsWith(BWRAP) ? "sandbox" : "server";
      const expected = sandboxAvailability().available ? ["sandbox", "sandbox", "server"] : ["server", "supervisor"];
      assert.deepEqual(running.map(kind).sort(), expected);
    } finally {
      await created.close();
    }
    assert.deepEqual(processesRunning(EVERYTHING), []);
  });

  test("a tool the server validates itself reports its error as tool_error; the capability is still needed", async () => {
    const created = await hostWith(
      { everything: { command: NODE, args: [EVERYTHING, "stdio"], startupTimeoutMs: 30_000 } },
      ["tool(everything.echo)"],
    );
    try {
      const denied = await run(created, [toolStep("everything.get-sum", { a: 1, b: 2 }), final()]);
      assert.equal(!denied.ok && denied.error.kind, "capability_denied");
      const outcome = await run(created, [toolStep("everything.echo", { message: 5 }), final()]);
      assert.equal(!outcome.ok && outcome.error.kind, "tool_error");
      assert.match(!outcome.ok ? outcome.error.message : "", /^tool "everything\.echo" failed: /);
    } finally {
      await created.close();
    }
  });

  test("structuredContent is the value when the tool returns it", async () => {
    const created = await hostWith(
      { everything: { command: NODE, args: [EVERYTHING, "stdio"], startupTimeoutMs: 30_000 } },
      ["tool(everything.get-structured-content)"],
    );
    try {
      const outcome = await run(created, [
        toolStep("everything.get-structured-content", { location: "Chicago" }),
        final(),
      ]);
      assert.deepEqual(outcome.ok && plain(outcome.value), {
        temperature: 36,
        conditions: "Light rain / drizzle",
        humidity: 82,
      });
    } finally {
      await created.close();
    }
  });
});

describe("MCP tools in runs: faults, from a scripted server", () => {
  const caps = [
    "ok",
    "structured",
    "fails",
    "crash",
    "hang",
    "garbage",
    "sample",
    "elicit",
    "add-tool",
    "late",
    "nope",
    "spawn-helper",
  ].map((t) => `tool(fault.${t})`);

  test("results: a text, structured content, an error result, an unknown tool, non-object arguments", async () => {
    const created = await hostWith({ fault: faultServer() }, caps);
    try {
      const ok = await run(created, [toolStep("fault.ok", { text: "there" }), final()]);
      assert.deepEqual(ok.ok && ok.value, "ok there");
      const structured = await run(created, [toolStep("fault.structured", { n: 21 }), final()]);
      assert.deepEqual(structured.ok && plain(structured.value), { doubled: 42 });
      const failed = await run(created, [toolStep("fault.fails", {}), final()]);
      assert.equal(
        !failed.ok && failed.error.message,
        'tool "fault.fails" failed: the tool reported an error: the disk is full',
      );
      const unknown = await run(created, [toolStep("fault.nope", {}), final()]);
      assert.match(
        !unknown.ok ? unknown.error.message : "",
        /^tool "fault\.nope" failed: MCP server "fault" has no tool "nope" \(it lists "ok", "structured", /,
      );
      const list = await run(created, [toolStep("fault.ok", [1, 2]), final()]);
      assert.equal(
        !list.ok && list.error.message,
        'tool "fault.ok" failed: the arguments of an MCP tool must be an object',
      );
    } finally {
      await created.close();
    }
  });

  test("a server that crashes mid-call fails the call with its exit status and last stderr line", async () => {
    const created = await hostWith({ fault: faultServer() }, caps);
    try {
      const outcome = await run(created, [toolStep("fault.crash", {}), final()]);
      assert.equal(
        !outcome.ok && outcome.error.message,
        'tool "fault.crash" failed: the server exited with status 3: fault server: crashing on purpose',
      );
    } finally {
      await created.close();
    }
  });

  test("garbage on stdout ends the connection with a clear reason instead of a hang", async () => {
    const pids = join(dir, "garbage.pid");
    const created = await hostWith({ fault: faultServer({ FAULT_PIDS: pids }) }, caps, "off");
    try {
      const outcome = await run(created, [toolStep("fault.garbage", {}), final()]);
      assert.equal(
        !outcome.ok && outcome.error.message,
        'tool "fault.garbage" failed: the server wrote something that is not a JSON-RPC message on stdout',
      );
    } finally {
      await created.close();
    }
    assertGone(Number(await waitFor(pids)), "the fault server");
  });

  test("a hanging call times out after timeoutMs and the server hears notifications/cancelled", async () => {
    const log = join(dir, "hang-timeout.log");
    const created = await hostWith({ fault: faultServer({ FAULT_LOG: log }, { timeoutMs: 300 }) }, caps);
    try {
      const outcome = await run(created, [toolStep("fault.hang", {}), final()]);
      assert.equal(!outcome.ok && outcome.error.message, 'tool "fault.hang" failed: timed out after 300 ms');
      const cancelled = (await notifications(log, "notifications/cancelled")).filter(
        (n) => n.method === "notifications/cancelled",
      );
      assert.equal(cancelled.length, 1, JSON.stringify(cancelled));
    } finally {
      await created.close();
    }
  });

  test("cancelling the run cancels the call, and closing the host kills the server and what it started", async () => {
    const log = join(dir, "cancel.log");
    const pids = join(dir, "cancel.pid");
    const created = await hostWith({ fault: faultServer({ FAULT_LOG: log, FAULT_PIDS: pids }) }, caps, "off");
    const controller = new AbortController();
    let helper = 0;
    try {
      const spawned = await run(created, [toolStep("fault.spawn-helper", {}), final()]);
      helper = Number(spawned.ok && spawned.value);
      assert.equal(processState(helper), "running");
      const running = run(created, [toolStep("fault.hang", {}), final()], controller.signal);
      await new Promise((r) => setTimeout(r, 200));
      controller.abort();
      const outcome = await running;
      assert.equal(!outcome.ok && outcome.error.kind, "cancelled");
      const cancelled = (await notifications(log, "notifications/cancelled")).filter(
        (n) => n.method === "notifications/cancelled",
      );
      assert.equal(cancelled.length, 1, JSON.stringify(cancelled));
    } finally {
      await created.close();
    }
    assertGone(Number(await waitFor(pids)), "the fault server");
    assertGone(helper, "the helper the server started");
  });

  test("sampling and elicitation requests from the server are refused with method not found", async () => {
    const created = await hostWith({ fault: faultServer() }, caps);
    try {
      for (const tool of ["fault.sample", "fault.elicit"]) {
        const outcome = await run(created, [toolStep(tool, {}), final()]);
        const reply = JSON.parse(outcome.ok ? String(outcome.value) : "{}") as { code?: number };
        assert.equal(reply.code, -32601, tool);
      }
    } finally {
      await created.close();
    }
  });

  test("the tool list is cached and listed again after tools/list_changed", async () => {
    const created = await hostWith({ fault: faultServer() }, caps);
    try {
      const before = await run(created, [toolStep("fault.late", {}), final()]);
      assert.match(!before.ok ? before.error.message : "", /has no tool "late"/);
      const added = await run(created, [toolStep("fault.add-tool", {}), final()]);
      assert.equal(added.ok && added.value, "added");
      // The notification arrives just after the call's answer.
      await new Promise((r) => setTimeout(r, 100));
      const after = await run(created, [toolStep("fault.late", {}), final()]);
      assert.equal(after.ok && after.value, "late tool answered");
    } finally {
      await created.close();
    }
  });

  test("a server that never answers initialize fails after startupTimeoutMs and is killed", async () => {
    const pids = join(dir, "silent.pid");
    // Long enough for the supervisor and the server to start on a loaded machine (the server
    // writes its pid first thing), short enough for a test.
    const created = await hostWith(
      { fault: faultServer({ FAULT_SILENT: "1", FAULT_PIDS: pids }, { startupTimeoutMs: 3000 }) },
      caps,
      "off",
    );
    try {
      const outcome = await run(created, [toolStep("fault.ok", {}), final()]);
      assert.equal(
        !outcome.ok && outcome.error.message,
        'tool "fault.ok" failed: MCP server "fault" could not be started: did not answer initialize within 3000 ms (raise startupTimeoutMs if it starts slowly)',
      );
      assertGone(Number(await waitFor(pids)), "the silent server");
    } finally {
      await created.close();
    }
  });

  test("a server that cannot start fails the call with the reason; a mapped name reaches the mapped tool", async () => {
    const missing = await hostWith({ gone: { command: join(dir, "no-such-server") } }, ["tool(gone.x)"]);
    try {
      const outcome = await run(missing, [toolStep("gone.x", {}), final()]);
      assert.equal(
        !outcome.ok && outcome.error.message,
        `tool "gone.x" failed: MCP server "gone" could not be started: command ${JSON.stringify(join(dir, "no-such-server"))} was not found`,
      );
    } finally {
      await missing.close();
    }
    const mapped = await hostWith({ fault: faultServer({}, { tools: { say_ok: "ok" } }) }, [
      "tool(say_ok)",
      "tool(fault.ok)",
    ]);
    try {
      const outcome = await run(mapped, [toolStep("say_ok", {}), final()]);
      assert.equal(outcome.ok && outcome.value, "ok");
      const hidden = await run(mapped, [toolStep("fault.ok", {}), final()]);
      assert.equal(!hidden.ok && hidden.error.kind, "unknown_tool");
    } finally {
      await mapped.close();
    }
  });
});
