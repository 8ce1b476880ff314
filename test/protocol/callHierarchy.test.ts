// Call hierarchy over the protocol, both directions, against golden files
// (test/protocol/golden/call-hierarchy/): a plan's outgoing calls (its sub-plans, then the tools,
// providers and MCP servers each calls); a tool's, a provider's and an MCP server's incoming calls
// across the workspace, plans not open and test files included; prepared in a plan, on a name,
// and on a host profile's entry.

import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import {
  CallHierarchyIncomingCallsRequest,
  CallHierarchyOutgoingCallsRequest,
  CallHierarchyPrepareRequest,
  SymbolKind,
  type CallHierarchyItem,
  type Range,
} from "vscode-languageserver-protocol/node";
import { expectProtocolGolden } from "./support/golden";
import { hostProfile, LspClient, positionAt, TempWorkspace } from "./support/lspClient";

const HOST = {
  capabilities: ["tool(count_items)", "tool(files.read)", "model(local)"],
  tools: { count_items: { type: "builtin", builtin: "count_items" } },
  providers: { local: { type: "openai-chat", baseUrl: "http://127.0.0.1:9/v1", model: "tiny" } },
  mcpServers: { files: { command: "node", args: ["server.js"] } },
};
const MAIN = `{
  "steps": [
    { "op": "tool", "name": "count_items", "args": [1], "bind": "n" },
    { "op": "rlm", "bind": "inner", "plan": { "steps": [
      { "op": "model", "provider": "local", "prompt": "hi", "bind": "r" },
      { "op": "tool", "name": "files.read", "args": ["a"], "bind": "f" },
      { "op": "final", "value": { "ref": "var", "name": "f" } }
    ] } },
    { "op": "parallel", "bind": "both", "plans": [
      { "steps": [{ "op": "tool", "name": "count_items", "args": [2], "bind": "a" }, { "op": "final", "value": { "ref": "var", "name": "a" } }] },
      { "steps": [{ "op": "final", "value": 1 }] }
    ] },
    { "op": "final", "value": { "ref": "var", "name": "n" } }
  ]
}`;
const OTHER = `{
  "steps": [
    { "op": "tool", "name": "count_items", "args": [3], "bind": "n" },
    { "op": "final", "value": { "ref": "var", "name": "n" } }
  ]
}`;
const TEST_FILE = `{
  "plan": "main.rlmplan.json",
  "cases": [{ "name": "runs", "expect": { "value": { "equals": 1 } } }]
}`;

const KINDS: Record<number, string> = Object.fromEntries(
  Object.entries(SymbolKind).map(([name, kind]) => [kind, name]),
);

describe("call hierarchy", () => {
  const workspace = new TempWorkspace({
    "rlmplan.host.json": hostProfile(HOST),
    "plans/other.rlmplan.json": OTHER,
    "main.rlmplan.test.json": TEST_FILE,
  });
  let client: LspClient;
  let main: string;
  const lines: string[] = [];
  before(async () => {
    client = await LspClient.start({ root: workspace.root });
    main = await client.open(workspace.path("main.rlmplan.json"), MAIN);
  });
  after(async () => {
    await client.stop();
    workspace.dispose();
  });

  const root = () => `${workspace.uri("")}/`;
  const at = (range: Range) =>
    `${range.start.line + 1}:${range.start.character + 1}-${range.end.line + 1}:${range.end.character + 1}`;
  const show = (item: CallHierarchyItem) =>
    `${item.name} [${KINDS[item.kind] ?? item.kind}] ${item.detail ?? ""} @ ${item.uri.slice(root().length)}:${at(item.selectionRange)}`;
  async function prepare(uri: string, text: string, needle: string, offset = 1) {
    const position = positionAt(text, text.indexOf(needle) + offset);
    const items = await client.connection.sendRequest(CallHierarchyPrepareRequest.type, {
      textDocument: { uri },
      position,
    });
    assert.ok(items && items.length === 1, `one item at ${needle}`);
    return items[0] as CallHierarchyItem;
  }
  async function outgoing(item: CallHierarchyItem, depth = 0): Promise<void> {
    const calls = (await client.connection.sendRequest(CallHierarchyOutgoingCallsRequest.type, { item })) ?? [];
    for (const call of calls) {
      lines.push(`${"  ".repeat(depth + 1)}→ ${show(call.to)} from ${call.fromRanges.map(at).join(", ")}`);
      await outgoing(call.to, depth + 1);
    }
  }
  async function incoming(item: CallHierarchyItem) {
    const calls = (await client.connection.sendRequest(CallHierarchyIncomingCallsRequest.type, { item })) ?? [];
    for (const call of calls) lines.push(`  ← ${show(call.from)} from ${call.fromRanges.map(at).join(", ")}`);
  }

  it("goes down from a plan to its sub-plans, tools, providers and MCP servers", async () => {
    const plan = await prepare(main, MAIN, '"steps"');
    lines.push(`outgoing of ${show(plan)}`);
    await outgoing(plan);
    const sub = await prepare(main, MAIN, '"model"');
    lines.push(`prepared inside the rlm step: ${show(sub)}`);
  });

  it("goes up from a tool, a provider and an MCP server to their callers across the workspace", async () => {
    const tool = await prepare(main, MAIN, '"count_items"');
    lines.push(`incoming of ${show(tool)}`);
    await incoming(tool);
    const provider = await prepare(main, MAIN, '"local"');
    lines.push(`incoming of ${show(provider)}`);
    await incoming(provider);
    const hostText = hostProfile(HOST);
    const hostUri = await client.open(workspace.path("rlmplan.host.json"), hostText, "json");
    const server = await prepare(hostUri, hostText, '"files"');
    lines.push(`incoming of ${show(server)}`);
    await incoming(server);
    const plan = await prepare(main, MAIN, '"steps"');
    lines.push(`incoming of ${show(plan)}`);
    await incoming(plan);
    expectProtocolGolden(`${lines.join("\n")}\n`, "call-hierarchy", "workspace.expected.txt");
  });
});
