// Links, definitions and references between workspace files over the protocol, against one
// golden file (test/protocol/golden/navigation/): document links in a plan (an input's file, a
// tool's script, an MCP tool's server program), a host profile (input paths, command argv, MCP
// command and args) and a test file (`plan`, `cassette`, `dataset.file`); go to definition from a
// tool or input name to its host-profile entry and its file; references from a host profile's
// tool entry to its calls across the workspace, plans not open included. Paths outside the
// workspace boundary (an absolute /etc path) and names that are not files (`node`) get no link.

import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import {
  DefinitionRequest,
  DocumentLinkRequest,
  ReferencesRequest,
  type Location,
  type Range,
} from "vscode-languageserver-protocol/node";
import { expectProtocolGolden } from "./support/golden";
import { hostProfile, LspClient, positionAt, TempWorkspace } from "./support/lspClient";

const HOST = {
  capabilities: ["tool(summarize)", "tool(files.read)", "tool(count_items)"],
  inputs: { doc: { type: "text-file", path: "data/doc.txt" } },
  tools: {
    count_items: { type: "builtin", builtin: "count_items" },
    summarize: { type: "command", command: ["node", "tools/summarize.js"] },
  },
  mcpServers: { files: { command: "node", args: ["mcp/files.js"] } },
};
const MAIN = `{
  "steps": [
    { "op": "context", "handle": { "ref": "input", "name": "doc" }, "action": { "type": "search", "pattern": "a" }, "bind": "hits" },
    { "op": "tool", "name": "summarize", "args": [{ "ref": "var", "name": "hits" }], "bind": "s" },
    { "op": "tool", "name": "files.read", "args": ["a"], "bind": "f" },
    { "op": "tool", "name": "count_items", "args": [1], "bind": "n" },
    { "op": "final", "value": { "ref": "var", "name": "s" } }
  ]
}`;
const OTHER = `{
  "steps": [
    { "op": "tool", "name": "summarize", "args": [1], "bind": "s" },
    { "op": "final", "value": { "ref": "var", "name": "s" } }
  ]
}`;
const TEST_FILE = `{
  "plan": "main.rlmplan.json",
  "cassette": "cassettes/main.json",
  "cases": [{ "name": "outside", "cassette": "/etc/hostname", "expect": { "value": { "equals": 1 } } }],
  "dataset": { "file": "rows.jsonl" }
}`;

describe("links, definitions and references across workspace files", () => {
  const hostText = hostProfile(HOST);
  const workspace = new TempWorkspace({
    "rlmplan.host.json": hostText,
    "data/doc.txt": "a\n",
    "tools/summarize.js": "",
    "mcp/files.js": "",
    "cassettes/main.json": "{}",
    "rows.jsonl": "",
    "main.rlmplan.json": MAIN,
    "plans/other.rlmplan.json": OTHER,
    "main.rlmplan.test.json": TEST_FILE,
  });
  let client: LspClient;
  const lines: string[] = [];
  const uris = { main: "", host: "", test: "" };
  before(async () => {
    client = await LspClient.start({ root: workspace.root });
    uris.main = await client.open(workspace.path("main.rlmplan.json"), MAIN);
    uris.host = await client.open(workspace.path("rlmplan.host.json"), hostText, "json");
    uris.test = await client.open(workspace.path("main.rlmplan.test.json"), TEST_FILE, "json");
  });
  after(async () => {
    await client.stop();
    workspace.dispose();
  });

  const relative = (uri: string | undefined) => (uri ?? "").slice(workspace.uri("").length + 1);
  const at = (range: Range) =>
    `${range.start.line + 1}:${range.start.character + 1}-${range.end.line + 1}:${range.end.character + 1}`;
  const where = (location: Location) => `${relative(location.uri)}:${at(location.range)}`;

  it("links the paths written in a plan, a host profile and a test file", async () => {
    assert.ok(client.initializeResult?.capabilities.documentLinkProvider);
    for (const [name, uri] of [
      ["plan", uris.main],
      ["host profile", uris.host],
      ["test file", uris.test],
    ] as const) {
      const links = (await client.connection.sendRequest(DocumentLinkRequest.type, { textDocument: { uri } })) ?? [];
      lines.push(`links of the ${name}:`);
      for (const link of links) lines.push(`  ${at(link.range)} → ${relative(link.target)}`);
    }
  });

  it("goes from a tool or input name to its host-profile entry and its file", async () => {
    for (const needle of ['"summarize"', '"files.read"', '"doc"', '"count_items"']) {
      const position = positionAt(MAIN, MAIN.indexOf(needle) + 1);
      const found = (await client.connection.sendRequest(DefinitionRequest.type, {
        textDocument: { uri: uris.main },
        position,
      })) as Location[];
      lines.push(`definition of ${needle}: ${found.map(where).join(", ")}`);
    }
  });

  it("finds a host profile's tool entry's calls across the workspace", async () => {
    for (const needle of ['"summarize"', '"files"']) {
      const position = positionAt(hostText, hostText.indexOf(needle) + 1);
      const found = await client.connection.sendRequest(ReferencesRequest.type, {
        textDocument: { uri: uris.host },
        position,
        context: { includeDeclaration: true },
      });
      lines.push(`references of ${needle} in the host profile: ${(found ?? []).map(where).join(", ")}`);
    }
    // The three tests' answers, in order, against the golden file.
    expectProtocolGolden(`${lines.join("\n")}\n`, "navigation", "links.expected.txt");
  });
});
