// Rename, in process: prepareRename's range and placeholder; the edit renames the binding
// and every reference in its scope and nothing outside it (checked by applying it to the text);
// names already in scope, names that would clash or capture, and invalid names are refused
// with a message that says why.

import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { prepareRename, rename as renameAt, type PrepareRenameOutcome } from "@rlm-plan/language-server/service/rename";
import type { Range } from "vscode-languageserver-protocol";
import { cursorIn, nthRange, SCOPED_HOST_TEXT, SCOPED_PLAN } from "../support/scopedPlan";
import { nestedBrokenAt, NESTED_BROKEN_PLAN } from "../support/nestedBrokenPlan";
import { applyWorkspaceEdit } from "./support/workspaceEdits";
import { analyzedAt, onTheWire } from "./support/analyzed";

describe("rename: bindings in scope", () => {
  const options = { host: SCOPED_HOST_TEXT, name: "scoped.rlmplan.json" };

  function prepare(marked: string): PrepareRenameOutcome {
    const { plan, position } = analyzedAt(marked, options);
    return onTheWire(prepareRename(plan, position));
  }

  /** Renames at the cursor and returns the document's text after the edit. */
  function rename(marked: string, newName: string): string {
    const { plan, position, uri, text } = analyzedAt(marked, options);
    const outcome = renameAt(plan, position, newName);
    assert.ok("edit" in outcome, `a rename edit, not ${JSON.stringify(outcome)}`);
    assert.deepEqual(Object.keys(outcome.edit.changes ?? {}), [uri]);
    return applyWorkspaceEdit({ [uri]: text }, outcome.edit)[uri] as string;
  }

  /** The server answers a refusal with an error carrying this message. */
  function refused(marked: string, newName: string, message: string): void {
    const { plan, position } = analyzedAt(marked, options);
    assert.deepEqual(renameAt(plan, position, newName), { refused: message });
  }

  it("prepareRename: the name inside the quotes, from a binding or a reference", () => {
    const inside = (range: Range): Range => ({
      start: { ...range.start, character: range.start.character + 1 },
      end: { ...range.end, character: range.end.character - 1 },
    });
    assert.deepEqual(prepare(cursorIn(SCOPED_PLAN, '"hits"', 2, 3)), {
      range: inside(nthRange(SCOPED_PLAN, '"hits"', 2)),
      placeholder: "hits",
    });
    assert.deepEqual(prepare(cursorIn(SCOPED_PLAN, '"counts"', 0)), {
      range: inside(nthRange(SCOPED_PLAN, '"counts"', 0)),
      placeholder: "counts",
    });
  });

  it("prepareRename: nothing to rename on a key, a literal or an input", () => {
    assert.equal(prepare(cursorIn(SCOPED_PLAN, '"bind"', 0)), null);
    assert.equal(prepare(cursorIn(SCOPED_PLAN, '"Summarize"', 0)), null);
    assert.equal(prepare(cursorIn(SCOPED_PLAN, '"doc"', 0)), null);
  });

  it("prepareRename: an unbound reference says there is no variable", () => {
    const plan = SCOPED_PLAN.replace('"name": "answer"}', '"name": "answr"}');
    assert.deepEqual(prepare(cursorIn(plan, '"answr"', 0)), {
      refused: '"answr" is not bound in this scope, so there is no variable to rename.',
    });
  });

  it("renames a root binding everywhere it is in scope, sub-plans included", () => {
    const expected = `{
  "steps": [
    {"op": "context", "handle": {"ref": "input", "name": "doc"}, "action": {"type": "search", "pattern": "x"}, "bind": "matches"},
    {"op": "parallel", "plans": [
      {"steps": [
        {"op": "tool", "name": "count_items", "args": {"ref": "var", "name": "matches"}, "bind": "n"},
        {"op": "final", "value": {"ref": "var", "name": "n"}}
      ]},
      {"steps": [
        {"op": "tool", "name": "count_items", "args": [1, 2], "bind": "n"},
        {"op": "final", "value": [{"ref": "var", "name": "n"}, {"ref": "var", "name": "matches"}]}
      ]}
    ], "bind": "counts"},
    {"op": "model", "provider": "local", "prompt": "Summarize", "bind": "answer"},
    {"op": "final", "value": {"hits": {"ref": "var", "name": "matches"}, "counts": {"ref": "var", "name": "counts"}, "answer": {"ref": "var", "name": "answer"}}}
  ]
}
`;
    assert.equal(rename(cursorIn(SCOPED_PLAN, '"hits"', 4), "matches"), expected);
    assert.equal(rename(cursorIn(SCOPED_PLAN, '"hits"', 0), "matches"), expected);
  });

  it("renames a branch's binding in that branch only; the sibling's same name stays", () => {
    const renamed = rename(cursorIn(SCOPED_PLAN, '"n"', 1), "first");
    const expected = SCOPED_PLAN.replace(
      `{"op": "tool", "name": "count_items", "args": {"ref": "var", "name": "hits"}, "bind": "n"},
        {"op": "final", "value": {"ref": "var", "name": "n"}}`,
      `{"op": "tool", "name": "count_items", "args": {"ref": "var", "name": "hits"}, "bind": "first"},
        {"op": "final", "value": {"ref": "var", "name": "first"}}`,
    );
    assert.notEqual(expected, SCOPED_PLAN);
    assert.equal(renamed, expected);
    // The other branch's "n" may take the name the first branch uses: the scopes never meet.
    const second = rename(cursorIn(SCOPED_PLAN, '"n"', 2), "hits_count");
    assert.equal(
      second,
      SCOPED_PLAN.replace('"args": [1, 2], "bind": "n"}', '"args": [1, 2], "bind": "hits_count"}').replace(
        '[{"ref": "var", "name": "n"}',
        '[{"ref": "var", "name": "hits_count"}',
      ),
    );
  });

  it("a sibling branch's name is free to take", () => {
    const plan = SCOPED_PLAN.replace('"args": [1, 2], "bind": "n"}', '"args": [1, 2], "bind": "m"}').replace(
      '[{"ref": "var", "name": "n"}',
      '[{"ref": "var", "name": "m"}',
    );
    const renamed = rename(cursorIn(plan, '"m"', 0), "n");
    assert.equal(renamed, SCOPED_PLAN);
  });

  it("refuses a name already in scope at the binding", () => {
    refused(
      cursorIn(SCOPED_PLAN, '"n"', 0),
      "hits",
      '"hits" is already in scope here (bound on line 3): choose another name.',
    );
  });

  it("refuses a name bound later inside the binding's scope", () => {
    refused(
      cursorIn(SCOPED_PLAN, '"hits"', 0),
      "counts",
      '"counts" is bound on line 13, inside the scope of "hits": the two would clash; choose another name.',
    );
    refused(
      cursorIn(SCOPED_PLAN, '"hits"', 0),
      "n",
      '"n" is bound on line 6, inside the scope of "hits": the two would clash; choose another name.',
    );
  });

  it("refuses a name that would capture a reference that names nothing today", () => {
    const plan = SCOPED_PLAN.replace('"name": "answer"}', '"name": "reply"}');
    refused(
      cursorIn(plan, '"hits"', 0),
      "reply",
      'The reference to "reply" on line 15 names no variable today and would then name this one: choose another name.',
    );
  });

  it("refuses invalid names", () => {
    refused(cursorIn(SCOPED_PLAN, '"hits"', 0), "", "A binding name cannot be empty.");
    refused(
      cursorIn(SCOPED_PLAN, '"hits"', 0),
      "2 hits",
      '"2 hits" is not a valid binding name: use letters, digits, "_", "-" and ".", starting with a letter or "_".',
    );
  });

  it("refuses while the file has a JSON syntax error", () => {
    const broken = SCOPED_PLAN.replace('"prompt": "Summarize",', '"prompt": "Summarize"');
    refused(
      cursorIn(broken, '"hits"', 0),
      "matches",
      "Fix the JSON syntax error on line 14 first: until then a rename could miss references.",
    );
  });

  it("a rename off any name says where to put the cursor", () => {
    const message = "Put the cursor on a binding's name or on a variable reference to rename it.";
    refused(cursorIn(SCOPED_PLAN, '"bind"', 0), "x", message);
    refused(cursorIn(SCOPED_PLAN, '"doc"', 0), "x", message);
  });

  it("renaming to the same name changes nothing", () => {
    assert.equal(rename(cursorIn(SCOPED_PLAN, '"hits"', 0), "hits"), SCOPED_PLAN);
  });

  it("issue 8: the outer reference to a name bound by a broken step in a nested rlm is not a variable", () => {
    refused(nestedBrokenAt("outer"), "y", '"x" is not bound in this scope, so there is no variable to rename.');
    // Inside, the broken step's binding and its reference are renamed; the outer one is left.
    const renamed = rename(nestedBrokenAt("inner"), "y");
    assert.equal(
      renamed,
      NESTED_BROKEN_PLAN.replace('"bind": "x"', '"bind": "y"').replace("INNER", "y").replace("OUTER", "x"),
    );
  });
});
