// Plan diagnostics over the protocol: the server publishes them as the text changes (quick edits
// checked once, at the last version), clears them when the plan closes, and treats json documents
// named *.rlmplan as plans. What each diagnostic says is the goldens of test/service/golden/diagnostics/.

import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { hostProfile, LspClient, rangeOf, TempWorkspace } from "./support/lspClient";

describe("diagnostics: published as documents change", () => {
  // A host that grants what the plans use, so only plan problems show.
  const workspace = new TempWorkspace({
    "rlmplan.host.json": hostProfile({ capabilities: ["checkpoint"] }),
  });
  let client: LspClient;
  before(async () => {
    client = await LspClient.start({ root: workspace.root });
  });
  after(async () => {
    await client.stop();
    workspace.dispose();
  });

  it("follows the text as it changes: a problem appears, then goes when fixed", async () => {
    const valid = '{"steps": [{"op": "checkpoint", "label": "a"}, {"op": "final", "value": 1}]}';
    const uri = await client.open(workspace.path("edits.rlmplan.json"), valid);
    assert.deepEqual(await client.waitForDiagnostics(uri), []);

    const broken =
      '{"steps": [{"op": "checkpoint", "label": "a"}, {"op": "final", "value": {"ref": "var", "name": "z"}}]}';
    const version = await client.change(uri, broken);
    const diagnostics = await client.waitForDiagnostics(uri);
    assert.equal(client.latest(uri)?.version, version);
    assert.deepEqual(
      diagnostics.map((d) => [d.code, d.range]),
      [["unbound_variable", rangeOf(broken, '"z"')]],
    );

    // Several quick edits are checked once, at the last version.
    const published = client.diagnostics.get(uri)?.length ?? 0;
    await client.change(uri, broken.replace('"z"', '"zz"'));
    await client.change(uri, broken.replace('"z"', '"zzz"'));
    await client.change(uri, valid);
    assert.deepEqual(await client.waitForDiagnostics(uri), []);
    assert.equal(client.diagnostics.get(uri)?.length, published + 1);
  });

  it("clears a plan's diagnostics when it is closed", async () => {
    const uri = await client.open(workspace.path("closed.rlmplan.json"), '{"steps": []}');
    assert.equal((await client.waitForDiagnostics(uri)).length, 1);
    const next = client.nextDiagnostics(uri);
    await client.close(uri);
    assert.deepEqual(await next, []);
  });

  it("treats json documents named *.rlmplan as plans and ignores other json", async () => {
    const plan = '{"steps": [{"op": "final", "value": {"ref": "var", "name": "q"}}]}';
    const uri = await client.open(workspace.path("legacy.rlmplan"), plan, "json");
    assert.deepEqual(
      (await client.waitForDiagnostics(uri)).map((d) => d.code),
      ["unbound_variable"],
    );
    const other = await client.open(workspace.path("package.json"), '{"steps": []}', "json");
    assert.equal(await client.hover(other, { line: 0, character: 1 }), null);
    assert.equal(client.latest(other), undefined);
  });
});
