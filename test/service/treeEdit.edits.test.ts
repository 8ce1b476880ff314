// The jsonc tree carried across an edit (treeEdit.ts, through the recent trees): after each
// edit of a plan, the tree a feature gets must be the tree a full parse of the new text gives,
// node for node; the edits inside one step must take the short path (only that step parsed
// again), and edits that break the text or reach a bracket of the whole plan the full parse.

import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { parseTree, type Node } from "jsonc-parser";
import { TextDocument } from "vscode-languageserver-textdocument";
import { analyzePlan } from "@rlm-plan/language-server/service/analyzedPlan";
import { hover } from "@rlm-plan/language-server/service/hover";
import { retireTree } from "@rlm-plan/language-server/service/recentTrees";
import { editedTree } from "@rlm-plan/language-server/service/treeEdit";

const PLAN = `{
  // three steps
  "steps": [
    {"op": "tool", "name": "echo", "args": "seed", "bind": "first"},
    {"op": "tool", "name": "echo", "args": {"ref": "var", "name": "first"}, "bind": "second"},
    {"op": "final", "value": [1, 2.5, true, null, {"ref": "var", "name": "second"}]}
  ]
}`;

/** A tree as plain data: every field but the parent link. */
function shape(node: Node | undefined): unknown {
  if (!node) return undefined;
  const { type, value, offset, length, colonOffset, children } = node;
  return { type, value, offset, length, colonOffset, children: children?.map(shape) };
}

const full = (text: string) => parseTree(text, [], { allowTrailingComma: true, disallowComments: false });

/** [what, the edited text, whether the short path must take it]. */
const EDITS: readonly (readonly [string, string, boolean])[] = [
  ["a letter into a name", PLAN.replace('"bind": "first"', '"bind": "firsts"'), true],
  ["a name shortened", PLAN.replace('"name": "first"}', '"name": "fir"}'), true],
  ["a number changed", PLAN.replace("2.5", "2.75e3"), true],
  [
    "a step added",
    PLAN.replace('"bind": "first"},', '"bind": "first"},\n    {"op": "checkpoint", "label": "c"},'),
    true,
  ],
  ["a step removed", PLAN.replace(/\n {4}\{"op": "tool", "name": "echo", "args": \{"ref"[^\n]*/, ""), true],
  ["a comment edited", PLAN.replace("three steps", "3 steps, one more word"), true],
  ["a key added to the plan", PLAN.replace("\n}", ',\n  "extra": 1\n}'), true],
  ["the whole text replaced", '{"steps": [{"op": "final", "value": 1}]}', false],
  ["an edit that breaks the text", PLAN.replace('"seed"', '"seed'), false],
];

describe("tree edit: the previous version's tree edited into the next one's", () => {
  for (const [what, text, short] of EDITS) {
    it(`${what}: the same tree as a full parse${short ? ", by the short path" : ""}`, () => {
      const before = full(PLAN) as Node;
      const edited = editedTree(PLAN, before, text);
      if (short) assert.ok(edited, "the edit took the full parse");
      if (edited) assert.deepEqual(shape(edited), shape(full(text)));
      if (edited) {
        // Every child points back at its parent, as jsonc-parser leaves them.
        const stack: Node[] = [edited];
        while (stack.length > 0) {
          const node = stack.pop() as Node;
          for (const child of node.children ?? []) {
            assert.equal(child.parent, node);
            stack.push(child);
          }
        }
      }
    });
  }

  it("a hover after an edit answers from the edited tree as from a fresh analysis", () => {
    const uri = "file:///work/edits.rlmplan.json";
    const none = { kind: "none" } as const;
    const first = analyzePlan(TextDocument.create(uri, "rlm-plan", 1, PLAN), none);
    assert.ok(first.tree);
    retireTree(uri);
    const text = PLAN.replace('"bind": "first"', '"bind": "start"').replace('"name": "first"}', '"name": "start"}');
    const second = analyzePlan(TextDocument.create(uri, "rlm-plan", 2, text), none);
    const document = second.document;
    const position = document.positionAt(text.indexOf('"name": "start"}') + 10);
    assert.deepEqual(shape(second.tree), shape(full(text)));
    const fresh = analyzePlan(TextDocument.create("file:///work/fresh.rlmplan.json", "rlm-plan", 1, text), none);
    assert.deepEqual(hover(second, position), hover(fresh, position));
    assert.match(JSON.stringify(hover(second, position)), /\*\*variable\*\* `start`/);
  });
});
