// Go to definition over the protocol: a variable reference goes to the "bind" that binds it in
// scope (a sibling branch's binding of the same name is another variable); an input, tool or
// provider name goes to its entry in the host profile.

import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { DefinitionRequest, type Location } from "vscode-languageserver-protocol/node";
import { fixture, LspClient, TempWorkspace } from "../protocol/support/lspClient";
import { cursorIn, nthRange, SCOPED_HOST_TEXT, SCOPED_PLAN } from "../protocol/support/scopedPlan";

describe("definition: bindings and host names", () => {
  const workspace = new TempWorkspace({ "rlmplan.host.json": SCOPED_HOST_TEXT });
  const planUri = workspace.uri("scoped.rlmplan.json");
  const hostUri = workspace.uri("rlmplan.host.json");
  let client: LspClient;
  before(async () => {
    client = await LspClient.start({ root: workspace.root });
  });
  after(async () => {
    await client.stop();
    workspace.dispose();
  });

  async function definition(marked: string): Promise<Location[]> {
    const { text, position } = fixture(marked);
    const uri = await client.open(workspace.path("scoped.rlmplan.json"), text);
    const result = await client.connection.sendRequest(DefinitionRequest.type, { textDocument: { uri }, position });
    await client.close(uri);
    assert.ok(result === null || Array.isArray(result));
    return (result ?? []) as Location[];
  }

  it("from a variable reference to the binding in scope", async () => {
    assert.deepEqual(await definition(cursorIn(SCOPED_PLAN, '"hits"', 1)), [
      { uri: planUri, range: nthRange(SCOPED_PLAN, '"hits"', 0) },
    ]);
    assert.deepEqual(await definition(cursorIn(SCOPED_PLAN, '"hits"', 4, 5)), [
      { uri: planUri, range: nthRange(SCOPED_PLAN, '"hits"', 0) },
    ]);
  });

  it("from a reference in a branch to that branch's binding, not the sibling's", async () => {
    assert.deepEqual(await definition(cursorIn(SCOPED_PLAN, '"n"', 1)), [
      { uri: planUri, range: nthRange(SCOPED_PLAN, '"n"', 0) },
    ]);
    assert.deepEqual(await definition(cursorIn(SCOPED_PLAN, '"n"', 3)), [
      { uri: planUri, range: nthRange(SCOPED_PLAN, '"n"', 2) },
    ]);
  });

  it("from a binding to itself, and from a parallel step's result to its bind", async () => {
    assert.deepEqual(await definition(cursorIn(SCOPED_PLAN, '"counts"', 2)), [
      { uri: planUri, range: nthRange(SCOPED_PLAN, '"counts"', 0) },
    ]);
    assert.deepEqual(await definition(cursorIn(SCOPED_PLAN, '"hits"', 0)), [
      { uri: planUri, range: nthRange(SCOPED_PLAN, '"hits"', 0) },
    ]);
  });

  it("from an input, a tool and a provider name to the host profile's entry", async () => {
    assert.deepEqual(await definition(cursorIn(SCOPED_PLAN, '"doc"', 0)), [
      { uri: hostUri, range: nthRange(SCOPED_HOST_TEXT, '"doc"', 0) },
    ]);
    assert.deepEqual(await definition(cursorIn(SCOPED_PLAN, '"count_items"', 1, 6)), [
      { uri: hostUri, range: nthRange(SCOPED_HOST_TEXT, '"count_items"', 0) },
    ]);
    assert.deepEqual(await definition(cursorIn(SCOPED_PLAN, '"local"', 0)), [
      { uri: hostUri, range: nthRange(SCOPED_HOST_TEXT, '"local"', 0) },
    ]);
  });

  it("an unregistered tool goes to the profile's tools section", async () => {
    const plan = SCOPED_PLAN.replace('"name": "count_items", "args": [1, 2]', '"name": "nope", "args": [1, 2]');
    assert.deepEqual(await definition(cursorIn(plan, '"nope"', 0)), [
      { uri: hostUri, range: nthRange(SCOPED_HOST_TEXT, '"tools"', 0) },
    ]);
  });

  it("nothing for a key, an unbound variable or a literal", async () => {
    assert.deepEqual(await definition(cursorIn(SCOPED_PLAN, '"steps"', 0)), []);
    assert.deepEqual(
      await definition(cursorIn(SCOPED_PLAN.replace('"name": "answer"}', '"name": "answr"}'), '"answr"', 0)),
      [],
    );
    assert.deepEqual(await definition(cursorIn(SCOPED_PLAN, '"Summarize"', 0)), []);
  });

  it("nothing for a plan without a host profile's names", async () => {
    const bare = new TempWorkspace();
    const other = await LspClient.start({ root: bare.root });
    try {
      const { text, position } = fixture(cursorIn(SCOPED_PLAN, '"count_items"', 0));
      const uri = await other.open(bare.path("plan.rlmplan.json"), text);
      const result = await other.connection.sendRequest(DefinitionRequest.type, { textDocument: { uri }, position });
      assert.deepEqual(result, []);
    } finally {
      await other.stop();
      bare.dispose();
    }
  });
});
