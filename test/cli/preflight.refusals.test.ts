// Every refusal `rlm-plan run` can give before its first step, as a table: for each, a plan whose
// first step is a marker tool (it creates a file) and whose later step is refused. `run` refuses
// before any side effect (the marker never runs) if and only if `check --preflight` exits 1,
// with the same kind at the same file:line:col. The built CLI_BIN runs as a child process against a
// real MCP server (test/fixtures/mcp/fault-server.js) and real command tools.

import assert from "node:assert/strict";
import { spawn } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, describe, test } from "node:test";
import { CLI_BIN, ROOT } from "../support/cliWorkspace";

const FAULT = join(ROOT, "test", "fixtures", "mcp", "fault-server.js");

const dir = mkdtempSync(join(tmpdir(), "rlm-plan-preflight-table-"));
after(() => rmSync(dir, { recursive: true, force: true }));

const HOST = {
  capabilities: [
    "tool(marker)",
    "tool(nope)",
    "tool(no_program)",
    "tool(writer)",
    "tool(fault.ok)",
    "tool(fault.divide)",
    "tool(fault.structured)",
    "model(p)",
    "model(q)",
    "context(reduce)",
  ],
  budget: { max_tool_calls: 2 },
  tools: {
    // It writes its marker into the workspace: in the sandbox, a path it declares.
    marker: { type: "command", command: ["sh", "-c", "cat > /dev/null; touch marker.txt; echo 1"], writes: ["."] },
    writer: { type: "command", command: ["sh", "-c", "cat > /dev/null; echo 1"], writes: ["no-such-folder"] },
    no_program: { type: "command", command: ["./no-such-program"] },
    uncapped: { type: "builtin", builtin: "count_items" },
  },
  providers: {
    p: { type: "openai-chat", baseUrl: "http://127.0.0.1:9/v1", model: "m", apiKeyEnv: "RLM_PLAN_TABLE_UNSET_KEY" },
  },
  mcpServers: { fault: { command: process.execPath, args: [FAULT] } },
  inputs: { gone: { type: "text-file", path: "gone.txt" } },
};

const MARKER = '{"op": "tool", "name": "marker", "args": {}, "bind": "m"}';
const FINAL = '{"op": "final", "value": 1}';
const plan = (...steps: string[]) => `{"steps": [\n  ${[MARKER, ...steps, FINAL].join(",\n  ")}\n]}\n`;
const tool = (name: string, args = "{}") => `{"op": "tool", "name": "${name}", "args": ${args}, "bind": "r"}`;
const reads = (input: string) =>
  `{"op": "context", "handle": {"ref": "input", "name": "${input}"}, "action": {"type": "reduce", "reducer": "count"}, "bind": "n"}`;

/**
 * Refusal -> the plan text that gets it, and the kind both commands must name; some under a
 * profile changed by `host`, with `env` over the commands' environment.
 */
const CASES: readonly {
  readonly name: string;
  readonly text: string;
  readonly kind: string;
  readonly host?: Record<string, unknown>;
  readonly env?: Record<string, string>;
  readonly message?: string;
  /** The text of an rlmplan.lock.json beside the profile. */
  readonly lock?: string;
}[] = [
  { name: "parse", text: `{"steps": [${MARKER}, {"op" "final"}]}`, kind: "invalid_plan" },
  { name: "normalize", text: plan('{"op": "contxt", "bind": "x"}'), kind: "invalid_plan" },
  { name: "validate", text: plan('{"op": "final", "value": {"ref": "var", "name": "nothing"}}'), kind: "invalid_plan" },
  { name: "capability", text: plan(tool("uncapped", "[1]")), kind: "capability_denied" },
  { name: "budget", text: plan(MARKER.replace('"m"', '"m2"'), MARKER.replace('"m"', '"m3"')), kind: "budget_exceeded" },
  { name: "unknown tool", text: plan(tool("nope")), kind: "unknown_tool" },
  {
    name: "unknown provider",
    text: plan('{"op": "model", "provider": "q", "prompt": "hi", "bind": "a"}'),
    kind: "unknown_provider",
  },
  { name: "unavailable program", text: plan(tool("no_program")), kind: "tool_unavailable" },
  {
    name: "unset key",
    text: plan('{"op": "model", "provider": "p", "prompt": "hi", "bind": "a"}'),
    kind: "provider_key_missing",
  },
  { name: "unknown MCP tool", text: plan(tool("fault.divide")), kind: "unknown_tool" },
  { name: "MCP argument schema", text: plan(tool("fault.structured", '{"n": "x"}')), kind: "invalid_tool_arguments" },
  { name: "undeclared input", text: plan(reads("ghost")), kind: "undeclared_input" },
  { name: "missing input file", text: plan(reads("gone")), kind: "input_unavailable" },
  {
    // The marker is refused first: no tool of the profile can start.
    name: "a sandbox required where none can be made",
    text: plan(tool("writer")),
    kind: "tool_unavailable",
    host: { sandbox: "required" },
    env: { RLM_PLAN_BWRAP: "/nonexistent/bwrap" },
    message:
      'tool "marker" cannot run: the host profile requires the sandbox ("sandbox": "required") and RLM_PLAN_BWRAP names "/nonexistent/bwrap", which is not an executable file; install bubblewrap, or set "sandbox" to "preferred" in ',
  },
  {
    name: "a declared writes path that is missing",
    text: plan(tool("writer")),
    kind: "tool_unavailable",
    message:
      'tool "writer" cannot run: the path "no-such-folder" it declares in "writes" does not exist (in the sandbox a tool writes only paths that exist when it starts); create it, or fix its "writes" in ',
  },
  {
    // A lock that pins nothing: the marker, the plan's first tool, is refused as not pinned.
    name: "a tool that drifted from the lock",
    text: plan(tool("fault.ok", '{"text": "hi"}')),
    kind: "tool_drift",
    lock: '{"lockVersion": 1, "commandTools": {}, "mcpServers": {}, "providers": {}}',
    message:
      'drift from rlmplan.lock.json: command tool "marker" is not in rlmplan.lock.json; review it, then accept with rlm-plan lock --update',
  },
];

