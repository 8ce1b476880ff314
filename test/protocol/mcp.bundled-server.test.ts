// The language server as the extension ships it: bundled, with the MCP SDK in a file of its own
// (dist/mcp-sdk.js) that the server requires only when a host profile's MCP server is asked.
// The bundles (the server, the SDK's file, and the supervisor every MCP server runs under) are
// built here with scripts/bundle.mjs's own options into a temporary folder; the server then
// lists the tools of the real reference MCP server through that file.

import assert from "node:assert/strict";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, describe, it } from "node:test";
import { bundleInto, REPOSITORY_ROOT } from "../support/bundleScript";
import { hostProfile, LspClient, TempWorkspace } from "./support/lspClient";

const EVERYTHING = join(
  REPOSITORY_ROOT,
  "node_modules",
  "@modelcontextprotocol",
  "server-everything",
  "dist",
  "index.js",
);

const dist = mkdtempSync(join(tmpdir(), "rlm-plan-bundle-"));
let inputs = new Map<string, string[]>();
let client: LspClient | undefined;
let workspace: TempWorkspace | undefined;

before(async () => {
  inputs = await bundleInto(dist, ["dist/server.js", "dist/mcp-sdk.js", "dist/supervisor.js"]);
});

after(async () => {
  await client?.stop();
  workspace?.dispose();
  rmSync(dist, { recursive: true, force: true });
});

describe("the bundled language server and the MCP SDK", () => {
  it("leaves the SDK and zod out of the server's bundle and requires them from mcp-sdk.js", () => {
    const server = inputs.get("dist/server.js") ?? [];
    assert.ok(server.includes("server/out/lsp/main.js"), server.slice(0, 3).join(", "));
    const sdkInServer = server.filter((i) => /node_modules\/(zod|@modelcontextprotocol)\//.test(i));
    assert.deepEqual(sdkInServer, []);
    assert.ok((inputs.get("dist/mcp-sdk.js") ?? []).some((i) => i.includes("node_modules/zod/")));
    assert.match(readFileSync(join(dist, "server.js"), "utf8"), /require\("\.\/mcp-sdk\.js"\)/);
  });

  it("lists an MCP server's tools through the SDK's own file", async () => {
    workspace = new TempWorkspace({
      "rlmplan.host.json": hostProfile({
        capabilities: ["tool(everything.echo)"],
        mcpServers: {
          everything: { command: process.execPath, args: [EVERYTHING, "stdio"], startupTimeoutMs: 30_000 },
        },
      }),
    });
    client = await LspClient.start({
      root: workspace.root,
      settings: { listMcpTools: true },
      serverMain: join(dist, "server.js"),
    });
    const plan = `{ "steps": [
      { "op": "tool", "name": "everything.echo", "args": { "message": 5 }, "bind": "a" },
      { "op": "final", "value": { "ref": "var", "name": "a" } } ] }`;
    const uri = await client.open(workspace.path("p.rlmplan.json"), plan);
    const diagnostics = await client.waitForDiagnostics(uri, (all) =>
      all.some((d) => d.code === "invalid_tool_arguments"),
    );
    assert.deepEqual(
      diagnostics.map((d) => [d.code, d.message]),
      [
        [
          "invalid_tool_arguments",
          'tool "everything.echo": argument "message" must be text, got the number 5 (its input schema)',
        ],
      ],
    );
  });
});
