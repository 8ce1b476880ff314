// Semantic tokens over the protocol: the legend announced, the exact tokens of a small plan
// (decoded from the relative encoding), a range request, and a delta after an edit.

import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import {
  FileChangeType,
  SemanticTokensDeltaRequest,
  SemanticTokensRefreshRequest,
  SemanticTokensRangeRequest,
  SemanticTokensRequest,
  type SemanticTokens,
  type SemanticTokensDelta,
  type SemanticTokensLegend,
} from "vscode-languageserver-protocol/node";
import { hostProfile, LspClient, TempWorkspace } from "../protocol/support/lspClient";

const HOST = hostProfile({
  capabilities: ["context(search)", "tool(count)", "tool(shout)", "model(local)", "rlm"],
  inputs: { doc: { type: "text", text: "x\ny" } },
  tools: { count: { type: "builtin", builtin: "count_items" }, shout: { type: "command", command: ["cat"] } },
  providers: { local: { type: "openai-chat", baseUrl: "http://127.0.0.1:9/v1", model: "tiny" } },
});

const PLAN = `{"steps": [
  {"op": "context", "handle": {"ref": "input", "name": "doc"}, "action": {"type": "search", "pattern": "x"}, "bind": "hits"},
  {"op": "tool", "name": "count", "args": {"ref": "var", "name": "hits"}, "bind": "n"},
  {"op": "rlm", "plan": {"steps": [
    {"op": "tool", "name": "shout", "args": {"ref": "field", "value": {"ref": "var", "name": "n"}, "key": "k"}, "bind": "s"},
    {"op": "final", "value": {"ref": "var", "name": "s"}}
  ]}, "bind": "sub"},
  {"op": "model", "provider": "local", "prompt": {"ref": "var", "name": "nope"}, "bind": "m"},
  {"op": "final", "value": {"ref": "var", "name": "sub"}}
]}
`;

type Row = readonly [line: number, character: number, text: string, type: string, ...modifiers: string[]];

/** The relative encoding back to absolute rows, each with its text and named type and modifiers. */
function decode(data: readonly number[], legend: SemanticTokensLegend, text: string): Row[] {
  const lines = text.split("\n");
  const rows: Row[] = [];
  let line = 0;
  let character = 0;
  for (let i = 0; i < data.length; i += 5) {
    const [dLine, dChar, length, type, bits] = data.slice(i, i + 5) as [number, number, number, number, number];
    line += dLine;
    character = dLine === 0 ? character + dChar : dChar;
    const modifiers = legend.tokenModifiers.filter((_, bit) => (bits & (1 << bit)) !== 0);
    const source = (lines[line] ?? "").slice(character, character + length);
    rows.push([line, character, source, legend.tokenTypes[type] ?? `?${type}`, ...modifiers]);
  }
  return rows;
}

const EXPECTED: Row[] = [
  [1, 9, '"context"', "keyword"],
  [1, 55, '"doc"', "parameter"],
  [1, 82, '"search"', "method"],
  [1, 117, '"hits"', "variable", "declaration", "readonly"],
  [2, 9, '"tool"', "keyword"],
  [2, 25, '"count"', "function", "defaultLibrary"],
  [2, 65, '"hits"', "variable", "readonly"],
  [2, 82, '"n"', "variable", "declaration", "readonly"],
  [3, 9, '"rlm"', "keyword"],
  [4, 11, '"tool"', "keyword"],
  [4, 27, '"shout"', "function"],
  [4, 93, '"n"', "variable", "readonly"],
  [4, 106, '"k"', "property"],
  [4, 120, '"s"', "variable", "declaration", "readonly"],
  [5, 11, '"final"', "keyword"],
  [5, 52, '"s"', "variable", "readonly"],
  [6, 14, '"sub"', "variable", "declaration", "readonly"],
  [7, 9, '"model"', "keyword"],
  [7, 30, '"local"', "namespace"],
  [7, 72, '"nope"', "variable"],
  [7, 89, '"m"', "variable", "declaration", "readonly"],
  [8, 9, '"final"', "keyword"],
  [8, 50, '"sub"', "variable", "readonly"],
];