interface Ran {
  readonly code: number | null;
  readonly stdout: string;
  readonly stderr: string;
}

function rlmPlan(cwd: string, extraEnv: Record<string, string>, ...args: string[]): Promise<Ran> {
  const env: NodeJS.ProcessEnv = { ...process.env, NO_COLOR: "1", ...extraEnv };
  delete env.RLM_PLAN_TABLE_UNSET_KEY;
  return new Promise((done) => {
    const child = spawn(process.execPath, [CLI_BIN, ...args], { cwd, env });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (chunk: Buffer) => (stdout += chunk.toString("utf8")));
    child.stderr.on("data", (chunk: Buffer) => (stderr += chunk.toString("utf8")));
    child.on("close", (code) => done({ code, stdout, stderr }));
  });
}

let count = 0;
function workspace(text: string, host: Record<string, unknown> = {}, lock?: string): string {
  const folder = join(dir, `w${++count}`);
  mkdirSync(folder);
  if (lock !== undefined) writeFileSync(join(folder, "rlmplan.lock.json"), lock);
  writeFileSync(join(folder, "rlmplan.host.json"), JSON.stringify({ ...HOST, ...host }, null, 2));
  writeFileSync(join(folder, "p.rlmplan.json"), text);
  return folder;
}

interface RunResult {
  readonly ok: boolean;
  readonly error?: { readonly phase: string; readonly kind: string; readonly message: string };
  readonly location?: { readonly line: number; readonly column: number };
}

interface CheckJson {
  readonly files: { readonly problems: { severity: string; kind: string; line: number; column: number }[] }[];
}

describe("run refuses before its first step iff check --preflight exits 1: same kind, same place", () => {
  for (const { name, text, kind, host, env = {}, message, lock } of CASES) {
    test(name, async () => {
      const folder = workspace(text, host, lock);
      const ran = await rlmPlan(folder, env, "run", "--json", "p.rlmplan.json");
      assert.equal(existsSync(join(folder, "marker.txt")), false, "the marker tool ran before the refusal");
      assert.equal(ran.code, 1, ran.stderr);
      const result = JSON.parse(ran.stdout.trim().split("\n").pop() ?? "") as RunResult;
      assert.equal(result.ok, false);
      assert.equal(result.error?.kind, kind);
      // A profile's refusal ends naming the profile; a lock's names the lock and what to do.
      if (message !== undefined)
        assert.equal(result.error?.message, lock ? message : `${message}${join(folder, "rlmplan.host.json")}`);
      assert.ok(result.location, `run names no place for ${kind}: ${ran.stdout}`);

      const checked = await rlmPlan(folder, env, "check", "--preflight", "--format", "json", "p.rlmplan.json");
      assert.equal(checked.code, 1, checked.stderr);
      assert.equal(existsSync(join(folder, "marker.txt")), false, "check --preflight ran a step");
      const problems = (JSON.parse(checked.stdout) as CheckJson).files[0]?.problems ?? [];
      const same = problems.filter(
        (p) =>
          p.severity === "error" &&
          p.kind === kind &&
          p.line === result.location?.line &&
          p.column === result.location.column,
      );
      assert.equal(same.length, 1, `check --preflight: ${JSON.stringify(problems)}; run: ${JSON.stringify(result)}`);
    });
  }

  test("a plan nothing refuses: run runs its marker, check --preflight exits 0 and says it started the MCP server", async () => {
    const folder = workspace(plan(tool("fault.ok", '{"text": "hi"}')));
    const checked = await rlmPlan(folder, {}, "check", "--preflight", "p.rlmplan.json");
    assert.equal(checked.code, 0, checked.stderr);
    assert.equal(existsSync(join(folder, "marker.txt")), false, "check --preflight ran a step");
    assert.equal(
      checked.stderr,
      'rlm-plan: preflight of p.rlmplan.json: started MCP server "fault" to list tools, then stopped\n' +
        "rlm-plan: no rlmplan.lock.json: run rlm-plan lock to pin tools\n",
    );
    const ran = await rlmPlan(folder, {}, "run", "p.rlmplan.json");
    assert.equal(ran.code, 0, ran.stderr);
    assert.equal(existsSync(join(folder, "marker.txt")), true, "the marker tool did not run");
  });
});
