// Binding type hints over the protocol: off by default, on with rlmPlan.inlayHints.bindingTypes,
// and a client that supports it is asked to refresh its hints when the setting changes. What
// each hint says is the goldens of test/service/golden/inlay-hints-binding-types/.

import assert from "node:assert/strict";
import { after, describe, it } from "node:test";
import { InlayHintRefreshRequest, InlayHintRequest } from "vscode-languageserver-protocol/node";
import { LspClient, TempWorkspace } from "./support/lspClient";

const PLAN = `{
  "steps": [
    { "op": "rlm", "plan": { "steps": [{ "op": "final", "value": "x" }] }, "bind": "word" },
    { "op": "final", "value": { "ref": "var", "name": "word" } }
  ]
}`;

describe("inlay hints: binding types", () => {
  const workspace = new TempWorkspace({});
  let client: LspClient | undefined;
  after(async () => {
    await client?.stop();
    workspace.dispose();
  });

  it("shows each binding's type once the setting is on, and asks the client to refresh", async () => {
    let refreshes = 0;
    client = await LspClient.start({
      root: workspace.root,
      workspaceCapabilities: { inlayHint: { refreshSupport: true } },
      onConnection: (connection) =>
        connection.onRequest(InlayHintRefreshRequest.type, () => {
          refreshes++;
        }),
    });
    const uri = await client.open(workspace.path("p.rlmplan.json"), PLAN);
    const range = { start: { line: 0, character: 0 }, end: { line: 6, character: 0 } };
    const ask = () => client?.connection.sendRequest(InlayHintRequest.type, { textDocument: { uri }, range });
    assert.deepEqual(await ask(), []);
    await client.configure({ inlayHints: { bindingTypes: true } });
    for (let i = 0; i < 250 && refreshes === 0; i++) await new Promise((resolve) => setTimeout(resolve, 20));
    assert.equal(refreshes, 1);
    assert.deepEqual(
      (await ask())?.map((hint) => [hint.position, hint.label]),
      [[{ line: 2, character: 89 }, ": string"]],
    );
  });
});
