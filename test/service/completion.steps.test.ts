// Completion of operations, in process: the eight names at an "op" value (replacing what
// is typed), and a whole step as a snippet at a step position of any plan, nested ones too.

import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { completion } from "@rlm-plan/language-server/service/completion";
import { InsertTextFormat, type CompletionItem, type TextEdit } from "vscode-languageserver-protocol";
import { fixture, positionAt } from "../protocol/support/lspClient";
import { analyzed, itemsOf } from "./support/analyzed";

const OPERATIONS = ["context", "model", "rlm", "tool", "parallel", "retry", "checkpoint", "final"];

describe("completion: operations and steps", () => {
  function complete(marked: string): { items: CompletionItem[]; text: string; offset: number } {
    const { text, position, offset } = fixture(marked);
    return { items: itemsOf(completion(analyzed(text).plan, position)), text, offset };
  }

  function edit(item: CompletionItem | undefined): TextEdit {
    assert.ok(item?.textEdit && "range" in item.textEdit, "a completion item with a text edit");
    return item.textEdit;
  }

  it("offers the eight operations after an op key", () => {
    const { items, offset, text } = complete('{"steps": [{"op": |}]}');
    assert.deepEqual(
      items.map((item) => item.label),
      OPERATIONS,
    );
    const tool = items.find((item) => item.label === "tool");
    assert.deepEqual(edit(tool), {
      range: { start: positionAt(text, offset), end: positionAt(text, offset) },
      newText: '"tool"',
    });
    assert.equal(tool?.detail, "Calls a trusted tool the host registers with JSON arguments and binds its result.");
  });

  it("replaces the half-typed operation name between its quotes (a snippet's tab stops survive)", () => {
    const { items, text } = complete('{"steps": [{"op": "ret|"}]}');
    assert.deepEqual(
      items.map((item) => item.label),
      OPERATIONS,
    );
    const start = text.indexOf('"ret"') + 1;
    assert.deepEqual(edit(items.find((item) => item.label === "retry")), {
      range: { start: positionAt(text, start), end: positionAt(text, start + 3) },
      newText: "retry",
    });
    assert.equal(items[0]?.filterText, "context");
  });

  it("inside a snippet's empty string, a value is written between the quotes, which stay", () => {
    const { items, text } = complete('{"steps": [{"op": "|", "args": [], "bind": "x"}]}');
    const start = text.indexOf('"op": "') + 7;
    assert.ok(items.length > 0);
    for (const item of items) {
      const { range } = edit(item);
      assert.deepEqual(range, { start: positionAt(text, start), end: positionAt(text, start) }, item.label);
    }
  });

  it("an unclosed string is replaced whole, quotes included", () => {
    const { items, text } = complete('{"steps": [{"op": "ret|');
    const start = text.indexOf('"ret');
    assert.deepEqual(edit(items.find((item) => item.label === "retry")), {
      range: { start: positionAt(text, start), end: positionAt(text, start + 4) },
      newText: '"retry"',
    });
  });

  it("inserts a whole step as a snippet at a step position", () => {
    const { items } = complete('{"steps": [|]}');
    assert.deepEqual(
      items.map((item) => [item.label, edit(item).newText]),
      [
        ["context", '{"op": "context", "handle": ${1}, "action": ${2}, "bind": "${3}"}'],
        ["model", '{"op": "model", "provider": "${1}", "prompt": ${2}, "bind": "${3}"}'],
        ["rlm", '{"op": "rlm", "plan": {"steps": [${1}]}, "bind": "${2}"}'],
        ["tool", '{"op": "tool", "name": "${1}", "args": ${2}, "bind": "${3}"}'],
        ["parallel", '{"op": "parallel", "plans": [{"steps": [${1}]}], "bind": "${2}"}'],
        ["retry", '{"op": "retry", "attempts": ${1:3}, "plan": {"steps": [${2}]}, "bind": "${3}"}'],
        ["checkpoint", '{"op": "checkpoint", "label": "${1}"}'],
        ["final", '{"op": "final", "value": ${1}}'],
      ],
    );
    assert.ok(items.every((item) => item.insertTextFormat === InsertTextFormat.Snippet));
  });

  it("offers steps after an existing step and inside nested plans and branches", () => {
    for (const marked of [
      '{"steps": [{"op": "checkpoint", "label": "a"}, |]}',
      '{"steps": [{"op": "rlm", "plan": {"steps": [|]}, "bind": "r"}]}',
      '{"steps": [{"op": "parallel", "plans": [{"steps": [{"op": "final", "value": 1}]}, {"steps": [|]}], "bind": "p"}]}',
      '{"steps": [{"op": "retry", "attempts": 2, "plan": {"steps": [\n  |\n]}, "bind": "r"}]}',
    ]) {
      const { items } = complete(marked);
      assert.deepEqual(
        items.map((item) => item.label),
        OPERATIONS,
        marked,
      );
    }
  });

  it("offers no step where none goes: a steps key inside an expression, an unknown key", () => {
    // Inside args, a "steps" list is just a list of expressions.
    assert.deepEqual(
      complete('{"steps": [{"op": "tool", "args": {"steps": [|]}}]}').items.map((item) => item.label),
      ["input reference", "var reference", "field reference"],
    );
    assert.deepEqual(complete('{"steps": [{"op": "tool", "whatever": |}]}').items, []);
    assert.deepEqual(complete('{"description": |, "steps": []}').items, []);
  });
});
