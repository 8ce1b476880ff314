// MCP server entries and tool input schemas in host profiles: the mcp.json shape parses, and
// each mistake is located where it is written with a message that says what to do.

import assert from "node:assert/strict";
import { join, resolve } from "node:path";
import { describe, test } from "node:test";
import { HOST_PROFILE_FILENAME, loadHostProfile, parseHostProfile } from "@rlm-plan/core/host";
import { capabilityKey, formatCapability } from "@rlm-plan/core/plan/capabilities";
import { mcpPlanName, mcpRoute } from "@rlm-plan/core/host/mcp/spec";

const ROOT = resolve(__dirname, "..", "..", "..");
const FILE = "/work/rlmplan.host.json";

function errorsOf(profile: unknown): [string, number, number, string][] {
  const result = parseHostProfile(JSON.stringify(profile), FILE);
  assert.equal(result.ok, false, "expected the profile to be rejected");
  return result.ok ? [] : result.errors.map((e) => [e.jsonPath, e.line, e.column, e.message]);
}

describe("host profile: MCP servers", () => {
  test("the example MCP workspace's profile parses", () => {
    const result = loadHostProfile(join(ROOT, "examples", "mcp", HOST_PROFILE_FILENAME));
    assert.ok(result.ok, JSON.stringify(!result.ok && result.errors));
    const everything = result.profile.mcpServers.get("everything");
    assert.equal(everything?.command, "node");
    assert.equal(everything?.timeoutMs, 10000);
  });

  test("stdio and http entries, with a mapping", () => {
    const result = parseHostProfile(
      JSON.stringify({
        capabilities: [],
        mcpServers: {
          files: { command: "npx", args: ["-y", "some-server"], env: { A: "1" }, tools: { read: "read_file" } },
          web: { type: "http", url: "http://127.0.0.1:3001/mcp" },
        },
      }),
      FILE,
    );
    assert.ok(result.ok, JSON.stringify(!result.ok && result.errors));
    assert.deepEqual([...result.profile.mcpServers.keys()], ["files", "web"]);
  });

  test("each mistake is located", () => {
    assert.deepEqual(
      errorsOf({
        capabilities: [],
        tools: { "web.fetch": { type: "builtin", builtin: "sum" } },
        mcpServers: {
          "a.b": { command: "x" },
          none: {},
          web: { type: "http", url: "http://127.0.0.1/mcp", command: "x" },
          both: { command: "x", url: "http://h/mcp" },
          mapped: { command: "x", tools: { "web.x": "x", sum2: "y" } },
          other: { command: "x", tools: { sum2: "z" } },
        },
      }),
      [
        [
          "/tools/web.fetch",
          1,
          29,
          'the tool name "web.fetch" starts with the name of MCP server "web": rename the tool or the server',
        ],
        [
          "/mcpServers/a.b",
          1,
          91,
          '"mcpServers" has an entry named "a.b": a name may hold only letters, digits, _ and - (no dot: tools are named SERVER.TOOL)',
        ],
        ["/mcpServers/none", 1, 113, 'MCP server "none" needs a "command" (or a "url" with "type": "http")'],
        [
          "/mcpServers/web/command",
          1,
          173,
          '"command" is for servers started over stdio; MCP server "web" is reached at its "url"',
        ],
        [
          "/mcpServers/both/url",
          1,
          210,
          'MCP server "both" is started with its "command": remove "url", or remove "command" to reach it over HTTP',
        ],
        [
          "/mcpServers/mapped/tools/web.x",
          1,
          265,
          'the tool name "web.x" starts with the name of MCP server "web": give it another name',
        ],
        [
          "/mcpServers/other/tools/sum2",
          1,
          322,
          'the tool name "sum2" is already taken by MCP server "mapped": give it another name',
        ],
      ],
    );
  });

  test("maxMessageBytes bounds the messages of a stdio server: a positive integer, not for HTTP", () => {
    assert.deepEqual(
      errorsOf({
        capabilities: [],
        mcpServers: {
          fine: { command: "x", maxMessageBytes: 1000 },
          zero: { command: "x", maxMessageBytes: 0 },
          web: { type: "http", url: "http://127.0.0.1/mcp", maxMessageBytes: 1000 },
        },
      }),
      [
        [
          "/mcpServers/zero/maxMessageBytes",
          1,
          120,
          '"maxMessageBytes" of MCP server "zero" must be at least 1, got the number 0',
        ],
        [
          "/mcpServers/web/maxMessageBytes",
          1,
          173,
          '"maxMessageBytes" is for servers started over stdio; MCP server "web" is reached at its "url"',
        ],
      ],
    );
  });

  test("a tool's inputSchema must be a JSON Schema", () => {
    const [error] = errorsOf({
      capabilities: [],
      tools: { t: { type: "builtin", builtin: "sum", inputSchema: { type: "lists" } } },
    });
    assert.equal(error?.[0], "/tools/t/inputSchema");
    assert.match(error?.[3] ?? "", /^the input schema is not a valid JSON Schema: /);
  });
});

describe("MCP tool names", () => {
  const servers = new Map([
    ["everything", {}],
    ["files", { tools: { read: "read_file" } }],
  ]);

  test("SERVER.TOOL routes to the server's tool; a mapped server offers only its mapping", () => {
    assert.deepEqual(mcpRoute("everything.get-sum", servers), { server: "everything", tool: "get-sum" });
    assert.deepEqual(mcpRoute("everything.a.b", servers), { server: "everything", tool: "a.b" });
    assert.deepEqual(mcpRoute("read", servers), { server: "files", tool: "read_file" });
    assert.equal(mcpRoute("files.read_file", servers), undefined);
    assert.equal(mcpRoute("everything.", servers), undefined);
    assert.equal(mcpRoute("nobody.echo", servers), undefined);
    assert.equal(mcpPlanName("everything", "echo", {}), "everything.echo");
    assert.equal(mcpPlanName("files", "read_file", { tools: { read: "read_file" } }), "read");
    assert.equal(mcpPlanName("files", "write_file", { tools: { read: "read_file" } }), undefined);
  });

  test("capability terms accept dotted and dashed names, bare or quoted, as one capability", () => {
    assert.equal(capabilityKey("tool(everything.echo)"), "tool('everything.echo')");
    assert.equal(capabilityKey("tool('everything.echo')"), "tool('everything.echo')");
    assert.equal(capabilityKey("tool(everything.get-sum)"), "tool('everything.get-sum')");
    assert.equal(formatCapability({ kind: "tool", name: "everything.get-sum" }), "tool('everything.get-sum')");
  });
});
