// Hover, completion and go to definition read the runtime's semantic model (analysis.model),
// so they agree on what a variable name means: a name bound twice in scope (an error the
// diagnostics report) means its later binding from there on, as find references pins; a "bind"
// on a checkpoint or final step binds nothing, as in the validator.

import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { DefinitionRequest, type Location } from "vscode-languageserver-protocol/node";
import { fixture, LspClient, rangeOf, TempWorkspace } from "../protocol/support/lspClient";
import { nestedBrokenAt } from "../protocol/support/nestedBrokenPlan";

const PLAN = `{"steps": [
  {"op": "tool", "name": "t", "args": [1], "bind": "n"},
  {"op": "tool", "name": "t", "args": [{"ref": "var", "name": "n"}], "bind": "n"},
  {"op": "checkpoint", "label": "c", "bind": "c"},
  {"op": "final", "value": REF}
]}`;

describe("hover, completion and definition: one scope", () => {
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

  async function open(
    marked: string,
  ): Promise<{ uri: string; text: string; position: { line: number; character: number } }> {
    const { text, position } = fixture(marked);
    const uri = await client.open(workspace.path(`d${count++}.rlmplan.json`), text);
    return { uri, text, position };
  }

  it("a name bound twice means the later binding after it", async () => {
    const { uri, text, position } = await open(PLAN.replace("REF", '{"ref": "var", "name": "|n"}'));
    const hover = await client.hover(uri, position);
    assert.deepEqual(hover?.contents, {
      kind: "markdown",
      value: "**variable** `n`\n\nBound on line 3 by **tool** `t` → `n`",
    });
    const definition = (await client.connection.sendRequest(DefinitionRequest.type, {
      textDocument: { uri },
      position,
    })) as Location[];
    assert.deepEqual(definition, [{ uri, range: rangeOf(text, '"n"', '"bind": "n"},\n  {"op": "checkpoint"') }]);
    await client.close(uri);
  });

  it("the earlier binding before it", async () => {
    const { uri, position } = await open(
      PLAN.replace('"args": [{"ref": "var", "name": "n"}]', '"args": [{"ref": "var", "name": "|n"}]'),
    );
    const hover = await client.hover(uri, position);
    assert.deepEqual(hover?.contents, {
      kind: "markdown",
      value: "**variable** `n`\n\nBound on line 2 by **tool** `t` → `n`",
    });
    await client.close(uri);
  });

  it("completion offers the name once, bound where the reference would resolve; a checkpoint binds nothing", async () => {
    const { uri, position } = await open(PLAN.replace("REF", '{"ref": "var", "name": |}'));
    const items = await client.completion(uri, position);
    assert.deepEqual(
      items.map((item) => [item.label, item.detail]),
      [["n", "bound on line 3 by a tool step"]],
    );
    await client.close(uri);
  });

  it("issue 8: a broken step's name in a nested rlm is not bound in the outer plan, as the validator says", async () => {
    const outer = await open(nestedBrokenAt("outer"));
    assert.deepEqual((await client.hover(outer.uri, outer.position))?.contents, {
      kind: "markdown",
      value: "**variable** `x`\n\nNot bound here: bind it in an earlier step of this plan or an enclosing one.",
    });
    const diagnostics = await client.waitForDiagnostics(outer.uri);
    assert.deepEqual(
      diagnostics.filter((d) => d.code === "unbound_variable").map((d) => d.range.start),
      [{ line: outer.position.line, character: outer.position.character - 1 }],
    );
    await client.close(outer.uri);
    const inner = await open(nestedBrokenAt("inner"));
    assert.deepEqual((await client.hover(inner.uri, inner.position))?.contents, {
      kind: "markdown",
      value: "**variable** `x`\n\nBound on line 3 by **tool**",
    });
    await client.close(inner.uri);
  });
});
