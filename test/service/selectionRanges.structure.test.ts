// Selection ranges over the protocol: from a string's text outward through its property, object,
// step, steps list and plan, in plans and host profiles alike.

import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { SelectionRangeRequest, type SelectionRange } from "vscode-languageserver-protocol/node";
import { fixture, LspClient, TempWorkspace } from "../protocol/support/lspClient";

describe("selection ranges", () => {
  const workspace = new TempWorkspace({});
  let client: LspClient;
  before(async () => {
    client = await LspClient.start({ root: workspace.root });
  });
  after(async () => {
    await client.stop();
    workspace.dispose();
  });

  /** The text of each range from the innermost outward. */
  async function chain(marked: string, name: string): Promise<string[]> {
    const { text, position } = fixture(marked);
    const uri = await client.open(workspace.path(name), text);
    const results = await client.connection.sendRequest(SelectionRangeRequest.type, {
      textDocument: { uri },
      positions: [position],
    });
    await client.close(uri);
    const result = results?.[0];
    const lines = text.split("\n");
    const offset = (p: { line: number; character: number }) =>
      lines.slice(0, p.line).reduce((sum, line) => sum + line.length + 1, 0) + p.character;
    const texts: string[] = [];
    for (let r: SelectionRange | undefined = result; r; r = r.parent)
      texts.push(text.slice(offset(r.range.start), offset(r.range.end)));
    return texts;
  }

  it("a tool name in a plan: text, string, property, step, steps, plan", async () => {
    const plan = '{"steps": [{"op": "tool", "name": "cou|nt", "args": [], "bind": "n"}, {"op": "final", "value": 1}]}';
    assert.deepEqual(await chain(plan, "s.rlmplan.json"), [
      "count",
      '"count"',
      '"name": "count"',
      '{"op": "tool", "name": "count", "args": [], "bind": "n"}',
      '[{"op": "tool", "name": "count", "args": [], "bind": "n"}, {"op": "final", "value": 1}]',
      '"steps": [{"op": "tool", "name": "count", "args": [], "bind": "n"}, {"op": "final", "value": 1}]',
      '{"steps": [{"op": "tool", "name": "count", "args": [], "bind": "n"}, {"op": "final", "value": 1}]}',
    ]);
  });

  it("a budget value in a host profile", async () => {
    assert.deepEqual(await chain('{ "budget": { "max_steps": 1|2 } }\n', "rlmplan.host.json"), [
      "12",
      '"max_steps": 12',
      '{ "max_steps": 12 }',
      '"budget": { "max_steps": 12 }',
      '{ "budget": { "max_steps": 12 } }',
      '{ "budget": { "max_steps": 12 } }\n',
    ]);
  });
});
