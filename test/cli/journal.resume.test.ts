// `rlm-plan run --resume`: a real run killed with SIGKILL after its third step, then resumed.
// The tools of steps 1-3 ran exactly once (a marker file counts them), the model server saw the
// completed request once, the step in flight ran again, the value and the budget left equal an
// uninterrupted run's; the journal entry goes on (segment 2, replayed steps marked). A changed
// plan and a finished run are refused with a clear message. A run killed while the journal's
// sync of its log is under way (held) has the step committed before it, and resume goes on from it.

import assert from "node:assert/strict";
import { spawn, spawnSync } from "node:child_process";
import { existsSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { after, before, describe, test } from "node:test";
import { startChatServer, type ChatServer } from "../support/chatServer";
import { childOutput } from "../support/childOutput";
import { CLI, cliWorkspace, ROOT, type CliWorkspace } from "../support/cliWorkspace";

// A command tool: appends its label to the marker file; with "block" it waits while the block file exists.
// (Its profile says it writes the workspace, "writes": ["."]: in the sandbox the rest is read-only.)
const MARK_TOOL = `
let input = "";
process.stdin.on("data", (c) => (input += c));
process.stdin.on("end", () => {
  const args = JSON.parse(input);
  require("fs").appendFileSync(${JSON.stringify("MARKS")}, args.label + "\\n");
  const done = () => process.stdout.write(JSON.stringify({ label: args.label, n: args.label.length }));
  if (!args.block) return done();
  const wait = () => (require("fs").existsSync(${JSON.stringify("BLOCK")}) ? setTimeout(wait, 50) : done());
  wait();
});
`;

const PLAN = {
  steps: [
    { op: "tool", name: "mark", args: { label: "one" }, bind: "a" },
    { op: "model", provider: "m", prompt: "say something", bind: "b" },
    { op: "tool", name: "mark", args: { label: "three" }, bind: "c" },
    { op: "tool", name: "mark", args: { label: "four", block: true }, bind: "d" },
    {
      op: "final",
      value: {
        a: { ref: "var", name: "a" },
        b: { ref: "var", name: "b" },
        c: { ref: "var", name: "c" },
        d: { ref: "var", name: "d" },
      },
    },
  ],
};

let chat: ChatServer;
before(async () => {
  chat = await startChatServer([], { kind: "ok", text: '{"said":"hi"}' });
});
after(() => chat.close());

function workspace(name: string): CliWorkspace & { marks(): string[] } {
  const ws = cliWorkspace(name);
  ws.write(
    "mark.js",
    MARK_TOOL.replace('"MARKS"', JSON.stringify(join(ws.dir, "marks.txt"))).replace(
      '"BLOCK"',
      JSON.stringify(join(ws.dir, "block")),
    ),
  );
  ws.write(
    "rlmplan.host.json",
    JSON.stringify({
      capabilities: ["tool(mark)", "model(m)"],
      budget: { max_steps: 20, max_tool_calls: 9, max_model_calls: 3 },
      tools: { mark: { type: "command", command: [process.execPath, "mark.js"], timeoutMs: 60000, writes: ["."] } },
      providers: {
        m: { type: "openai-chat", baseUrl: chat.baseUrl, model: "test-model", apiKeyEnv: "RESUME_TEST_KEY" },
      },
    }),
  );
  ws.write("plan.rlmplan.json", JSON.stringify(PLAN, null, 2));
  return {
    ...ws,
    marks: () =>
      existsSync(join(ws.dir, "marks.txt")) ? readFileSync(join(ws.dir, "marks.txt"), "utf8").trim().split("\n") : [],
  };
}

const ENV = { ...process.env, NO_COLOR: "1", RESUME_TEST_KEY: "rk-resume-test-key-123456" };

function cli(ws: CliWorkspace, ...args: string[]) {
  const child = spawn(process.execPath, [CLI, ...args], { cwd: ws.dir, env: ENV, stdio: ["ignore", "pipe", "pipe"] });
  return { child, output: childOutput(child) };
}

function result(stdout: string): Record<string, unknown> {
  return JSON.parse(stdout.trim().split("\n").pop() as string) as Record<string, unknown>;
}

/** Runs until the fourth step's tool has started (steps 1-3 recorded by then), then SIGKILL. */
async function killedAfterThirdStep(ws: ReturnType<typeof workspace>): Promise<void> {
  writeFileSync(join(ws.dir, "block"), "");
  const { child, output } = cli(ws, "run", "--json", "plan.rlmplan.json");
  for (let i = 0; i < 600 && !ws.marks().includes("four"); i++) await new Promise((r) => setTimeout(r, 50));
  assert.deepEqual(ws.marks(), ["one", "three", "four"]);
  child.kill("SIGKILL");
  const killed = await output;
  assert.equal(killed.code, null);
  rmSync(join(ws.dir, "block"));
}

describe("rlm-plan run --resume", () => {
  test("after SIGKILL: completed steps are not run again, the value and budget equal an uninterrupted run's", async () => {
    const straight = workspace("resume-straight");
    const { output } = cli(straight, "run", "--json", "plan.rlmplan.json");
    const uninterrupted = await output;
    assert.equal(uninterrupted.code, 0, uninterrupted.stderr);
    const expected = result(uninterrupted.stdout);

    const ws = workspace("resume");
    chat.reset();
    await killedAfterThirdStep(ws);
    assert.equal(chat.requests.length, 1);
    const listed = JSON.parse(ws.cli("runs", "list", "--json").stdout) as { id: number; status: string }[];
    assert.deepEqual(
      listed.map((r) => [r.id, r.status]),
      [[1, "interrupted"]],
    );

    const resumed = await cli(ws, "run", "--resume", "1", "--json").output;
    assert.equal(resumed.code, 0, resumed.stderr);
    const got = result(resumed.stdout);
    assert.deepEqual(got["value"], expected["value"]);
    assert.deepEqual(got["budget_remaining"], expected["budget_remaining"]);
    assert.equal(got["run"], 1);
    // Steps 1-3 ran once; the step in flight (4) ran again; the model saw its request once.
    assert.deepEqual(ws.marks(), ["one", "three", "four", "four"]);
    assert.equal(chat.requests.length, 1);

    const run = JSON.parse(ws.cli("runs", "export", "1").stdout) as {
      status: string;
      segments: number;
      events: { segment: number; replayed: boolean; event: { type: string; path: unknown[] } }[];
      calls: { segment: number; kind: string; status: string }[];
    };
    assert.equal(run.status, "ok");
    assert.equal(run.segments, 2);
    const second = run.events.filter((e) => e.segment === 2 && e.event.type === "step_finished");
    assert.deepEqual(
      second.map((e) => [e.event.path[1], e.replayed]),
      [
        [0, true],
        [1, true],
        [2, true],
        [3, false],
        [4, false],
      ],
    );
    assert.deepEqual(
      run.calls.map((c) => [c.segment, c.kind, c.status]),
      [
        [1, "tool", "ok"],
        [1, "model", "ok"],
        [1, "tool", "ok"],
        // The fourth step's call was in flight at the kill: its record is the one lost.
        [2, "tool", "ok"],
      ],
    );
  });

  test("accepted at once after SIGKILL, before the killed process is even collected (issue 34 item 7)", async () => {
    const ws = workspace("resume-at-once");
    writeFileSync(join(ws.dir, "block"), "");
    const { child, output } = cli(ws, "run", "--json", "plan.rlmplan.json");
    for (let i = 0; i < 600 && !ws.marks().includes("four"); i++) await new Promise((r) => setTimeout(r, 50));
    child.kill("SIGKILL");
    rmSync(join(ws.dir, "block"));
    // Synchronous children from here: this process's event loop does not run, so the killed run
    // is not collected (a zombie, which `kill(pid, 0)` still finds) while they ask about it.
    const listed = ws.cli("runs", "list", "--json");
    assert.deepEqual(
      (JSON.parse(listed.stdout) as { id: number; status: string }[]).map((r) => [r.id, r.status]),
      [[1, "interrupted"]],
    );
    const resumed = spawnSync(process.execPath, [CLI, "run", "--json", "--resume", "1"], {
      cwd: ws.dir,
      env: ENV,
      encoding: "utf8",
    });
    assert.doesNotMatch(resumed.stderr, /still running/);
    assert.equal(resumed.status, 0, resumed.stderr);
    const value = result(resumed.stdout)["value"] as Record<string, unknown>;
    assert.deepEqual(
      [value["a"], value["c"], value["d"]],
      [
        { label: "one", n: 3 },
        { label: "three", n: 5 },
        { label: "four", n: 4 },
      ],
    );
    assert.deepEqual(
      ws.marks().filter((m) => m !== "four"),
      ["one", "three"],
    );
    assert.equal((await output).code, null);
  });

  test("a changed plan, a finished run and an unknown run are refused, saying why", async () => {
    const ws = workspace("resume-refused");
    await killedAfterThirdStep(ws);
    ws.write("plan.rlmplan.json", JSON.stringify(PLAN));
    const changed = ws.cli("run", "--resume", "1");
    assert.equal(changed.code, 1);
    assert.match(
      changed.stderr,
      /^rlm-plan: host profile rlmplan\.host\.json\nrlm-plan: cannot resume: the plan .*plan\.rlmplan\.json changed since run 1 \(recorded sha256 [0-9a-f]{12}, now [0-9a-f]{12}\): a resumed run must run the plan it started with; run it anew instead\n$/,
    );
    ws.write("plan.rlmplan.json", JSON.stringify(PLAN, null, 2));
    const ok = await cli(ws, "run", "--resume", "1").output;
    assert.equal(ok.code, 0, ok.stderr);
    const again = ws.cli("run", "--resume", "1");
    assert.equal(again.code, 1);
    assert.equal(
      again.stderr,
      "rlm-plan: cannot resume: run 1 finished (ok); only a run that did not finish (interrupted or cancelled) can be resumed\n",
    );
    const unknown = ws.cli("run", "--resume", "7");
    assert.equal(unknown.code, 1);
    assert.match(unknown.stderr, /^rlm-plan: cannot resume: there is no run 7 in the run journal .*runs\.sqlite\n$/);
    const mixed = ws.cli("run", "--resume", "1", "--mocks", "x.json");
    assert.equal(mixed.code, 2);
    assert.match(
      mixed.stderr,
      /^rlm-plan: --resume runs with the options the run was recorded with; --mocks cannot be given\n/,
    );
  });

  test("a resumed run answers its recorded model and MCP calls from the journal: the chat server gone, no MCP call made", async () => {
    const own = await startChatServer([{ kind: "ok", text: '{"said":"hi"}' }]);
    const ws = workspace("resume-live");
    // An MCP server that appends a line for each tools/call it answers.
    ws.write(
      "lookup-server.js",
      `const { appendFileSync } = require("node:fs");
// The scripted server's module is named on its command line: in the sandbox that makes it readable.
require(process.argv[2]).serve("counted", (request) => {
  if (request.method === "tools/list") return { tools: [{ name: "lookup", inputSchema: { type: "object" } }] };
  if (request.method !== "tools/call") return null;
  appendFileSync(${JSON.stringify(join(ws.dir, "mcp-calls.txt"))}, "call\\n");
  return { content: [{ type: "text", text: '{"hits": 1}' }], structuredContent: { hits: 1 } };
});
`,
    );
    ws.write(
      "rlmplan.host.json",
      JSON.stringify({
        capabilities: ["tool(mark)", "model(m)", "tool(counted.lookup)"],
        budget: { max_steps: 20, max_tool_calls: 9, max_model_calls: 3 },
        tools: { mark: { type: "command", command: [process.execPath, "mark.js"], timeoutMs: 60000, writes: ["."] } },
        providers: {
          m: { type: "openai-chat", baseUrl: own.baseUrl, model: "test-model", apiKeyEnv: "RESUME_TEST_KEY" },
        },
        mcpServers: {
          counted: {
            command: process.execPath,
            args: ["lookup-server.js", join(ROOT, "test", "fixtures", "mcp", "scriptedServer.js")],
            writes: ["."],
          },
        },
      }),
    );
    const steps = [
      { op: "tool", name: "mark", args: { label: "one" }, bind: "a" },
      { op: "model", provider: "m", prompt: "say something", bind: "b" },
      { op: "tool", name: "counted.lookup", args: { q: "word" }, bind: "c" },
      { op: "tool", name: "mark", args: { label: "four", block: true }, bind: "d" },
      { op: "final", value: { b: { ref: "var", name: "b" }, c: { ref: "var", name: "c" } } },
    ];
    ws.write("plan.rlmplan.json", JSON.stringify({ steps }, null, 2));
    const mcpCalls = () => readFileSync(join(ws.dir, "mcp-calls.txt"), "utf8");
    try {
      writeFileSync(join(ws.dir, "block"), "");
      const { child, output } = cli(ws, "run", "--json", "plan.rlmplan.json");
      for (let i = 0; i < 600 && !ws.marks().includes("four"); i++) await new Promise((r) => setTimeout(r, 50));
      assert.deepEqual(ws.marks(), ["one", "four"]);
      child.kill("SIGKILL");
      assert.equal((await output).code, null);
      rmSync(join(ws.dir, "block"));
      assert.equal(own.requests.length, 1);
      assert.equal(mcpCalls(), "call\n");
    } finally {
      await own.close();
    }

    const resumed = await cli(ws, "run", "--resume", "1", "--json").output;
    assert.equal(resumed.code, 0, resumed.stderr);
    assert.deepEqual(result(resumed.stdout)["value"], {
      b: {
        text: '{"said":"hi"}',
        model: "test-model",
        usage: { prompt_tokens: 11, completion_tokens: 7, total_tokens: 18 },
        finish_reason: "stop",
      },
      c: { hits: 1 },
    });
    assert.deepEqual(ws.marks(), ["one", "four", "four"]);
    assert.equal(mcpCalls(), "call\n", "the MCP call was answered from the journal");
  });

  test("killed while its step's sync of the log is under way: the step is in the journal and resume goes on from it", async () => {
    const ws = workspace("resume-unsynced");
    // Preloaded into the CLI: once the first tool has run, the journal's syncs of its log never
    // answer, so the run waits before its model call with step 1 committed into the log, unsynced.
    const held = join(ws.dir, "held");
    ws.write(
      "hold-syncs.js",
      `const fs = require("fs");
const real = fs.fdatasync;
fs.fdatasync = (fd, callback) => {
  if (!fs.existsSync(${JSON.stringify(join(ws.dir, "marks.txt"))})) return real(fd, callback);
  fs.writeFileSync(${JSON.stringify(held)}, "");
};`,
    );
    chat.reset();
    const child = spawn(process.execPath, [CLI, "run", "--json", "plan.rlmplan.json"], {
      cwd: ws.dir,
      env: { ...ENV, NODE_OPTIONS: `--require ${join(ws.dir, "hold-syncs.js")}` },
      stdio: ["ignore", "pipe", "pipe"],
    });
    const output = childOutput(child);
    let exited = false;
    void output.then(() => (exited = true));
    for (let i = 0; i < 600 && !existsSync(held) && !exited; i++) await new Promise((r) => setTimeout(r, 50));
    assert.equal(existsSync(held), true, "the step's commit asked for a sync of the log");
    await new Promise((r) => setTimeout(r, 300));
    assert.deepEqual(ws.marks(), ["one"]);
    assert.equal(chat.requests.length, 0, "the model call waits for the sync of the step before it");
    child.kill("SIGKILL");
    assert.equal((await output).code, null);

    const run = JSON.parse(ws.cli("runs", "export", "1").stdout) as {
      status: string;
      events: { event: { type: string; path: unknown[] } }[];
    };
    assert.equal(run.status, "interrupted");
    assert.deepEqual(
      run.events.filter((e) => e.event.type === "step_finished").map((e) => e.event.path),
      [["steps", 0]],
    );
    const resumed = await cli(ws, "run", "--resume", "1", "--json").output;
    assert.equal(resumed.code, 0, resumed.stderr);
    assert.deepEqual(ws.marks(), ["one", "three", "four"], "step 1's tool is not run again");
    assert.equal(chat.requests.length, 1);
  });
});
