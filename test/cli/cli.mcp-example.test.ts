// The MCP example workspace through the built CLI_BIN, as a user runs it: `rlm-plan run` calls the
// npm reference server's tools, `rlm-plan check` finds argument errors from the schemas the
// server publishes, and a server that cannot start is a located warning, not a failure.

import assert from "node:assert/strict";
import { spawn } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, test } from "node:test";
import { processState } from "@rlm-plan/core/host/processGroup";
import { CLI_BIN, ROOT } from "../support/cliWorkspace";

const FAULT = join(ROOT, "test", "fixtures", "mcp", "fault-server.js");

const dir = mkdtempSync(join(tmpdir(), "rlm-plan-cli-mcp-"));
after(() => rmSync(dir, { recursive: true, force: true }));

function rlmPlan(...args: string[]): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((done) => {
    const child = spawn(process.execPath, [CLI_BIN, ...args], { cwd: ROOT, env: { ...process.env, NO_COLOR: "1" } });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (chunk: Buffer) => (stdout += chunk.toString("utf8")));
    child.stderr.on("data", (chunk: Buffer) => (stderr += chunk.toString("utf8")));
    child.on("close", (code) => done({ code, stdout, stderr }));
  });
}

test("rlm-plan run examples/mcp/plans/echo-and-sum.rlmplan.json prints both answers", async () => {
  const result = await rlmPlan("run", "examples/mcp/plans/echo-and-sum.rlmplan.json");
  assert.equal(result.code, 0, result.stderr);
  assert.deepEqual(JSON.parse(result.stdout), ["Echo: hello from a plan", "The sum of 2 and 40 is 42."]);
  assert.match(result.stderr, /tool\('everything\.echo'\) +-> echoed +ok/);
});

const LEFT =
  "rlm-plan: static check, no program started; left to --preflight: MCP tool lists and argument schemas, programs, provider keys, input files\n";

test("plain rlm-plan check starts no MCP server: wrong-arguments.rlmplan.json passes, and check says what it left", async () => {
  const result = await rlmPlan("check", "examples/mcp/plans/wrong-arguments.rlmplan.json");
  assert.equal(result.code, 0, result.stderr);
  assert.equal(result.stdout, "examples/mcp/plans/wrong-arguments.rlmplan.json: ok (3 steps)\n");
  assert.equal(result.stderr, LEFT);
});

test("rlm-plan check --preflight refuses examples/mcp/plans/wrong-arguments.rlmplan.json as run does, located, with every problem", async () => {
  const file = "examples/mcp/plans/wrong-arguments.rlmplan.json";
  const [checked, ran] = await Promise.all([rlmPlan("check", "--preflight", file), rlmPlan("run", file)]);
  assert.equal(checked.code, 1, checked.stderr);
  assert.equal(
    checked.stdout,
    [
      `${file}:6:58: error: tool "everything.echo": argument "mesage" is not one the tool takes: did you mean "message"? (its input schema) [invalid_tool_arguments]`,
      // Not only the first: a gate reports every problem at once (run stops at the first).
      `${file}:7:66: error: tool "everything.get-sum": argument "a" must be a number, got the text "2" (its input schema) [invalid_tool_arguments]`,
      `${file}: 2 errors`,
      "",
    ].join("\n"),
  );
  assert.equal(
    checked.stderr,
    `rlm-plan: preflight of ${file}: started MCP server "everything" to list tools, then stopped\n` +
      "rlm-plan: no rlmplan.lock.json: run rlm-plan lock to pin tools\n",
  );
  assert.equal(ran.code, 1);
  assert.match(
    ran.stderr,
    new RegExp(`${file.replace(/[.]/g, "\\.")}:6:58: run failed: .*\\[preflight/invalid_tool_arguments\\]`),
  );
});

