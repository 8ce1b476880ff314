// Format Document on hostile documents, in process: each is refused (no edits, and the reason
// given to the caller) or answered in few edits that format it exactly as jsonc-parser would;
// a range in a document too large to format whole is still formatted. Timing is the bench's
// (bench/formatting.bench.ts), not this test's.

import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { formatPlan, MAX_SEPARATE_EDITS } from "@rlm-plan/language-server/service/formatting";
import { applyEdits, format } from "jsonc-parser";
import type { TextEdit } from "vscode-languageserver-protocol";
import { TextDocument } from "vscode-languageserver-textdocument";
import { hostileDocuments } from "../support/hostileDocuments";

const OPTIONS = { tabSize: 2, insertSpaces: true };

/** A slow document runs only with RLM_PLAN_HOSTILE=1 (the bench formats it always); the output says it was skipped. */
const SLOW_SKIPPED = process.env.RLM_PLAN_HOSTILE === "1" ? false : "slow: RLM_PLAN_HOSTILE=1 runs it";

function formatted(
  text: string,
  range?: TextEdit["range"],
): { edits: TextEdit[]; messages: string[]; doc: TextDocument } {
  const doc = TextDocument.create("file:///hostile.rlmplan.json", "rlm-plan", 1, text);
  const messages: string[] = [];
  const edits = formatPlan({ document: doc }, { options: OPTIONS, ...(range ? { range } : {}) }, (m) =>
    messages.push(m),
  );
  return { edits, messages, doc };
}

const REFUSALS: Readonly<Record<string, string>> = {
  "200,000 duplicate keys (1.2 MB, one line)":
    "Not formatted: 1.1 MB of text is more than the 0.5 MB formatting handles at once; format a selection of it instead.",
  "5.8 MB, 60,000 steps":
    "Not formatted: 5.5 MB of text is more than the 0.5 MB formatting handles at once; format a selection of it instead.",
  "20 KB of [":
    "Not formatted: the document nests 20000 levels deep, more than the 128 formatting handles; flatten it first.",
  "150,000 numbers on one line":
    "Not formatted: 150012 commas, colons, brackets and comments are more than the 50000 formatting handles at once; format a selection of it instead.",
  "100,000 comments":
    "Not formatted: 100010 commas, colons, brackets and comments are more than the 50000 formatting handles at once; format a selection of it instead.",
};

describe("formatting hostile documents", () => {
  for (const { name, text, formatting, slow } of hostileDocuments()) {
    if (formatting === "refused") {
      it(`${name}: refused, no edits, the reason told`, () => {
        const { edits, messages } = formatted(text);
        assert.deepEqual(edits, []);
        assert.deepEqual(messages, [REFUSALS[name]]);
      });
    } else {
      const skip = slow ? SLOW_SKIPPED : false;
      it(
        `${name}: formatted in at most ${MAX_SEPARATE_EDITS} edits, exactly as jsonc-parser formats it`,
        { skip },
        () => {
          const { edits, messages, doc } = formatted(text);
          assert.deepEqual(messages, []);
          assert.ok(edits.length >= 1 && edits.length <= MAX_SEPARATE_EDITS, `${edits.length} edits`);
          const expected = applyEdits(
            text,
            format(text, undefined, { ...OPTIONS, eol: "\n", insertFinalNewline: false }),
          );
          assert.equal(TextDocument.applyEdits(doc, edits), expected);
        },
      );
    }
  }

  it("500 KB of blank lines: the lines go, the plan is laid out", () => {
    const text = hostileDocuments().find((d) => d.name === "500 KB of blank lines")?.text ?? "";
    const { edits, doc } = formatted(text);
    assert.equal(
      TextDocument.applyEdits(doc, edits),
      '{\n  "steps": [\n    {\n      "op": "final",\n      "value": 1\n    }\n  ]\n}',
    );
  });

  it("a selection of the 5.8 MB plan is formatted: only the lines it covers change", () => {
    const text = hostileDocuments().find((d) => d.name === "5.8 MB, 60,000 steps")?.text ?? "";
    const { edits, messages, doc } = formatted(text, {
      start: { line: 2, character: 0 },
      end: { line: 3, character: 0 },
    });
    assert.deepEqual(messages, []);
    // The selected line's object is laid out (at the line's own indentation, none); no other line changes.
    assert.deepEqual(TextDocument.applyEdits(doc, edits).split("\n").slice(0, 7), [
      '{"steps": [',
      '{"op": "checkpoint", "label": "step 0 of a plan that is five megabytes long, give or take"},',
      "{",
      '  "op": "checkpoint",',
      '  "label": "step 1 of a plan that is five megabytes long, give or take"',
      "},",
      '{"op": "checkpoint", "label": "step 2 of a plan that is five megabytes long, give or take"},',
    ]);
    assert.equal(edits.length, 3);
  });

  it("a document just over the limits is refused, a selection of it is not; the limit counts what the selection covers", () => {
    const text = `{"steps":[${'{"op":"checkpoint","label":"x"},\n'.repeat(9_000)}{"op":"final","value":1}]}`;
    const whole = formatted(text);
    assert.deepEqual(whole.edits, []);
    assert.match(
      whole.messages[0] ?? "",
      /^Not formatted: 54010 commas, colons, brackets and comments are more than the 50000 formatting handles at once; format a selection of it instead\.$/,
    );
    const part = formatted(text, { start: { line: 10, character: 0 }, end: { line: 12, character: 0 } });
    assert.deepEqual(part.messages, []);
    assert.equal(part.edits.length, 10);
  });
});
