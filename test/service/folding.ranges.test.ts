// Folding ranges, in process: objects and arrays that span lines (ending on the line before
// their closing bracket), one fold per starting line (the outermost), a block comment over
// several lines and a run of line comments.

import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { foldingRanges } from "@rlm-plan/language-server/service/folding";
import { FoldingRangeKind } from "vscode-languageserver-protocol";
import { analyzed } from "./support/analyzed";

describe("folding: objects, arrays and comments", () => {
  function folds(text: string) {
    return foldingRanges(analyzed(text).plan);
  }

  it("folds multi-line objects, arrays and comments", () => {
    const text = [
      /*  0 */ "// A plan to fold:",
      /*  1 */ "// three lines of",
      /*  2 */ "// header comment.",
      /*  3 */ "{",
      /*  4 */ '  "steps": [',
      /*  5 */ '    {"op": "retry", "attempts": 2, "plan": {"steps": [',
      /*  6 */ '      {"op": "checkpoint", "label": "a"},',
      /*  7 */ '      {"op": "final", "value": 1}',
      /*  8 */ '    ]}, "bind": "r"},',
      /*  9 */ "    /* a block comment",
      /* 10 */ "       over two lines */",
      /* 11 */ "    {",
      /* 12 */ '      "op": "final",',
      /* 13 */ '      "value": {"ref": "var", "name": "r"}',
      /* 14 */ "    }",
      /* 15 */ "  ]",
      /* 16 */ "}",
      "",
    ].join("\n");
    assert.deepEqual(folds(text), [
      { startLine: 0, endLine: 2, kind: FoldingRangeKind.Comment },
      { startLine: 3, endLine: 15 },
      { startLine: 4, endLine: 14 },
      { startLine: 5, endLine: 7 },
      { startLine: 9, endLine: 10, kind: FoldingRangeKind.Comment },
      { startLine: 11, endLine: 13 },
    ]);
  });

  it("nothing to fold on one line", () => {
    assert.deepEqual(folds('{"steps": [{"op": "final", "value": 1}]} // done\n'), []);
  });

  it("folds what it can of broken text", () => {
    const text = ["{", '  "steps": [', '    {"op": "final",', '     "value": 1', "  ]", ""].join("\n");
    // The unclosed root ends where the text does, on the "]" line.
    assert.deepEqual(folds(text), [
      { startLine: 0, endLine: 3 },
      { startLine: 1, endLine: 3 },
      { startLine: 2, endLine: 3 },
    ]);
  });
});
