// The MCP example workspace through the built CLI, as a user runs it: `rlm-plan run` calls the
// npm reference server's tools, `rlm-plan check` finds argument errors from the schemas the
// server publishes, and a server that cannot start is a located warning, not a failure.

import assert from "node:assert/strict";
import { spawn } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { after, test } from "node:test";
import { processState } from "@rlm-plan/core/host/processGroup";

const ROOT = resolve(__dirname, "..", "..", "..");
const CLI = join(ROOT, "cli", "bin", "rlm-plan.js");
const FAULT = join(ROOT, "test", "fixtures", "mcp", "fault-server.js");

const dir = mkdtempSync(join(tmpdir(), "rlm-plan-cli-mcp-"));
after(() => rmSync(dir, { recursive: true, force: true }));

function rlmPlan(...args: string[]): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((done) => {
    const child = spawn(process.execPath, [CLI, ...args], { cwd: ROOT, env: { ...process.env, NO_COLOR: "1" } });
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

test("rlm-plan check finds the argument errors of examples/mcp/plans/wrong-arguments.rlmplan.json", async () => {
  const result = await rlmPlan("check", "examples/mcp/plans/wrong-arguments.rlmplan.json");
  assert.equal(result.code, 0, result.stderr);
  assert.equal(
    result.stdout,
    [
      'examples/mcp/plans/wrong-arguments.rlmplan.json:6:58: warning: tool "everything.echo": argument "mesage" is not one the tool takes: did you mean "message"? (its input schema) [invalid_tool_arguments]',
      'examples/mcp/plans/wrong-arguments.rlmplan.json:7:66: warning: tool "everything.get-sum": argument "a" must be a number, got the text "2" (its input schema) [invalid_tool_arguments]',
      "examples/mcp/plans/wrong-arguments.rlmplan.json: ok (3 steps), 2 warnings",
      "",
    ].join("\n"),
  );
});

test("rlm-plan check examples/mcp --format github: the CI gate lists the tools too, and argument problems stay warnings", async () => {
  const result = await rlmPlan("check", "examples/mcp", "--format", "github");
  assert.equal(result.code, 0, result.stderr);
  assert.deepEqual(
    result.stdout.split("\n").filter((line) => line.startsWith("::")),
    [
      '::warning file=examples/mcp/plans/wrong-arguments.rlmplan.json,line=6,col=58,endLine=6,endColumn=66,title=rlm-plan invalid_tool_arguments::tool "everything.echo": argument "mesage" is not one the tool takes: did you mean "message"? (its input schema)',
      '::warning file=examples/mcp/plans/wrong-arguments.rlmplan.json,line=7,col=66,endLine=7,endColumn=69,title=rlm-plan invalid_tool_arguments::tool "everything.get-sum": argument "a" must be a number, got the text "2" (its input schema)',
    ],
  );
});

test("rlm-plan check: a server that cannot start is a warning on the calls of its tools", async () => {
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
  const result = await rlmPlan("check", plan);
  assert.equal(result.code, 0, result.stderr);
  assert.equal(
    result.stdout.split("\n")[0],
    `${plan}:1:35: warning: MCP server "gone" could not be started: command "no-such-server" was not found: the arguments of tool "gone.x" are not checked [tool_source_unavailable]`,
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
      mcpServers: { fault: { command: process.execPath, args: [FAULT], env: { FAULT_PIDS: pids } } },
    }),
  );
  const plan = join(work, "hang.rlmplan.json");
  writeFileSync(
    plan,
    '{"steps": [{"op": "tool", "name": "fault.hang", "args": {}, "bind": "r"}, {"op": "final", "value": 1}]}',
  );
  const child = spawn(process.execPath, [CLI, "run", plan], { cwd: ROOT, env: { ...process.env, NO_COLOR: "1" } });
  const exited = new Promise<number | null>((done) => child.on("close", (code) => done(code)));
  const deadline = Date.now() + 10_000;
  while (!existsSync(pids) || readFileSync(pids, "utf8") === "") {
    assert.ok(Date.now() < deadline, "the MCP server never started");
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

test("rlm-plan check examples/types: fields a model reply and an MCP output schema lack, from the real server's listing", async () => {
  const result = await rlmPlan("check", "examples/types/plans/weather-report.rlmplan.json");
  assert.equal(result.code, 1, result.stderr);
  const file = "examples/types/plans/weather-report.rlmplan.json";
  assert.equal(
    result.stdout,
    [
      `${file}:22:90: error: \`reply\` has no field "txt": did you mean "text"? (\`reply\` is the reply of the model call at 13:5) [unknown_field]`,
      `${file}:17:15: note: \`reply\` is the reply of the model call`,
      `${file}:23:91: error: \`weather\` has no field "temprature": did you mean "temperature"? (\`weather\` is the result of tool "everything.get-structured-content" at 7:5) [unknown_field]`,
      `${file}:11:15: note: \`weather\` is the result of tool "everything.get-structured-content"`,
      `${file}: 2 errors`,
      "",
    ].join("\n"),
  );
});
