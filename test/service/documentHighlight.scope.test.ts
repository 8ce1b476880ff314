// Document highlight, in process: on a binding or any use of it, the binding (Write) and
// every use in its scope (Read), in source order; a namesake in a sibling branch stays unlit.

import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { documentHighlights } from "@rlm-plan/language-server/service/documentHighlight";
import { DocumentHighlightKind, type DocumentHighlight } from "vscode-languageserver-protocol/node";
import { cursorIn, nthRange, SCOPED_HOST_TEXT, SCOPED_PLAN } from "../support/scopedPlan";
import { analyzedAt, onTheWire } from "./support/analyzed";

describe("document highlight: a binding and its uses", () => {
  function highlights(marked: string): DocumentHighlight[] {
    const { plan, position } = analyzedAt(marked, { host: SCOPED_HOST_TEXT });
    return onTheWire(documentHighlights(plan, position));
  }

  const write = (needle: string, n: number) => ({
    range: nthRange(SCOPED_PLAN, needle, n),
    kind: DocumentHighlightKind.Write,
  });
  const read = (needle: string, n: number) => ({
    range: nthRange(SCOPED_PLAN, needle, n),
    kind: DocumentHighlightKind.Read,
  });

  it("from the binding and from a use in a nested branch: the same answer", () => {
    const all = [write('"hits"', 0), read('"hits"', 1), read('"hits"', 2), read('"hits"', 4)];
    assert.deepEqual(highlights(cursorIn(SCOPED_PLAN, '"hits"', 0)), all);
    assert.deepEqual(highlights(cursorIn(SCOPED_PLAN, '"hits"', 2, 3)), all);
  });

  it("a branch's binding: its own branch only", () => {
    assert.deepEqual(highlights(cursorIn(SCOPED_PLAN, '"n"', 1)), [write('"n"', 0), read('"n"', 1)]);
    assert.deepEqual(highlights(cursorIn(SCOPED_PLAN, '"n"', 2)), [write('"n"', 2), read('"n"', 3)]);
  });

  it("nothing on an unbound variable, a key, an input or a tool name", () => {
    const unbound = SCOPED_PLAN.replace('"name": "answer"}', '"name": "answr"}');
    assert.deepEqual(highlights(cursorIn(unbound, '"answr"', 0)), []);
    assert.deepEqual(highlights(cursorIn(SCOPED_PLAN, '"bind"', 0)), []);
    assert.deepEqual(highlights(cursorIn(SCOPED_PLAN, '"doc"', 0)), []);
    assert.deepEqual(highlights(cursorIn(SCOPED_PLAN, '"count_items"', 0)), []);
  });
});
