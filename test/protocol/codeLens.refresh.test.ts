// The worst-case lens depends on the host's budget: when the host profile changes, a client
// that supports it is asked to refresh its code lenses, and the next lens shows the new limit.

import assert from "node:assert/strict";
import { it } from "node:test";
import { CodeLensRefreshRequest, CodeLensRequest, FileChangeType } from "vscode-languageserver-protocol/node";
import { hostProfile } from "@rlm-plan/lsp-harness";
import { useServer } from "@rlm-plan/lsp-harness/suite";

const HOST = {
  capabilities: ["tool(count_items)"],
  tools: { count_items: { type: "builtin", builtin: "count_items" } },
};
const PLAN = `{"steps": [
  {"op": "tool", "name": "count_items", "args": [1], "bind": "n"},
  {"op": "final", "value": {"ref": "var", "name": "n"}}
]}`;

let refreshes = 0;
const server = useServer({
  files: { "rlmplan.host.json": hostProfile(HOST) },
  workspaceCapabilities: { codeLens: { refreshSupport: true } },
  onConnection: (connection) =>
    connection.onRequest(CodeLensRefreshRequest.type, () => {
      refreshes++;
    }),
});

async function worstCase(uri: string): Promise<string | undefined> {
  const lenses = await server.client.connection.sendRequest(CodeLensRequest.type, { textDocument: { uri } });
  return lenses?.[0]?.command?.title;
}

async function until(check: () => boolean, what: string): Promise<void> {
  for (let i = 0; i < 200 && !check(); i++) await new Promise((resolve) => setTimeout(resolve, 25));
  assert.ok(check(), `timed out waiting for ${what}`);
}

it("a changed host budget refreshes the lenses once, and the lens shows the new limit", async () => {
  const { workspace, client } = server;
  const { uri } = await server.open("p.rlmplan.json", PLAN);
  assert.equal(await worstCase(uri), "▶ Run plan (steps 2/64 · tools 1/16 · depth 1/4)");
  assert.equal(refreshes, 0, "opening a plan asks for no refresh");

  workspace.write("rlmplan.host.json", hostProfile({ ...HOST, budget: { max_tool_calls: 2 } }));
  await client.filesChanged([{ uri: workspace.uri("rlmplan.host.json"), type: FileChangeType.Changed }]);
  await until(() => refreshes === 1, "a code lens refresh");
  assert.equal(await worstCase(uri), "▶ Run plan (steps 2/64 · tools 1/2 · depth 1/4)");
});
