// Worst cases beyond 2^53 over the protocol: hover, code lens, inlay hints and diagnostics show
// the exact figures, and the server keeps answering.

import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { CodeLensRequest, InlayHintRequest, type CodeLens, type InlayHint } from "vscode-languageserver-protocol/node";
import { fixture, LspClient, TempWorkspace } from "../protocol/support/lspClient";

/** A retry of a billion attempts around another: 2,000,000,002,000,000,002 steps in the worst case. */
const PLAN = `{
  "steps": [
    {"op": "retry", "attempts": 1000000000, "plan": {"steps": [
      {"op": "retry", "attempts": 1000000000, "plan": {"steps": [
        {"op": "tool", "name": "count_items", "args": [1], "bind": "n"},
        {"op": "final", "value": {"ref": "var", "name": "n"}}
      ]}, "bind": "inner"},
      {"op": "final", "value": {"ref": "var", "name": "inner"}}
    ]}, "bind": "outer"},
    {"op": "final", "value": {"ref": "var", "name": "outer"}}
  ]
}
`;

describe("costs beyond 2^53", () => {
  const workspace = new TempWorkspace();
  let client: LspClient;
  let uri: string;
  before(async () => {
    client = await LspClient.start({ root: workspace.root });
    uri = await client.open(workspace.path("bignum.rlmplan.json"), PLAN);
  });
  after(async () => {
    await client.stop();
    workspace.dispose();
  });

  it("the budget diagnostic names the exact worst case", async () => {
    const diagnostics = await client.waitForDiagnostics(uri);
    const messages = diagnostics.filter((d) => d.code === "budget_exceeded").map((d) => d.message);
    assert.deepEqual(messages, [
      `worst case steps 2000000002000000002 exceeds the budget's max_steps of 64 (the default budget): make the plan do less, or set "max_steps" in a host profile's budget`,
      `worst case tool calls 1000000000000000000 exceeds the budget's max_tool_calls of 16 (the default budget): make the plan do less, or set "max_tool_calls" in a host profile's budget`,
    ]);
  });

  it("hover on the outer retry multiplies exactly", async () => {
    const { position } = fixture(PLAN.replace('"attempts": 1000000000', '"attempts": 1|000000000'));
    const hover = await client.hover(uri, position);
    assert.ok(hover && typeof hover.contents === "object" && "value" in hover.contents);
    const lines = hover.contents.value.split("\n\n");
    assert.deepEqual(lines.slice(2, 5), [
      "**Worst case of this step:** 2000000002000000001 steps · depth 3 · parallel width 0 · 0 model calls · 1000000000000000000 tool calls · 0 context operations",
      "**Retry:** 1000000000 attempts × 2000000002 steps = 2000000002000000000 steps, plus the retry step · 1000000000 attempts × 1000000000 tool calls = 1000000000000000000 tool calls",
      "**Plan so far** (up to and including this step): steps 2000000002000000001 of 64 (over) · depth 3 of 4 · parallel width 0 of 8 · model calls 0 of 8 · tool calls 1000000000000000000 of 16 (over) · context operations 0 of 32",
    ]);
  });

  it("the code lens and the inlay hints show the exact figures", async () => {
    const lenses = (await client.connection.sendRequest(CodeLensRequest.type, { textDocument: { uri } })) as CodeLens[];
    assert.deepEqual(
      lenses.map((lens) => lens.command?.title),
      ["▶ Run plan", "steps 2000000002000000002/64 ⚠ · tools 1000000000000000000/16 ⚠ · depth 3/4"],
    );
    const range = { start: { line: 0, character: 0 }, end: { line: 12, character: 0 } };
    const hints = (await client.connection.sendRequest(InlayHintRequest.type, {
      textDocument: { uri },
      range,
    })) as InlayHint[];
    assert.deepEqual(
      hints.map((hint) => hint.label),
      ["×1000000000 = 2000000002000000000 steps", "×1000000000 = 2000000000 steps"],
    );
    assert.equal(client.alive, true);
  });
});
