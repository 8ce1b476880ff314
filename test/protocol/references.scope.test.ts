// Find references over the protocol: every reference of a binding in its scope, in source
// order, with the declaration when asked; the same name in a sibling branch is not listed.

import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { ReferencesRequest, type Location } from "vscode-languageserver-protocol/node";
import { fixture, LspClient, TempWorkspace } from "./support/lspClient";
import { cursorIn, nthRange, SCOPED_HOST_TEXT, SCOPED_PLAN } from "./support/scopedPlan";

describe("references: in scope only", () => {
  const workspace = new TempWorkspace({ "rlmplan.host.json": SCOPED_HOST_TEXT });
  const planUri = workspace.uri("scoped.rlmplan.json");
  let client: LspClient;
  before(async () => {
    client = await LspClient.start({ root: workspace.root });
  });
  after(async () => {
    await client.stop();
    workspace.dispose();
  });

  async function references(marked: string, includeDeclaration: boolean): Promise<Location[] | null> {
    const { text, position } = fixture(marked);
    const uri = await client.open(workspace.path("scoped.rlmplan.json"), text);
    const result = await client.connection.sendRequest(ReferencesRequest.type, {
      textDocument: { uri },
      position,
      context: { includeDeclaration },
    });
    await client.close(uri);
    return result;
  }

  const at = (needle: string, n: number) => ({ uri: planUri, range: nthRange(SCOPED_PLAN, needle, n) });

  it("of a root binding: references in both branches and the final step", async () => {
    assert.deepEqual(await references(cursorIn(SCOPED_PLAN, '"hits"', 0), true), [
      at('"hits"', 0),
      at('"hits"', 1),
      at('"hits"', 2),
      at('"hits"', 4),
    ]);
    assert.deepEqual(await references(cursorIn(SCOPED_PLAN, '"hits"', 2), false), [
      at('"hits"', 1),
      at('"hits"', 2),
      at('"hits"', 4),
    ]);
  });

  it("of a branch's binding: that branch only", async () => {
    assert.deepEqual(await references(cursorIn(SCOPED_PLAN, '"n"', 0), true), [at('"n"', 0), at('"n"', 1)]);
    assert.deepEqual(await references(cursorIn(SCOPED_PLAN, '"n"', 3), true), [at('"n"', 2), at('"n"', 3)]);
  });

  it("a binding nothing refers to", async () => {
    const plan = SCOPED_PLAN.replace('"answer": {"ref": "var", "name": "answer"}', '"answer": null');
    const { text, position } = fixture(cursorIn(plan, '"answer"', 0));
    const uri = await client.open(workspace.path("scoped.rlmplan.json"), text);
    const declared = await client.connection.sendRequest(ReferencesRequest.type, {
      textDocument: { uri },
      position,
      context: { includeDeclaration: true },
    });
    const used = await client.connection.sendRequest(ReferencesRequest.type, {
      textDocument: { uri },
      position,
      context: { includeDeclaration: false },
    });
    await client.close(uri);
    assert.deepEqual(declared, [{ uri: planUri, range: nthRange(plan, '"answer"', 0) }]);
    assert.deepEqual(used, []);
  });

  it("nothing for an unbound variable, a key or an input", async () => {
    const unbound = SCOPED_PLAN.replace('"name": "answer"}', '"name": "answr"}');
    assert.deepEqual(await references(cursorIn(unbound, '"answr"', 0), true), []);
    assert.deepEqual(await references(cursorIn(SCOPED_PLAN, '"bind"', 0), true), []);
    assert.deepEqual(await references(cursorIn(SCOPED_PLAN, '"doc"', 0), true), []);
  });

  it("a later binding of the same name in scope takes over from there", async () => {
    // "n" is bound twice in one plan (an error the diagnostics report): the reference after the
    // second binding belongs to the second.
    const text = `{"steps": [
  {"op": "tool", "name": "count_items", "args": [1], "bind": "n"},
  {"op": "tool", "name": "count_items", "args": [{"ref": "var", "name": "n"}], "bind": "n"},
  {"op": "final", "value": {"ref": "var", "name": "n"}}
]}`;
    const first = await references(cursorIn(text, '"n"', 0), true);
    const second = await references(cursorIn(text, '"n"', 2), true);
    const range = (n: number) => ({ uri: planUri, range: nthRange(text, '"n"', n) });
    assert.deepEqual(first, [range(0), range(1)]);
    assert.deepEqual(second, [range(2), range(3)]);
  });
});