test("rlm-plan check examples/mcp --format github: static, no MCP server started; --preflight lists the tools", async () => {
  const plain = await rlmPlan("check", "examples/mcp", "--format", "github");
  assert.equal(plain.code, 0, plain.stderr);
  assert.deepEqual(
    plain.stdout.split("\n").filter((line) => line.startsWith("::")),
    [`::notice title=rlm-plan::${LEFT.slice("rlm-plan: ".length, -1)}`],
  );
  const preflight = await rlmPlan("check", "--preflight", "examples/mcp", "--format", "github");
  assert.equal(preflight.code, 1, preflight.stderr);
  assert.deepEqual(
    preflight.stdout.split("\n").filter((line) => line.startsWith("::error")),
    [
      '::error file=examples/mcp/plans/wrong-arguments.rlmplan.json,line=6,col=58,endLine=6,endColumn=66,title=rlm-plan invalid_tool_arguments::tool "everything.echo": argument "mesage" is not one the tool takes: did you mean "message"? (its input schema)',
      '::error file=examples/mcp/plans/wrong-arguments.rlmplan.json,line=7,col=66,endLine=7,endColumn=69,title=rlm-plan invalid_tool_arguments::tool "everything.get-sum": argument "a" must be a number, got the text "2" (its input schema)',
    ],
  );
});

test("rlm-plan check --preflight: a server that cannot start is a refusal on the call of its tool", async () => {
  const host = join(dir, "rlmplan.host.json");
  writeFileSync(
    host,
    JSON.stringify({ capabilities: ["tool(gone.x)"], mcpServers: { gone: { command: "./no-such-server" } } }),
  );
  const plan = join(dir, "p.rlmplan.json");
  writeFileSync(
    plan,
    '{"steps": [{"op": "tool", "name": "gone.x", "args": {}, "bind": "r"}, {"op": "final", "value": 1}]}',
  );
  const plain = await rlmPlan("check", plan);
  assert.equal(plain.code, 0, plain.stderr);
  const result = await rlmPlan("check", "--preflight", plan);
  assert.equal(result.code, 1, result.stderr);
  assert.equal(
    result.stdout.split("\n")[0],
    `${plan}:1:35: error: MCP server "gone" could not be started: command "./no-such-server" was not found [tool_unavailable]`,
  );
});

test("Ctrl-C during an MCP call: exit 130, and the server and what it started are gone", async () => {
  const work = join(dir, "cancel");
  mkdirSync(work);
  const pids = join(work, "server.pid");
  writeFileSync(
    join(work, "rlmplan.host.json"),
    JSON.stringify({
      capabilities: ["tool(fault.hang)"],
      // Outside the sandbox: the test follows the server by the host pid it writes.
      sandbox: "off",
      mcpServers: { fault: { command: process.execPath, args: [FAULT], env: { FAULT_PIDS: pids } } },
    }),
  );
  const plan = join(work, "hang.rlmplan.json");
  writeFileSync(
    plan,
    '{"steps": [{"op": "tool", "name": "fault.hang", "args": {}, "bind": "r"}, {"op": "final", "value": 1}]}',
  );
  const child = spawn(process.execPath, [CLI_BIN, "run", plan], { cwd: ROOT, env: { ...process.env, NO_COLOR: "1" } });
  let ended = false;
  const exited = new Promise<number | null>((done) =>
    child.on("close", (code) => {
      ended = true;
      done(code);
    }),
  );
  // No deadline (a loaded machine can take longer than any): the run ending first is the failure.
  while (!existsSync(pids) || readFileSync(pids, "utf8") === "") {
    assert.ok(!ended, "the run ended before its MCP server started");
    await new Promise((r) => setTimeout(r, 20));
  }
  const server = Number(readFileSync(pids, "utf8"));
  assert.equal(processState(server), "running");
  child.kill("SIGINT");
  assert.equal(await exited, 130);
  assert.notEqual(processState(server), "running", `the MCP server (pid ${server}) outlived the run`);
});

