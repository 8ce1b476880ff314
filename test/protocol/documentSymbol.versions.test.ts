// The outline over the protocol, per version: the server keeps each document's outline for its
// current version (an editor asks after every change, twice with the breadcrumbs); after a change
// the answer is the new text's outline, never the kept one. An ask with a change right behind it
// answers ContentModified (the editor asks again): the outline of a text it has left is not built.

import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { DocumentSymbolRequest, LSPErrorCodes, type DocumentSymbol } from "vscode-languageserver-protocol/node";
import { useServer } from "@rlm-plan/lsp-harness/suite";

const plan = (binds: string[]) =>
  JSON.stringify({
    steps: [
      ...binds.map((bind) => ({ op: "tool", name: "t", args: 1, bind })),
      { op: "final", value: { ref: "var", name: binds[0] } },
    ],
  });

describe("documentSymbol: one outline per version", () => {
  const server = useServer();

  it("answers each version's outline, asked twice, then after a change", async () => {
    const { uri } = await server.open("outline.rlmplan.json", plan(["a", "b"]));
    const client = server.client;
    const outline = async () =>
      (
        (await client.connection.sendRequest(DocumentSymbolRequest.type, { textDocument: { uri } })) as DocumentSymbol[]
      ).map((symbol) => symbol.name);
    assert.deepEqual(await outline(), ["tool → a", "tool → b", "final"]);
    assert.deepEqual(await outline(), ["tool → a", "tool → b", "final"]);

    // Kept for version 1, asked again after a change: the new text's outline.
    await client.change(uri, plan(["a", "b", "c"]));
    assert.deepEqual(await outline(), ["tool → a", "tool → b", "tool → c", "final"]);
  });

  it("an ask with a change right behind it answers ContentModified, and the next ask the new outline", async () => {
    const { uri } = await server.open("behind.rlmplan.json", plan(["a"]));
    const client = server.client;
    // A plan the server analyses for a while, so that the ask and the change below arrive together.
    const busy = plan(Array.from({ length: 20_000 }, (_, i) => `b${i}`));
    await client.open(server.workspace.path("busy.rlmplan.json"), busy);
    const asked = client.connection.sendRequest(DocumentSymbolRequest.type, { textDocument: { uri } }).then(
      () => "answered",
      (error: { code?: number; message?: string }) => [error.code, error.message],
    );
    await client.change(uri, plan(["a", "c"]));
    assert.deepEqual(await asked, [LSPErrorCodes.ContentModified, "the document changed while its outline was asked"]);
    const symbols = await client.connection.sendRequest(DocumentSymbolRequest.type, { textDocument: { uri } });
    assert.deepEqual(
      (symbols as DocumentSymbol[]).map((symbol) => symbol.name),
      ["tool → a", "tool → c", "final"],
    );
  });
});
