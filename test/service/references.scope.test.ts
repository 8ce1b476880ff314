// Find references, in process: every reference of a binding in its scope, in source
// order, with the declaration when asked; the same name in a sibling branch is not listed.

import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { references as referencesOf } from "@rlm-plan/language-server/service/references";
import type { Location } from "vscode-languageserver-protocol";
import { cursorIn, nthRange, SCOPED_HOST_TEXT, SCOPED_PLAN } from "../support/scopedPlan";
import { analyzedAt, onTheWire } from "./support/analyzed";

describe("references: in scope only", () => {
  const options = { host: SCOPED_HOST_TEXT, name: "scoped.rlmplan.json" };
  const planUri = analyzedAt("|{}", options).uri;

  function references(marked: string, includeDeclaration: boolean): Location[] {
    const { plan, position } = analyzedAt(marked, options);
    return onTheWire(referencesOf(plan, position, includeDeclaration));
  }

  const at = (needle: string, n: number) => ({ uri: planUri, range: nthRange(SCOPED_PLAN, needle, n) });

  it("of a root binding: references in both branches and the final step", () => {
    assert.deepEqual(references(cursorIn(SCOPED_PLAN, '"hits"', 0), true), [
      at('"hits"', 0),
      at('"hits"', 1),
      at('"hits"', 2),
      at('"hits"', 4),
    ]);
    assert.deepEqual(references(cursorIn(SCOPED_PLAN, '"hits"', 2), false), [
      at('"hits"', 1),
      at('"hits"', 2),
      at('"hits"', 4),
    ]);
  });

  it("of a branch's binding: that branch only", () => {
    assert.deepEqual(references(cursorIn(SCOPED_PLAN, '"n"', 0), true), [at('"n"', 0), at('"n"', 1)]);
    assert.deepEqual(references(cursorIn(SCOPED_PLAN, '"n"', 3), true), [at('"n"', 2), at('"n"', 3)]);
  });

  it("a binding nothing refers to", () => {
    const plan = SCOPED_PLAN.replace('"answer": {"ref": "var", "name": "answer"}', '"answer": null');
    const declared = references(cursorIn(plan, '"answer"', 0), true);
    const used = references(cursorIn(plan, '"answer"', 0), false);
    assert.deepEqual(declared, [{ uri: planUri, range: nthRange(plan, '"answer"', 0) }]);
    assert.deepEqual(used, []);
  });

  it("nothing for an unbound variable, a key or an input", () => {
    const unbound = SCOPED_PLAN.replace('"name": "answer"}', '"name": "answr"}');
    assert.deepEqual(references(cursorIn(unbound, '"answr"', 0), true), []);
    assert.deepEqual(references(cursorIn(SCOPED_PLAN, '"bind"', 0), true), []);
    assert.deepEqual(references(cursorIn(SCOPED_PLAN, '"doc"', 0), true), []);
  });

  it("a later binding of the same name in scope takes over from there", () => {
    // "n" is bound twice in one plan (an error the diagnostics report): the reference after the
    // second binding belongs to the second.
    const text = `{"steps": [
  {"op": "tool", "name": "count_items", "args": [1], "bind": "n"},
  {"op": "tool", "name": "count_items", "args": [{"ref": "var", "name": "n"}], "bind": "n"},
  {"op": "final", "value": {"ref": "var", "name": "n"}}
]}`;
    const first = references(cursorIn(text, '"n"', 0), true);
    const second = references(cursorIn(text, '"n"', 2), true);
    const range = (n: number) => ({ uri: planUri, range: nthRange(text, '"n"', n) });
    assert.deepEqual(first, [range(0), range(1)]);
    assert.deepEqual(second, [range(2), range(3)]);
  });
});
