// MCP servers whose messages pass the 10 MiB limit (test/fixtures/mcp/hostile-sizes-server.js):
// a list of 100,000 tools, an input schema of 200,000 properties, an 11 MB result. Each fails
// the one listing (a preflight refusal naming the server and the limit, before any step runs) or
// the one call (a tool_error, after a call to a well-behaved server earlier in the same run
// succeeded), never the process: no crash, no stack trace.

import assert from "node:assert/strict";
import { spawn } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, describe, test } from "node:test";
import { childOutput } from "../support/childOutput";
import { CLI, ROOT } from "../support/cliWorkspace";

/** The CLI command that lists a profile's MCP tools (the folder's path follows it). */
const LIST_TOOLS_COMMAND: readonly string[] = ["check", "--preflight"];

const HOSTILE = join(ROOT, "test", "fixtures", "mcp", "hostile-sizes-server.js");
const LIMIT = "sent a message of more than 10485760 bytes (its limit: maxMessageBytes in the host profile)";

const dir = mkdtempSync(join(tmpdir(), "rlm-plan-mcp-sizes-"));
after(() => rmSync(dir, { recursive: true, force: true }));

const server = (mode: string) => ({ command: process.execPath, args: [HOSTILE, mode], startupTimeoutMs: 120_000 });
writeFileSync(
  join(dir, "rlmplan.host.json"),
  JSON.stringify({
    capabilities: ["tool(tools.tool-000001)", "tool(schema.big)", "tool(result.big)", "tool(result.small)"],
    // A loaded machine takes seconds to start a server and write 15 MB: the default 10 s is short.
    budget: { time_limit: 300 },
    mcpServers: { tools: server("many-tools"), schema: server("huge-schema"), result: server("huge-result") },
  }),
);

/** A plan that calls result.small (a fine answer), then `tool`; its path relative to `dir`. */
function plan(name: string, tool: string): string {
  const file = `${name}.rlmplan.json`;
  const steps = [
    { op: "tool", name: "result.small", args: {}, bind: "s" },
    { op: "tool", name: tool, args: {}, bind: "r" },
    { op: "final", value: { ref: "var", name: "r" } },
  ];
  writeFileSync(join(dir, file), JSON.stringify({ steps }));
  return file;
}
const PLANS = { tools: plan("tools", "tools.tool-000001"), schema: plan("schema", "schema.big") };

function cli(args: readonly string[]) {
  const child = spawn(process.execPath, [CLI, ...args], {
    cwd: dir,
    env: { PATH: process.env.PATH, NO_COLOR: "1" },
    stdio: ["ignore", "pipe", "pipe"],
  });
  return childOutput(child);
}

function assertNoCrash(text: string): void {
  assert.doesNotMatch(text, /ReadBuffer|\n\s+at |Uncaught|node:internal/);
}

const CASES = [
  {
    name: "a list of 100,000 tools",
    plan: PLANS.tools,
    tool: "tools.tool-000001",
    error: `MCP server "tools" did not list its tools: the server ${LIMIT}`,
    listing: true,
  },
  {
    name: "an input schema of 200,000 properties",
    plan: PLANS.schema,
    tool: "schema.big",
    error: `MCP server "schema" did not list its tools: the server ${LIMIT}`,
    listing: true,
  },
  {
    name: "an 11 MB result",
    plan: plan("result", "result.big"),
    tool: "result.big",
    error: `MCP server "result" ${LIMIT}`,
    listing: false,
  },
];

describe(
  "rlm-plan run: an MCP message over the limit fails its call, not the run's process",
  { concurrency: true },
  () => {
    for (const { name, plan: file, tool, error, listing } of CASES) {
      test(name, async () => {
        const { code, stdout, stderr } = await cli(["run", file]);
        assertNoCrash(stderr);
        assert.equal(code, 1, stderr);
        assert.equal(stdout, "");
        const line = stderr.split("\n").find((l) => l.includes("run failed:"));
        if (listing) {
          // The tool list is read in preflight: refused before the first step, at the call's name.
          assert.doesNotMatch(stderr, /tool\('result\.small'\)/);
          assert.equal(line, `${file}:1:88: run failed: ${error} [preflight/tool_unavailable]`);
        } else {
          assert.match(stderr, /^ {2}1 {2}tool\('result\.small'\) +-> s {2}ok /m);
          assert.equal(line, `${file}:1:68: run failed: tool "${tool}" failed: ${error} [execute/tool_error]`);
        }
      });
    }
  },
);

describe(`rlm-plan ${LIST_TOOLS_COMMAND.join(" ")}: an MCP tool list over the limit refuses the server's calls`, () => {
  test("100,000 tools and 200,000 properties: one error each, at the call; the other plans are checked", async () => {
    const { code, stdout, stderr } = await cli([...LIST_TOOLS_COMMAND, "."]);
    assertNoCrash(stderr);
    assert.equal(code, 1, stderr);
    const refused = (server: string) =>
      `${server}.rlmplan.json:1:88: error: MCP server "${server}" did not list its tools: the server ${LIMIT} [tool_unavailable]`;
    assert.deepEqual(stdout.trim().split("\n"), [
      "result.rlmplan.json: ok (3 steps)",
      "rlmplan.host.json: ok (host profile)",
      refused("schema"),
      "schema.rlmplan.json: 1 error",
      refused("tools"),
      "tools.rlmplan.json: 1 error",
    ]);
  });
});