test("rlm-plan check starts no MCP server when no plan calls one of its tools", async () => {
  const work = join(dir, "unused");
  mkdirSync(work);
  const pids = join(work, "server.pid");
  writeFileSync(
    join(work, "rlmplan.host.json"),
    JSON.stringify({
      capabilities: [],
      mcpServers: { fault: { command: process.execPath, args: [FAULT], env: { FAULT_PIDS: pids } } },
    }),
  );
  const plan = join(work, "p.rlmplan.json");
  writeFileSync(plan, '{"steps": [{"op": "final", "value": 1}]}');
  const result = await rlmPlan("check", plan);
  assert.equal(result.code, 0, result.stderr);
  assert.equal(existsSync(pids), false, "the MCP server was started");
});

// Plain check starts no MCP server: an MCP tool's output schema is unknown to it, so only the
// model reply's missing field is found (the editor, with listMcpTools, finds both).
test("rlm-plan check examples/types: a field a model reply lacks; MCP output schemas are not listed", async () => {
  const result = await rlmPlan("check", "examples/types/plans/weather-report.rlmplan.json");
  assert.equal(result.code, 1, result.stderr);
  const file = "examples/types/plans/weather-report.rlmplan.json";
  assert.equal(
    result.stdout,
    [
      `${file}:22:90: error: \`reply\` has no field "txt": did you mean "text"? (\`reply\` is the reply of the model call at 13:5) [unknown_field]`,
      `${file}:17:15: note: \`reply\` is the reply of the model call`,
      `${file}: 1 error`,
      "",
    ].join("\n"),
  );
});

test("a computed argument an MCP tool's listed schema certainly refuses: plain check is silent (unknown), --preflight an error, run refuses before its first step", async () => {
  const work = join(dir, "computed");
  mkdirSync(work);
  writeFileSync(
    join(work, "rlmplan.host.json"),
    JSON.stringify({
      capabilities: ["tool(mark)", "tool(everything.get-sum)", "context(search)"],
      tools: { mark: { type: "command", command: [process.execPath, "mark.js"], writes: ["."] } },
      inputs: { doc: { type: "text", text: "1\n2\n" } },
      mcpServers: {
        everything: {
          command: process.execPath,
          args: [join(ROOT, "node_modules/@modelcontextprotocol/server-everything/dist/index.js"), "stdio"],
          startupTimeoutMs: 15000,
        },
      },
    }),
  );
  // The first step leaves a marker: a run refused before its first step leaves none.
  writeFileSync(
    join(work, "mark.js"),
    'require("node:fs").writeFileSync(__dirname + "/ran.marker", "ran"); process.stdout.write("{}");\n',
  );
  const plan = join(work, "p.rlmplan.json");
  writeFileSync(
    plan,
    [
      '{ "steps": [',
      '  { "op": "tool", "name": "mark", "args": {}, "bind": "m" },',
      '  { "op": "context", "handle": { "ref": "input", "name": "doc" }, "action": { "type": "search", "pattern": "1" }, "bind": "hits" },',
      '  { "op": "tool", "name": "everything.get-sum", "args": { "a": { "ref": "var", "name": "hits" }, "b": 2 }, "bind": "s" },',
      '  { "op": "final", "value": { "ref": "var", "name": "s" } }',
      "] }",
    ].join("\n"),
  );
  const error = `${plan}:4:64: error: tool "everything.get-sum": argument "a" must be a number, but "hits" is array<{index: integer, value: string}> (the result of the context search) (its input schema) [invalid_tool_arguments]`;
  const plain = await rlmPlan("check", plan);
  assert.equal(plain.code, 0, plain.stdout + plain.stderr);
  const checked = await rlmPlan("check", "--preflight", plan);
  assert.equal(checked.code, 1, checked.stderr);
  assert.deepEqual(checked.stdout.trimEnd().split("\n"), [error, `${plan}: 1 error`]);
  const ran = await rlmPlan("run", plan, "--no-journal");
  assert.equal(ran.code, 1, ran.stderr);
  assert.match(
    ran.stderr,
    /:4:64: run failed: tool "everything\.get-sum": argument "a" must be a number, .*\[preflight\/invalid_tool_arguments\]/,
  );
  assert.equal(existsSync(join(work, "ran.marker")), false, "the first step ran");
});
