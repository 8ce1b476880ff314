// Rename over the protocol: prepareRename's range and placeholder; the edit renames the binding
// and every reference in its scope and nothing outside it (checked by applying it to the text);
// names already in scope, names that would clash or capture, and invalid names are refused
// with a message that says why.

import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import {
  PrepareRenameRequest,
  RenameRequest,
  ResponseError,
  type Range,
  type WorkspaceEdit,
} from "vscode-languageserver-protocol/node";
import { fixture, LspClient, TempWorkspace } from "../protocol/support/lspClient";
import { cursorIn, nthRange, SCOPED_HOST_TEXT, SCOPED_PLAN } from "../protocol/support/scopedPlan";
import { nestedBrokenAt, NESTED_BROKEN_PLAN } from "../protocol/support/nestedBrokenPlan";
import { applyWorkspaceEdit } from "../protocol/support/workspaceEdits";

describe("rename: bindings in scope", () => {
  const workspace = new TempWorkspace({ "rlmplan.host.json": SCOPED_HOST_TEXT });
  const file = workspace.path("scoped.rlmplan.json");
  let client: LspClient;
  before(async () => {
    client = await LspClient.start({ root: workspace.root });
  });
  after(async () => {
    await client.stop();
    workspace.dispose();
  });

  async function prepare(marked: string): Promise<unknown> {
    const { text, position } = fixture(marked);
    const uri = await client.open(file, text);
    try {
      return await client.connection.sendRequest(PrepareRenameRequest.type, { textDocument: { uri }, position });
    } finally {
      await client.close(uri);
    }
  }

  /** Renames at the cursor and returns the document's text after the edit. */
  async function rename(marked: string, newName: string): Promise<string> {
    const { text, position } = fixture(marked);
    const uri = await client.open(file, text);
    try {
      const edit: WorkspaceEdit | null = await client.connection.sendRequest(RenameRequest.type, {
        textDocument: { uri },
        position,
        newName,
      });
      assert.ok(edit, "a rename edit");
      assert.deepEqual(Object.keys(edit.changes ?? {}), [uri]);
      return applyWorkspaceEdit({ [uri]: text }, edit)[uri] as string;
    } finally {
      await client.close(uri);
    }
  }

  async function refused(marked: string, newName: string, message: string): Promise<void> {
    await assert.rejects(rename(marked, newName), (error: unknown) => {
      assert.ok(error instanceof ResponseError);
      assert.equal(error.message, message);
      return true;
    });
  }

  it("prepareRename: the name inside the quotes, from a binding or a reference", async () => {
    const inside = (range: Range): Range => ({
      start: { ...range.start, character: range.start.character + 1 },
      end: { ...range.end, character: range.end.character - 1 },
    });
    assert.deepEqual(await prepare(cursorIn(SCOPED_PLAN, '"hits"', 2, 3)), {
      range: inside(nthRange(SCOPED_PLAN, '"hits"', 2)),
      placeholder: "hits",
    });
    assert.deepEqual(await prepare(cursorIn(SCOPED_PLAN, '"counts"', 0)), {
      range: inside(nthRange(SCOPED_PLAN, '"counts"', 0)),
      placeholder: "counts",
    });
  });

  it("prepareRename: nothing to rename on a key, a literal or an input", async () => {
    assert.equal(await prepare(cursorIn(SCOPED_PLAN, '"bind"', 0)), null);
    assert.equal(await prepare(cursorIn(SCOPED_PLAN, '"Summarize"', 0)), null);
    assert.equal(await prepare(cursorIn(SCOPED_PLAN, '"doc"', 0)), null);
  });

  it("prepareRename: an unbound reference says there is no variable", async () => {
    const plan = SCOPED_PLAN.replace('"name": "answer"}', '"name": "answr"}');
    await assert.rejects(prepare(cursorIn(plan, '"answr"', 0)), {
      message: '"answr" is not bound in this scope, so there is no variable to rename.',
    });
  });

  it("renames a root binding everywhere it is in scope, sub-plans included", async () => {
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
    assert.equal(await rename(cursorIn(SCOPED_PLAN, '"hits"', 4), "matches"), expected);
    assert.equal(await rename(cursorIn(SCOPED_PLAN, '"hits"', 0), "matches"), expected);
  });

  it("renames a branch's binding in that branch only; the sibling's same name stays", async () => {
    const renamed = await rename(cursorIn(SCOPED_PLAN, '"n"', 1), "first");
    const expected = SCOPED_PLAN.replace(
      `{"op": "tool", "name": "count_items", "args": {"ref": "var", "name": "hits"}, "bind": "n"},
        {"op": "final", "value": {"ref": "var", "name": "n"}}`,
      `{"op": "tool", "name": "count_items", "args": {"ref": "var", "name": "hits"}, "bind": "first"},
        {"op": "final", "value": {"ref": "var", "name": "first"}}`,
    );
    assert.notEqual(expected, SCOPED_PLAN);
    assert.equal(renamed, expected);
    // The other branch's "n" may take the name the first branch uses: the scopes never meet.
    const second = await rename(cursorIn(SCOPED_PLAN, '"n"', 2), "hits_count");
    assert.equal(
      second,
      SCOPED_PLAN.replace('"args": [1, 2], "bind": "n"}', '"args": [1, 2], "bind": "hits_count"}').replace(
        '[{"ref": "var", "name": "n"}',
        '[{"ref": "var", "name": "hits_count"}',
      ),
    );
  });

  it("a sibling branch's name is free to take", async () => {
    const plan = SCOPED_PLAN.replace('"args": [1, 2], "bind": "n"}', '"args": [1, 2], "bind": "m"}').replace(
      '[{"ref": "var", "name": "n"}',
      '[{"ref": "var", "name": "m"}',
    );
    const renamed = await rename(cursorIn(plan, '"m"', 0), "n");
    assert.equal(renamed, SCOPED_PLAN);
  });

  it("refuses a name already in scope at the binding", async () => {
    await refused(
      cursorIn(SCOPED_PLAN, '"n"', 0),
      "hits",
      '"hits" is already in scope here (bound on line 3): choose another name.',
    );
  });

  it("refuses a name bound later inside the binding's scope", async () => {
    await refused(
      cursorIn(SCOPED_PLAN, '"hits"', 0),
      "counts",
      '"counts" is bound on line 13, inside the scope of "hits": the two would clash; choose another name.',
    );
    await refused(
      cursorIn(SCOPED_PLAN, '"hits"', 0),
      "n",
      '"n" is bound on line 6, inside the scope of "hits": the two would clash; choose another name.',
    );
  });

  it("refuses a name that would capture a reference that names nothing today", async () => {
    const plan = SCOPED_PLAN.replace('"name": "answer"}', '"name": "reply"}');
    await refused(
      cursorIn(plan, '"hits"', 0),
      "reply",
      'The reference to "reply" on line 15 names no variable today and would then name this one: choose another name.',
    );
  });

  it("refuses invalid names", async () => {
    await refused(cursorIn(SCOPED_PLAN, '"hits"', 0), "", "A binding name cannot be empty.");
    await refused(
      cursorIn(SCOPED_PLAN, '"hits"', 0),
      "2 hits",
      '"2 hits" is not a valid binding name: use letters, digits, "_", "-" and ".", starting with a letter or "_".',
    );
  });

  it("refuses while the file has a JSON syntax error", async () => {
    const broken = SCOPED_PLAN.replace('"prompt": "Summarize",', '"prompt": "Summarize"');
    await refused(
      cursorIn(broken, '"hits"', 0),
      "matches",
      "Fix the JSON syntax error on line 14 first: until then a rename could miss references.",
    );
  });

  it("renaming to the same name changes nothing", async () => {
    assert.equal(await rename(cursorIn(SCOPED_PLAN, '"hits"', 0), "hits"), SCOPED_PLAN);
  });

  it("issue 8: the outer reference to a name bound by a broken step in a nested rlm is not a variable", async () => {
    await refused(nestedBrokenAt("outer"), "y", '"x" is not bound in this scope, so there is no variable to rename.');
    // Inside, the broken step's binding and its reference are renamed; the outer one is left.
    const renamed = await rename(nestedBrokenAt("inner"), "y");
    assert.equal(
      renamed,
      NESTED_BROKEN_PLAN.replace('"bind": "x"', '"bind": "y"').replace("INNER", "y").replace("OUTER", "x"),
    );
  });
});
