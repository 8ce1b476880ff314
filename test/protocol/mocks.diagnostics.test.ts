// Mocks files in the editor, over the protocol: what `run --mocks` would refuse is an error, and a
// mocked name the host profile registers nothing by is a warning on its key with the nearest name.

import assert from "node:assert/strict";
import { after, describe, it } from "node:test";
import { DiagnosticSeverity } from "vscode-languageserver-protocol/node";
import { hostProfile, LspClient, rangeOf, TempWorkspace } from "@rlm-plan/lsp-harness";

const HOST = {
  capabilities: ["tool(flaky_fetch)", "model(local)"],
  tools: { flaky_fetch: { type: "builtin", builtin: "count_items" } },
  providers: { local: { type: "openai-chat", baseUrl: "http://127.0.0.1:9/v1", model: "tiny" } },
};
const MOCKS = `{
  "tools": { "flaky_fetch": [{ "value": 1 }] },
  "providers": { "locl": [{ "value": { "text": "news" } }] }
}
`;

const clients: LspClient[] = [];
const workspaces: TempWorkspace[] = [];
after(async () => {
  for (const client of clients) await client.stop();
  for (const workspace of workspaces) workspace.dispose();
});

describe("diagnostics: mocks files", () => {
  it("a mock naming no provider of the host: a warning with the nearest name; a schema error: an error", async () => {
    const workspace = new TempWorkspace({ "rlmplan.host.json": hostProfile(HOST) });
    workspaces.push(workspace);
    const client = await LspClient.start({ root: workspace.root });
    clients.push(client);
    const uri = await client.open(workspace.path("mocks/triage.mocks.json"), MOCKS, "json");
    const found = await client.waitForDiagnostics(uri, (list) => list.length > 0);
    assert.deepEqual(
      found.map((d) => [d.range, d.severity, d.code, d.message]),
      [
        [
          rangeOf(MOCKS, '"locl"'),
          DiagnosticSeverity.Warning,
          "unused_mock",
          'the host registers no provider "locl", so this mock is never used: did you mean "local"?',
        ],
      ],
    );
    const fixed = MOCKS.replace('"locl"', '"local"').replace('"value": 1', '"valu": 1');
    await client.change(uri, fixed);
    const broken = await client.waitForDiagnostics(
      uri,
      (list) => list.length > 0 && list.every((d) => d.code === "invalid_mocks"),
    );
    assert.deepEqual(
      broken.map((d) => d.severity),
      broken.map(() => DiagnosticSeverity.Error),
    );
    const messages = broken.map((d) => (typeof d.message === "string" ? d.message : d.message.value));
    assert.ok(
      messages.some((m) => m.startsWith('unknown key "valu"')),
      JSON.stringify(messages),
    );
  });

  it("a mocks file nested too deep: one error that says so (it was told to flatten a plan)", async () => {
    const workspace = new TempWorkspace({ "rlmplan.host.json": hostProfile(HOST) });
    workspaces.push(workspace);
    const client = await LspClient.start({ root: workspace.root });
    clients.push(client);
    const deep = `{"tools": {"flaky_fetch": [{"value": ${"[".repeat(1200)}${"]".repeat(1200)}}]}}`;
    const uri = await client.open(workspace.path("mocks/deep.mocks.json"), deep, "json");
    const found = await client.waitForDiagnostics(uri, (list) => list.length > 0);
    assert.deepEqual(
      found.map((d) => [d.severity, d.code, d.message]),
      [
        [
          DiagnosticSeverity.Error,
          "invalid_mocks",
          "JSON nested too deep (over 1000 levels): the mocks file is not read",
        ],
      ],
    );
  });
});
