// Completion of variables over the protocol: at {"ref": "var", "name": |}, exactly the names in
// scope at the cursor (earlier steps of this plan and of enclosing plans), never later steps,
// sibling branches, the enclosing step's own binding or a finished sub-plan's bindings.

import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { CompletionRequest, type CompletionItem, type CompletionList } from "vscode-languageserver-protocol/node";
import { fixture, LspClient, TempWorkspace } from "../protocol/support/lspClient";

const PLAN = `{"steps": [
  {"op": "tool", "name": "t", "args": [], "bind": "first"},
  {"op": "rlm", "plan": {"steps": [
    {"op": "tool", "name": "t", "args": [], "bind": "inner"},
    {"op": "final", "value": {"ref": "var", "name": "inner"}}
  ]}, "bind": "sub"},
  {"op": "parallel", "plans": [
    {"steps": [
      {"op": "tool", "name": "t", "args": [], "bind": "left"},
      {"op": "final", "value": A}
    ]},
    {"steps": [
      {"op": "tool", "name": "t", "args": B, "bind": "right"},
      {"op": "retry", "attempts": 2, "plan": {"steps": [
        {"op": "final", "value": C}
      ]}, "bind": "again"},
      {"op": "final", "value": {"ref": "var", "name": "right"}}
    ]}
  ], "bind": "both"},
  {"op": "tool", "name": "t", "args": D, "bind": "later"},
  {"op": "final", "value": E}
]}`;

describe("completion: variables in scope", () => {
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

  /** The variable names offered at the reference placed at `slot` (A to E). */
  async function namesAt(slot: string, ref = '{"ref": "var", "name": |}'): Promise<string[]> {
    let marked = PLAN;
    for (const other of ["A", "B", "C", "D", "E"]) marked = marked.replace(other, other === slot ? ref : "1");
    const { text, position } = fixture(marked);
    const uri = await client.open(workspace.path(`s${count++}.rlmplan.json`), text);
    return (await client.completion(uri, position)).map((item) => item.label);
  }

  it("in a branch: the enclosing plan's earlier names and the branch's own, not the other branch's", async () => {
    assert.deepEqual(await namesAt("A"), ["first", "sub", "left"]);
    assert.deepEqual(await namesAt("B"), ["first", "sub"]);
  });

  it("in a retry inside a branch: everything enclosing up to the retry, not the retry's own name", async () => {
    assert.deepEqual(await namesAt("C"), ["first", "sub", "right"]);
  });

  it("after sub-plans: their names do not leak out, the steps' own names do", async () => {
    assert.deepEqual(await namesAt("D"), ["first", "sub", "both"]);
    assert.deepEqual(await namesAt("E"), ["first", "sub", "both", "later"]);
  });

  it("inside a half-typed name, and with the text after the cursor still missing", async () => {
    assert.deepEqual(await namesAt("E", '{"ref": "var", "name": "la|"}'), ["first", "sub", "both", "later"]);
    const { text, position } = fixture(`{"steps": [
  {"op": "tool", "name": "t", "args": [], "bind": "early"},
  {"op": "final", "value": {"ref": "var", "name": "|`);
    const uri = await client.open(workspace.path("truncated.rlmplan.json"), text);
    const items = await client.completion(uri, position);
    assert.deepEqual(
      items.map((item) => [item.label, item.detail]),
      [["early", "bound on line 2 by a tool step"]],
    );
  });

  it("at an expression field: a reference to each variable in scope after the reference shapes", async () => {
    const items = await namesAt("D", "|");
    assert.deepEqual(items, ["input reference", "var reference", "field reference", "first", "sub", "both"]);
  });

  it("past 200 names in scope: the nearest 200 that match what is typed, marked incomplete", async () => {
    const steps = Array.from({ length: 250 }, (_, i) => `{"op": "tool", "name": "t", "args": [], "bind": "v${i}"}`);
    const raw = async (typed: string): Promise<CompletionList> => {
      const { text, position } = fixture(
        `{"steps": [${steps.join(",\n")},\n{"op": "final", "value": {"ref": "var", "name": "${typed}|"}}]}`,
      );
      const uri = await client.open(`${workspace.root}/big${count++}.rlmplan.json`, text);
      try {
        const result: CompletionItem[] | CompletionList | null = await client.connection.sendRequest(
          CompletionRequest.type,
          { textDocument: { uri }, position },
        );
        assert.ok(result && !Array.isArray(result), "a completion list");
        return result;
      } finally {
        await client.close(uri);
      }
    };
    const all = await raw("");
    assert.equal(all.isIncomplete, true);
    assert.deepEqual(
      all.items.map((item) => item.label),
      Array.from({ length: 200 }, (_, i) => `v${i + 50}`),
    );
    const narrowed = await raw("v1");
    assert.equal(narrowed.isIncomplete, true);
    assert.deepEqual(
      narrowed.items.map((item) => item.label),
      [
        "v1",
        ...Array.from({ length: 10 }, (_, i) => `v${10 + i}`),
        ...Array.from({ length: 100 }, (_, i) => `v${100 + i}`),
      ],
    );
  });
});
