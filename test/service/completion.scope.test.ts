// Completion of variables, in process: at {"ref": "var", "name": |}, exactly the names in
// scope at the cursor (earlier steps of this plan and of enclosing plans), never later steps,
// sibling branches, the enclosing step's own binding or a finished sub-plan's bindings.

import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { completion } from "@rlm-plan/language-server/service/completion";
import type { CompletionList } from "vscode-languageserver-protocol";
import { analyzedAt, itemsOf, onTheWire } from "./support/analyzed";

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
  /** The variable names offered at the reference placed at `slot` (A to E). */
  function namesAt(slot: string, ref = '{"ref": "var", "name": |}'): string[] {
    let marked = PLAN;
    for (const other of ["A", "B", "C", "D", "E"]) marked = marked.replace(other, other === slot ? ref : "1");
    const { plan, position } = analyzedAt(marked);
    return itemsOf(completion(plan, position)).map((item) => item.label);
  }

  it("in a branch: the enclosing plan's earlier names and the branch's own, not the other branch's", () => {
    assert.deepEqual(namesAt("A"), ["first", "sub", "left"]);
    assert.deepEqual(namesAt("B"), ["first", "sub"]);
  });

  it("in a retry inside a branch: everything enclosing up to the retry, not the retry's own name", () => {
    assert.deepEqual(namesAt("C"), ["first", "sub", "right"]);
  });

  it("after sub-plans: their names do not leak out, the steps' own names do", () => {
    assert.deepEqual(namesAt("D"), ["first", "sub", "both"]);
    assert.deepEqual(namesAt("E"), ["first", "sub", "both", "later"]);
  });

  it("inside a half-typed name, and with the text after the cursor still missing", () => {
    assert.deepEqual(namesAt("E", '{"ref": "var", "name": "la|"}'), ["first", "sub", "both", "later"]);
    const { plan, position } = analyzedAt(`{"steps": [
  {"op": "tool", "name": "t", "args": [], "bind": "early"},
  {"op": "final", "value": {"ref": "var", "name": "|`);
    const items = itemsOf(completion(plan, position));
    assert.deepEqual(
      items.map((item) => [item.label, item.detail]),
      [["early", "bound on line 2 by a tool step"]],
    );
  });

  it("at an expression field: a reference to each variable in scope after the reference shapes", () => {
    const items = namesAt("D", "|");
    assert.deepEqual(items, ["input reference", "var reference", "field reference", "first", "sub", "both"]);
  });

  it("past 200 names in scope: the nearest 200 that match what is typed, marked incomplete", () => {
    const steps = Array.from({ length: 250 }, (_, i) => `{"op": "tool", "name": "t", "args": [], "bind": "v${i}"}`);
    const raw = (typed: string): CompletionList => {
      const { plan, position } = analyzedAt(
        `{"steps": [${steps.join(",\n")},\n{"op": "final", "value": {"ref": "var", "name": "${typed}|"}}]}`,
      );
      const result = onTheWire(completion(plan, position));
      assert.ok(!Array.isArray(result), "a completion list");
      return result;
    };
    const all = raw("");
    assert.equal(all.isIncomplete, true);
    assert.deepEqual(
      all.items.map((item) => item.label),
      Array.from({ length: 200 }, (_, i) => `v${i + 50}`),
    );
    const narrowed = raw("v1");
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
