// Workspace symbols over the protocol: the bindings and tool calls of every plan below the
// workspace folder, open or not (an open plan's unsaved text wins), filtered by the query.

import assert from "node:assert/strict";
import { writeFileSync } from "node:fs";
import { after, before, describe, it } from "node:test";
import { WorkspaceSymbolRequest, type SymbolInformation } from "vscode-languageserver-protocol/node";
import { LspClient, TempWorkspace } from "../protocol/support/lspClient";

const plan = (tool: string, bind: string) =>
  JSON.stringify({
    steps: [
      { op: "tool", name: tool, args: [], bind },
      { op: "rlm", plan: { steps: [{ op: "final", value: 1 }] }, bind: `${bind}_sub` },
      { op: "final", value: { ref: "var", name: bind } },
    ],
  });

describe("workspace symbols", () => {
  const workspace = new TempWorkspace({
    "a/one.rlmplan.json": plan("count_items", "total"),
    "b/two.rlmplan": plan("word_count", "words"),
    "node_modules/dep/skip.rlmplan.json": plan("hidden", "nope"),
    "rlmplan.host.json": "{}",
  });
  let client: LspClient;
  before(async () => {
    client = await LspClient.start({ root: workspace.root });
  });
  after(async () => {
    await client.stop();
    workspace.dispose();
  });

  const search = async (query: string) =>
    ((await client.connection.sendRequest(WorkspaceSymbolRequest.type, { query })) ?? []) as SymbolInformation[];
  const brief = (symbols: SymbolInformation[]) =>
    symbols.map((s) => [s.name, s.containerName, s.location.uri.slice(s.location.uri.lastIndexOf("/") + 1)]);

  it("every binding and tool call of the plans on disk; node_modules is not searched", async () => {
    assert.deepEqual(brief(await search("")), [
      ["total", "tool count_items · a/one.rlmplan.json", "one.rlmplan.json"],
      ["count_items", "tool · a/one.rlmplan.json", "one.rlmplan.json"],
      ["total_sub", "rlm · a/one.rlmplan.json", "one.rlmplan.json"],
      ["words", "tool word_count · b/two.rlmplan", "two.rlmplan"],
      ["word_count", "tool · b/two.rlmplan", "two.rlmplan"],
      ["words_sub", "rlm · b/two.rlmplan", "two.rlmplan"],
    ]);
  });

  it("the query filters by letters in order, any case", async () => {
    assert.deepEqual(
      (await search("WdS")).map((s) => s.name),
      ["words", "words_sub"],
    );
  });

  it("an open plan's current text is searched instead of the file; a change on disk is read again", async () => {
    const uri = await client.open(workspace.path("a/one.rlmplan.json"), plan("sum", "renamed"));
    assert.deepEqual(
      (await search("renamed")).map((s) => [s.name, s.location.uri === uri]),
      [
        ["renamed", true],
        ["renamed_sub", true],
      ],
    );
    await client.close(uri);
    writeFileSync(workspace.path("b/two.rlmplan"), plan("word_count", "fresh") + "\n");
    assert.deepEqual(
      (await search("fresh")).map((s) => s.name),
      ["fresh", "fresh_sub"],
    );
  });
});
