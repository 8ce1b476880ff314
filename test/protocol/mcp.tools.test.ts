// MCP tools in the editor, over the protocol against the real reference server: with
// rlmPlan.listMcpTools on, the server lists the profile's MCP tools lazily, plans get argument
// errors as warnings on the exact token, hover shows a tool's description and input schema, and
// completion offers its argument keys; a server that cannot start is a warning on the calls of
// its tools; with the setting off nothing is started and the tools are trusted by name.

import assert from "node:assert/strict";
import { join, resolve } from "node:path";
import { describe, it } from "node:test";
import { DiagnosticSeverity, type Diagnostic } from "vscode-languageserver-protocol/node";
import { fixture, hostProfile, rangeOf, withServer } from "@rlm-plan/lsp-harness";

const ROOT = resolve(__dirname, "..", "..", "..");
const EVERYTHING = join(ROOT, "node_modules", "@modelcontextprotocol", "server-everything", "dist", "index.js");

const HOST = {
  capabilities: ["tool(everything.echo)", "tool(everything.get-sum)", "tool(gone.x)"],
  mcpServers: {
    everything: { command: process.execPath, args: [EVERYTHING, "stdio"], startupTimeoutMs: 30_000 },
    gone: { command: "./no-such-server" },
  },
};

const PLAN = `{
  "steps": [
    { "op": "tool", "name": "everything.echo", "args": { "message": 5 }, "bind": "a" },
    { "op": "tool", "name": "everything.get-sum", "args": { "a": 1, "b": 2 }, "bind": "b" },
    { "op": "tool", "name": "gone.x", "args": {}, "bind": "c" },
    { "op": "final", "value": [{"ref": "var", "name": "a"}, {"ref": "var", "name": "b"}, {"ref": "var", "name": "c"}] }
  ]
}`;

const FILES = { "rlmplan.host.json": hostProfile(HOST) };

const brief = (d: Diagnostic) => [d.code, d.severity, d.message, d.range.start.line];
const listed = (diagnostics: Diagnostic[]) => diagnostics.some((d) => d.code === "invalid_tool_arguments");

describe("MCP tools in the editor", () => {
  it("lists the tools lazily, then checks arguments and notes the server that could not start", () =>
    withServer({ files: FILES, settings: { listMcpTools: true } }, async (server) => {
      const { client } = server;
      const { uri, diagnostics } = await server.open("p.rlmplan.json", PLAN, { accept: listed });
      assert.deepEqual(diagnostics.map(brief), [
        [
          "invalid_tool_arguments",
          DiagnosticSeverity.Warning,
          'tool "everything.echo": argument "message" must be text, got the number 5 (its input schema)',
          2,
        ],
        [
          "tool_source_unavailable",
          DiagnosticSeverity.Warning,
          'MCP server "gone" could not be started: command "./no-such-server" was not found: the arguments of tool "gone.x" are not checked',
          4,
        ],
      ]);
      assert.deepEqual(diagnostics[0]?.range, rangeOf(PLAN, "5"));

      const profileText = hostProfile(HOST);
      const { diagnostics: profileDiagnostics } = await server.open("rlmplan.host.json", profileText, {
        languageId: "jsonc",
        accept: (d) => d.length > 0,
      });
      assert.deepEqual(profileDiagnostics.map(brief), [
        [
          "mcp_server_unavailable",
          DiagnosticSeverity.Warning,
          'MCP server "gone" could not be started: command "./no-such-server" was not found: plans cannot call its tools, and their arguments are not checked',
          rangeOf(profileText, '"gone"').start.line,
        ],
        [
          "no_lock",
          DiagnosticSeverity.Hint,
          "no rlmplan.lock.json: the profile's tools are trusted by name; pin them with rlm-plan lock (or Create Lock) so that runs refuse a tool that changed",
          0,
        ],
      ]);
      assert.deepEqual(profileDiagnostics[0]?.range, rangeOf(profileText, '"gone"'));

      const hover = await client.hover(uri, fixture(PLAN.replace('"everything.echo"', '"everything.e|cho"')).position);
      const text = hover && typeof hover.contents === "object" && "value" in hover.contents ? hover.contents.value : "";
      assert.match(
        text,
        /^\*\*tool\*\* `everything\.echo`\n\nMCP tool of MCP server "everything"\n\nEchoes back the input string\n\nInput schema:\n\n```json\n\{/,
      );
      assert.match(text, /"message": \{\n\s+"type": "string",\n\s+"description": "Message to echo"/);

      const { text: typing, position } = fixture(PLAN.replace('"args": { "a": 1, "b": 2 }', '"args": { "a": 1, | }'));
      const { uri: typed } = await server.open("q.rlmplan.json", typing, { accept: listed });
      const items = await client.completion(typed, position);
      assert.deepEqual(
        items.map((item) => [
          item.label,
          item.detail,
          item.textEdit && "newText" in item.textEdit ? item.textEdit.newText : "",
        ]),
        [["b", "required argument", '"b": ']],
      );
    }));

  it("with listMcpTools off, starts nothing and trusts SERVER.TOOL names", () =>
    withServer({ files: FILES }, async (server) => {
      const { uri, diagnostics } = await server.open("p.rlmplan.json", PLAN);
      const { client } = server;
      assert.deepEqual(diagnostics.map(brief), []);
      const hover = await client.hover(uri, fixture(PLAN.replace('"gone.x"', '"gone|.x"')).position);
      const text = hover && typeof hover.contents === "object" && "value" in hover.contents ? hover.contents.value : "";
      assert.match(text, /whose tools have not been listed/);
    }));
});
