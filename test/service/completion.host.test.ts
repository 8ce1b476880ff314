// Completion from the host profile over the protocol: input, tool and provider names in plans;
// capability strings in the host profile itself (fixed ones, what it registers, what open plans use).

import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import type { CompletionItem } from "vscode-languageserver-protocol/node";
import { fixture, hostProfile, LspClient, TempWorkspace } from "../protocol/support/lspClient";
import { HOST } from "../protocol/support/sampleWorkspace";

describe("completion: names from the host profile", () => {
  const workspace = new TempWorkspace({ "rlmplan.host.json": hostProfile(HOST) });
  let client: LspClient;
  let count = 0;
  before(async () => {
    client = await LspClient.start({ root: workspace.root });
  });
  after(async () => {
    await client.stop();
    workspace.dispose();
  });

  async function complete(
    marked: string,
    name = `h${count++}.rlmplan.json`,
    languageId?: string,
  ): Promise<CompletionItem[]> {
    const { text, position } = fixture(marked);
    const uri = await client.open(workspace.path(name), text, languageId);
    const items = await client.completion(uri, position);
    await client.close(uri);
    return items;
  }

  const brief = (items: CompletionItem[]) => items.map((item) => [item.label, item.detail]);

  it("input names at an input reference", async () => {
    assert.deepEqual(brief(await complete('{"steps": [{"op": "final", "value": {"ref": "input", "name": |}}]}')), [
      ["doc", "context: inline text (5 characters)"],
      ["limit", "value: a number"],
    ]);
  });

  it("tool names at a tool step's name, provider names at a model step's provider", async () => {
    const tools = await complete('{"steps": [{"op": "tool", "name": "c|", "args": [], "bind": "x"}]}');
    assert.deepEqual(brief(tools), [
      ["count_items", "built-in tool count_items"],
      ["fetch", "command python3 (run without a shell, JSON on stdin and stdout)"],
    ]);
    assert.equal(tools[0]?.documentation, "Counts the items of a list");
    assert.deepEqual(brief(await complete('{"steps": [{"op": "model", "provider": |, "prompt": "p", "bind": "x"}]}')), [
      ["local", "OpenAI-compatible chat endpoint http://127.0.0.1:8080, model tiny"],
    ]);
  });

  it("input references among the expressions a step field offers", async () => {
    const items = await complete('{"steps": [{"op": "tool", "name": "fetch", "args": |, "bind": "x"}]}');
    assert.deepEqual(
      items.map((item) => [item.label, item.textEdit && "range" in item.textEdit ? item.textEdit.newText : undefined]),
      [
        ["input reference", '{"ref": "input", "name": "${1}"}'],
        ["var reference", '{"ref": "var", "name": "${1}"}'],
        ["field reference", '{"ref": "field", "value": ${1}, "key": "${2}"}'],
        ["doc", '{"ref": "input", "name": "doc"}'],
        ["limit", '{"ref": "input", "name": "limit"}'],
      ],
    );
  });

  it("capability strings in the host profile: fixed, registered and used by open plans, minus those listed", async () => {
    await client.open(
      workspace.path("plans/uses.rlmplan.json"),
      '{"steps": [{"op": "tool", "name": "word count", "args": [], "bind": "w"}, {"op": "model", "provider": "big", "prompt": "p", "bind": "m"}, {"op": "final", "value": 1}]}',
    );
    const profile = {
      ...HOST,
      capabilities: ["tool(count_items)", "context(search)", "retry", "checkpoint", "model(local)"],
    };
    const text = hostProfile(profile).replace('"model(local)"', '"model(local)",\n    |');
    const items = await complete(text, "rlmplan.host.json", "json");
    assert.deepEqual(brief(items), [
      ["context(slice)", undefined],
      ["context(peek)", undefined],
      ["context(partition)", undefined],
      ["context(map)", undefined],
      ["context(reduce)", undefined],
      ["rlm", undefined],
      ["parallel", undefined],
      ["model(big)", "used by an open plan"],
      ["tool('word count')", "used by an open plan"],
      ["tool(fetch)", undefined],
    ]);
  });

  it("nothing from a host that is not there", async () => {
    const bare = new TempWorkspace();
    try {
      const { text, position } = fixture('{"steps": [{"op": "tool", "name": |}]}');
      const uri = await client.open(bare.path("p.rlmplan.json"), text);
      assert.deepEqual(await client.completion(uri, position), []);
    } finally {
      bare.dispose();
    }
  });
});
