// Completion inside context actions and references over the protocol: action types (and whole
// actions as snippets), selectors, strategies, transforms, reducers and reference kinds.

import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import type { CompletionItem } from "vscode-languageserver-protocol/node";
import { fixture, LspClient, TempWorkspace } from "./support/lspClient";

describe("completion: actions and references", () => {
  const workspace = new TempWorkspace();
  let client: LspClient;
  let count = 0;
  before(async () => {
    client = await LspClient.start({ root: workspace.root });
  });
  after(async () => {
    await client.stop();
    workspace.dispose();
  });

  async function complete(marked: string): Promise<CompletionItem[]> {
    const { text, position } = fixture(marked);
    const uri = await client.open(workspace.path(`a${count++}.rlmplan.json`), text);
    return client.completion(uri, position);
  }

  const labelsAt = async (marked: string) => (await complete(marked)).map((item) => item.label);
  const newTexts = async (marked: string) =>
    (await complete(marked)).map((item) =>
      item.textEdit && "range" in item.textEdit ? item.textEdit.newText : undefined,
    );

  const step = (action: string) =>
    `{"steps": [{"op": "context", "handle": {"ref": "input", "name": "doc"}, "action": ${action}, "bind": "x"}]}`;

  it("action types at an action's type", async () => {
    assert.deepEqual(await labelsAt(step('{"type": |}')), ["search", "slice", "peek", "partition", "map", "reduce"]);
    assert.deepEqual(await labelsAt(step('{"type": "pa|"}')), [
      "search",
      "slice",
      "peek",
      "partition",
      "map",
      "reduce",
    ]);
  });

  it("whole actions as snippets at a context step's action", async () => {
    assert.deepEqual(await newTexts(step("|")), [
      '{"type": "search", "pattern": "${1}"}',
      '{"type": "slice", "start": ${1:0}, "length": ${2:1000}}',
      '{"type": "peek", "selector": ${1:"metadata"}}',
      '{"type": "partition", "strategy": {"type": "${1|fixed,lines|}", "size": ${2:1000}}}',
      '{"type": "map", "transform": "${1|identity,lowercase,uppercase,length|}"}',
      '{"type": "reduce", "reducer": "${1|count,byte_count|}"}',
    ]);
  });

  it("selectors of a peek, and a selector's types", async () => {
    assert.deepEqual(await newTexts(step('{"type": "peek", "selector": |}')), [
      '"metadata"',
      '{"type": "head", "count": ${1:10}}',
      '{"type": "tail", "count": ${1:10}}',
      '{"type": "item", "index": ${1:0}}',
    ]);
    assert.deepEqual(await labelsAt(step('{"type": "peek", "selector": {"type": "|", "count": 2}}')), [
      "head",
      "tail",
      "item",
    ]);
  });

  it("partition strategies, as objects and as types", async () => {
    assert.deepEqual(await newTexts(step('{"type": "partition", "strategy": |}')), [
      '{"type": "fixed", "size": ${1:1000}}',
      '{"type": "lines", "size": ${1:1000}}',
    ]);
    assert.deepEqual(await labelsAt(step('{"type": "partition", "strategy": {"type": |}}')), ["fixed", "lines"]);
  });

  it("map transforms and reducers", async () => {
    assert.deepEqual(await labelsAt(step('{"type": "map", "transform": "|"}')), [
      "identity",
      "lowercase",
      "uppercase",
      "length",
    ]);
    assert.deepEqual(await labelsAt(step('{"type": "reduce", "reducer": |}')), ["count", "byte_count"]);
  });

  it("reference kinds at a ref key's value, anywhere an expression is", async () => {
    assert.deepEqual(await labelsAt('{"steps": [{"op": "final", "value": {"ref": |}}]}'), ["input", "var", "field"]);
    assert.deepEqual(await labelsAt('{"steps": [{"op": "final", "value": [1, {"ref": "v|"}]}]}'), [
      "input",
      "var",
      "field",
    ]);
    assert.deepEqual(
      await labelsAt('{"steps": [{"op": "tool", "args": {"x": {"ref": "field", "value": {"ref": |}}}}]}'),
      ["input", "var", "field"],
    );
  });

  it("reference shapes at an expression field", async () => {
    assert.deepEqual(await newTexts('{"steps": [{"op": "model", "provider": "p", "prompt": |}]}'), [
      '{"ref": "input", "name": "${1}"}',
      '{"ref": "var", "name": "${1}"}',
      '{"ref": "field", "value": ${1}, "key": "${2}"}',
    ]);
  });
});
