// Formatting, in process: the whole document or a range, with the editor's tabSize and
// insertSpaces; comments and the final newline stay. Checked by applying the edits to the text.

import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { formatPlan } from "@rlm-plan/language-server/service/formatting";
import type { FormattingOptions, Range } from "vscode-languageserver-protocol";
import { nthRange } from "../support/scopedPlan";
import { applyTextEdits } from "./support/workspaceEdits";
import { analyzed } from "./support/analyzed";

const COMPACT = `// count the hits
{"steps": [{"op": "tool", "name": "count_items", "args": [1, 2], "bind": "n"},
{"op": "final", "value": {"ref": "var", "name": "n"}}]}
`;

describe("formatting: document and range", () => {
  function format(text: string, options: FormattingOptions, range?: Range): string {
    const { plan } = analyzed(text, { name: "format.rlmplan.json" });
    return applyTextEdits(text, formatPlan(plan, range ? { options, range } : { options }));
  }

  it("formats the whole document with two spaces, keeping the comment and the final newline", () => {
    assert.equal(
      format(COMPACT, { tabSize: 2, insertSpaces: true }),
      `// count the hits
{
  "steps": [
    {
      "op": "tool",
      "name": "count_items",
      "args": [
        1,
        2
      ],
      "bind": "n"
    },
    {
      "op": "final",
      "value": {
        "ref": "var",
        "name": "n"
      }
    }
  ]
}
`,
    );
  });

  it("indents with tabs when the editor asks for them", () => {
    const text = '{"steps": [{"op": "final", "value": 1}]}';
    assert.equal(
      format(text, { tabSize: 4, insertSpaces: false }),
      '{\n\t"steps": [\n\t\t{\n\t\t\t"op": "final",\n\t\t\t"value": 1\n\t\t}\n\t]\n}',
    );
  });

  it("adds a final newline when the editor's setting asks", () => {
    const text = '{"steps": []}';
    assert.equal(format(text, { tabSize: 2, insertSpaces: true, insertFinalNewline: true }), '{\n  "steps": []\n}\n');
  });

  it("formats only the range asked for", () => {
    const text = `{
  "steps": [
    {"op":"tool",   "name":"count_items","args":[1,2],"bind":"n"},
    {"op":    "final", "value": {"ref": "var", "name": "n"}}
  ]
}
`;
    const line = nthRange(text, `{"op":"tool",   "name":"count_items","args":[1,2],"bind":"n"}`, 0);
    assert.equal(
      format(text, { tabSize: 2, insertSpaces: true }, line),
      `{
  "steps": [
    {
      "op": "tool",
      "name": "count_items",
      "args": [
        1,
        2
      ],
      "bind": "n"
    },
    {"op":    "final", "value": {"ref": "var", "name": "n"}}
  ]
}
`,
    );
  });

  it("an already formatted document needs no edits", () => {
    const text = '{\n  "steps": [\n    {\n      "op": "final",\n      "value": 1\n    }\n  ]\n}\n';
    const { plan } = analyzed(text, { name: "formatted.rlmplan.json" });
    assert.deepEqual(formatPlan(plan, { options: { tabSize: 2, insertSpaces: true } }), []);
  });
});
