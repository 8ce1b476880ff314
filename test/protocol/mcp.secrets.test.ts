// The language server's output boundary against MCP servers that leak a provider key: one lists
// a tool whose description holds the key, another prints the key on stderr and exits. With
// rlmPlan.listMcpTools on, the key (an environment variable of the server's, as a provider key
// is) reaches no diagnostic, hover or completion in clear: every answer passes the session mask.
// The MCP servers are real processes speaking JSON-RPC over stdio (a minimal server written here).

import assert from "node:assert/strict";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, describe, it } from "node:test";
import { fixture, hostProfile, withServer } from "@rlm-plan/lsp-harness";

const SENTINEL = "sk-LspSentinel-9d2c5e81b4";
const dir = mkdtempSync(join(tmpdir(), "rlm-plan-mcp-secrets-"));
const LEAKY = join(dir, "leaky-server.js");

// A minimal MCP server: answers initialize and tools/list; its one tool's description is argv[2].
writeFileSync(
  LEAKY,
  `const description = process.argv[2];
let buffer = "";
process.stdin.on("data", (chunk) => {
  buffer += chunk;
  let end;
  while ((end = buffer.indexOf("\\n")) >= 0) {
    const message = JSON.parse(buffer.slice(0, end));
    buffer = buffer.slice(end + 1);
    if (message.id === undefined) continue;
    const result =
      message.method === "initialize"
        ? { protocolVersion: message.params.protocolVersion, capabilities: { tools: {} }, serverInfo: { name: "leaky", version: "1" } }
        : message.method === "tools/list"
          ? { tools: [{ name: "say", description, inputSchema: { type: "object" } }] }
          : {};
    process.stdout.write(JSON.stringify({ jsonrpc: "2.0", id: message.id, result }) + "\\n");
  }
});
`,
);

const HOST = {
  capabilities: ["tool(leaky.say)", "tool(noisy.x)"],
  mcpServers: {
    leaky: { command: process.execPath, args: [LEAKY, `Says things. The key is ${SENTINEL}.`] },
    noisy: { command: "sh", args: ["-c", `echo "failed with key ${SENTINEL}" >&2; exit 4`] },
  },
};

const PLAN = `{
  "steps": [
    { "op": "tool", "name": "leaky.say", "args": {}, "bind": "a" },
    { "op": "tool", "name": "noisy.x", "args": {}, "bind": "b" },
    { "op": "final", "value": 1 }
  ]
}`;

let saved: string | undefined;
before(() => {
  saved = process.env.RLM_PLAN_SENTINEL_API_KEY;
  // The server inherits the test's environment: the key is one of its secrets, as a provider key is.
  process.env.RLM_PLAN_SENTINEL_API_KEY = SENTINEL;
});
after(() => {
  if (saved === undefined) delete process.env.RLM_PLAN_SENTINEL_API_KEY;
  else process.env.RLM_PLAN_SENTINEL_API_KEY = saved;
  rmSync(dir, { recursive: true, force: true });
});

describe("MCP servers that leak a key, in the editor", () => {
  it("diagnostics, hover and completion show *** where the key was", () =>
    withServer(
      { files: { "rlmplan.host.json": hostProfile(HOST) }, settings: { listMcpTools: true } },
      async (server) => {
        const { client } = server;
        const { uri, diagnostics } = await server.open("p.rlmplan.json", PLAN, {
          accept: (d) => d.some((diagnostic) => diagnostic.code === "tool_source_unavailable"),
        });
        const noted = diagnostics.find((d) => d.code === "tool_source_unavailable");
        const message = typeof noted?.message === "string" ? noted.message : JSON.stringify(noted?.message);
        assert.match(message, /MCP server "noisy" could not be started: .*failed with key \*\*\*/);

        const hover = await client.hover(uri, fixture(PLAN.replace('"leaky.say"', '"leaky.s|ay"')).position);
        const contents = hover?.contents;
        const text =
          typeof contents === "object" && contents !== null && "value" in contents ? String(contents.value) : "";
        assert.match(text, /Says things\. The key is \*\*\*\./);

        const { text: typing, position } = fixture(PLAN.replace('"name": "leaky.say"', '"name": "leaky.|"'));
        const { uri: typed } = await server.open("q.rlmplan.json", typing);
        const items = await client.completion(typed, position);
        const said = items.find((item) => item.label === "leaky.say");
        assert.ok(said, `completion offers the MCP tool: ${JSON.stringify(items.map((i) => i.label))}`);

        const everything = JSON.stringify({ diagnostics, hover, items });
        assert.ok(everything.includes("***"), everything);
        assert.ok(!everything.toLowerCase().includes("lspsentinel"), `the key leaked: ${everything}`);
      },
    ));
});