describe("semantic tokens", () => {
  const workspace = new TempWorkspace({ "rlmplan.host.json": HOST });
  let client: LspClient;
  let legend: SemanticTokensLegend;
  before(async () => {
    client = await LspClient.start({ root: workspace.root });
    const provider = client.initializeResult?.capabilities.semanticTokensProvider;
    assert.ok(provider, "semanticTokensProvider announced");
    assert.deepEqual(provider.full, { delta: true });
    assert.equal(provider.range, true);
    legend = provider.legend;
  });
  after(async () => {
    await client.stop();
    workspace.dispose();
  });

  it("announces a legend of standard types and modifiers", () => {
    assert.deepEqual(legend, {
      tokenTypes: ["keyword", "variable", "parameter", "function", "namespace", "method", "property"],
      tokenModifiers: ["declaration", "readonly", "defaultLibrary"],
    });
  });

  it("colours every name the model knows, in document order", async () => {
    const uri = await client.open(workspace.path("tokens.rlmplan.json"), PLAN);
    const tokens = await client.connection.sendRequest(SemanticTokensRequest.type, { textDocument: { uri } });
    await client.close(uri);
    assert.ok(tokens);
    assert.deepEqual(decode(tokens.data, legend, PLAN), EXPECTED);
  });

  it("answers a range with the tokens on its lines only", async () => {
    const uri = await client.open(workspace.path("range.rlmplan.json"), PLAN);
    const tokens = await client.connection.sendRequest(SemanticTokensRangeRequest.type, {
      textDocument: { uri },
      range: { start: { line: 4, character: 0 }, end: { line: 6, character: 0 } },
    });
    await client.close(uri);
    assert.deepEqual(
      decode(tokens?.data ?? [], legend, PLAN),
      EXPECTED.filter(([line]) => line === 4 || line === 5),
    );
  });

  it("answers a delta against the previous result after an edit", async () => {
    const uri = await client.open(workspace.path("delta.rlmplan.json"), PLAN);
    const first = await client.connection.sendRequest(SemanticTokensRequest.type, { textDocument: { uri } });
    assert.ok(first?.resultId);
    // The last reference now names nothing in scope: it loses its "readonly" modifier only.
    const edited = PLAN.replace('"name": "sub"}}', '"name": "subb"}}');
    await client.change(uri, edited);
    const delta = (await client.connection.sendRequest(SemanticTokensDeltaRequest.type, {
      textDocument: { uri },
      previousResultId: first.resultId,
    })) as SemanticTokensDelta | SemanticTokens | null;
    await client.close(uri);
    assert.ok(delta && "edits" in delta, "a delta, not a full answer");
    const data = [...first.data];
    for (const edit of [...delta.edits].sort((a, b) => b.start - a.start))
      data.splice(edit.start, edit.deleteCount, ...(edit.data ?? []));
    const rows = decode(data, legend, edited);
    assert.deepEqual(rows.at(-1), [8, 50, '"subb"', "variable"]);
    assert.deepEqual(rows.slice(0, -1), EXPECTED.slice(0, -1));
  });
});

describe("semantic tokens: a host profile change", () => {
  const hostWith = (tools: Record<string, unknown>) => hostProfile({ capabilities: ["tool(count)"], tools });
  const workspace = new TempWorkspace({
    "rlmplan.host.json": hostWith({ count: { type: "command", command: ["wc"] } }),
  });
  const plan = `{"steps": [{"op": "tool", "name": "count", "args": [1], "bind": "n"}, {"op": "final", "value": 1}]}`;
  let client: LspClient;
  let refreshes = 0;
  before(async () => {
    client = await LspClient.start({
      root: workspace.root,
      workspaceCapabilities: { semanticTokens: { refreshSupport: true } },
    });
    client.connection.onRequest(SemanticTokensRefreshRequest.type, () => {
      refreshes++;
    });
  });
  after(async () => {
    await client.stop();
    workspace.dispose();
  });

  it("the tool becomes a built-in: one refresh, and the tool token gains defaultLibrary", async () => {
    const uri = await client.open(workspace.path("p.rlmplan.json"), plan);
    await client.waitForDiagnostics(uri);
    const legend = client.initializeResult?.capabilities.semanticTokensProvider?.legend as SemanticTokensLegend;
    const toolRow = async () =>
      decode(
        (await client.connection.sendRequest(SemanticTokensRequest.type, { textDocument: { uri } }))?.data ?? [],
        legend,
        plan,
      )[1];
    assert.deepEqual(await toolRow(), [0, 34, '"count"', "function"]);
    assert.equal(refreshes, 0, "opening a plan asks for no refresh");
    workspace.write("rlmplan.host.json", hostWith({ count: { type: "builtin", builtin: "count_items" } }));
    await client.filesChanged([{ uri: workspace.uri("rlmplan.host.json"), type: FileChangeType.Changed }]);
    for (let i = 0; i < 200 && refreshes === 0; i++) await new Promise((resolve) => setTimeout(resolve, 25));
    assert.equal(refreshes, 1);
    assert.deepEqual(await toolRow(), [0, 34, '"count"', "function", "defaultLibrary"]);
  });
});
