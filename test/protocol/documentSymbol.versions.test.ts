// The outline over the protocol, per version: the server keeps each document's outline for its
// current version (an editor asks after every change, twice with the breadcrumbs); after a change
// the answer is the new text's outline, never the kept one.

import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { DocumentSymbolRequest, type DocumentSymbol } from "vscode-languageserver-protocol/node";
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
});
