// Semantic tokens over the protocol: what the server announces (full with delta, range), and
// when a host profile change turns a tool into a built-in, one refresh request to clients that
// support it. Which tokens a plan has is test/service/semanticTokens.plan.test.ts.

import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import {
  FileChangeType,
  SemanticTokensRefreshRequest,
  SemanticTokensRequest,
  type SemanticTokensLegend,
} from "vscode-languageserver-protocol/node";
import { decode } from "../support/semanticTokenRows";
import { hostProfile, LspClient, TempWorkspace } from "./support/lspClient";

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

  it("announces full tokens with deltas, and ranges", () => {
    const provider = client.initializeResult?.capabilities.semanticTokensProvider;
    assert.ok(provider, "semanticTokensProvider announced");
    assert.deepEqual(provider.full, { delta: true });
    assert.equal(provider.range, true);
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
