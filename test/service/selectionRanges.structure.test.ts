// Selection ranges, in process: from a string's text outward through its property, object,
// step, steps list and plan, in plans and host profiles alike.

import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { selectionRanges } from "@rlm-plan/language-server/service/selectionRanges";
import { parseTree } from "jsonc-parser";
import type { SelectionRange } from "vscode-languageserver-protocol";
import { TextDocument } from "vscode-languageserver-textdocument";
import { fixture } from "../protocol/support/lspClient";
import { analyzed } from "./support/analyzed";

describe("selection ranges", () => {
  /** The text of each range from the innermost outward. */
  function chain(marked: string, name: string): string[] {
    const { text, position } = fixture(marked);
    // A plan's ranges come from its analysed tree, a host profile's from its parse (as the server does).
    const tree = name.endsWith(".rlmplan.json")
      ? analyzed(text, { name }).plan.tree
      : parseTree(text, [], { allowTrailingComma: true });
    const document = TextDocument.create(`file:///w/${name}`, "json", 1, text);
    const result = selectionRanges(document, tree, [position])[0];
    const lines = text.split("\n");
    const offset = (p: { line: number; character: number }) =>
      lines.slice(0, p.line).reduce((sum, line) => sum + line.length + 1, 0) + p.character;
    const texts: string[] = [];
    for (let r: SelectionRange | undefined = result; r; r = r.parent)
      texts.push(text.slice(offset(r.range.start), offset(r.range.end)));
    return texts;
  }

  it("a tool name in a plan: text, string, property, step, steps, plan", () => {
    const plan = '{"steps": [{"op": "tool", "name": "cou|nt", "args": [], "bind": "n"}, {"op": "final", "value": 1}]}';
    assert.deepEqual(chain(plan, "s.rlmplan.json"), [
      "count",
      '"count"',
      '"name": "count"',
      '{"op": "tool", "name": "count", "args": [], "bind": "n"}',
      '[{"op": "tool", "name": "count", "args": [], "bind": "n"}, {"op": "final", "value": 1}]',
      '"steps": [{"op": "tool", "name": "count", "args": [], "bind": "n"}, {"op": "final", "value": 1}]',
      '{"steps": [{"op": "tool", "name": "count", "args": [], "bind": "n"}, {"op": "final", "value": 1}]}',
    ]);
  });

  it("a budget value in a host profile", () => {
    assert.deepEqual(chain('{ "budget": { "max_steps": 1|2 } }\n', "rlmplan.host.json"), [
      "12",
      '"max_steps": 12',
      '{ "max_steps": 12 }',
      '"budget": { "max_steps": 12 }',
      '{ "budget": { "max_steps": 12 } }',
      '{ "budget": { "max_steps": 12 } }\n',
    ]);
  });
});
