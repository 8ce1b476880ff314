// Inlay hints, in process: after a retry's attempts, its plan's steps multiplied; after a
// parallel step's plans, its width; only inside the range asked for.

import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { inlayHints } from "@rlm-plan/language-server/service/inlayHints";
import { InlayHintKind, type InlayHint, type Range } from "vscode-languageserver-protocol";
import { nthRange } from "../support/scopedPlan";
import { analyzed, onTheWire } from "./support/analyzed";

const PLAN = `{
  "steps": [
    {"op": "retry", "attempts": 3, "plan": {"steps": [
      {"op": "checkpoint", "label": "try"},
      {"op": "tool", "name": "count_items", "args": [1], "bind": "n"},
      {"op": "final", "value": {"ref": "var", "name": "n"}}
    ]}, "bind": "count"},
    {"op": "parallel", "plans": [
      {"steps": [{"op": "final", "value": 1}]},
      {"steps": [{"op": "retry", "attempts": 1, "plan": {"steps": [{"op": "final", "value": 2}]}, "bind": "two"}, {"op": "final", "value": {"ref": "var", "name": "two"}}]}
    ], "bind": "both"},
    {"op": "final", "value": {"ref": "var", "name": "both"}}
  ]
}
`;

const WHOLE: Range = { start: { line: 0, character: 0 }, end: { line: 14, character: 0 } };

describe("inlay hints: retry and parallel costs", () => {
  function hints(text: string, range: Range): InlayHint[] {
    return onTheWire(inlayHints(analyzed(text).plan, range));
  }

  it("multiplies a retry's plan by its attempts and shows a parallel step's width", () => {
    assert.deepEqual(hints(PLAN, WHOLE), [
      {
        position: nthRange(PLAN, '"attempts": 3', 0).end,
        label: "×3 = 9 steps",
        kind: InlayHintKind.Type,
        paddingLeft: true,
        tooltip: "Worst case, every attempt runs: 3 steps × 3 attempts = 9 steps, besides the retry step itself.",
      },
      {
        position: nthRange(PLAN, '"attempts": 1', 0).end,
        label: "×1 = 1 step",
        kind: InlayHintKind.Type,
        paddingLeft: true,
        tooltip: "Worst case, every attempt runs: 1 step × 1 attempt = 1 step, besides the retry step itself.",
      },
      {
        position: nthRange(PLAN, '"two"}}]}\n    ]', 0).end,
        label: "width 2",
        kind: InlayHintKind.Type,
        paddingLeft: true,
        tooltip: "2 branch plans, counted against the budget's max_parallel.",
      },
    ]);
  });

  it("only the hints inside the requested range", () => {
    const firstLines: Range = { start: { line: 0, character: 0 }, end: { line: 3, character: 0 } };
    const labels = hints(PLAN, firstLines)?.map((hint) => hint.label);
    assert.deepEqual(labels, ["×3 = 9 steps"]);
  });

  it("no hints for steps that did not normalize", () => {
    const broken = PLAN.replace('"attempts": 3', '"attempts": "three"');
    const labels = hints(broken, WHOLE)?.map((hint) => hint.label);
    assert.deepEqual(labels, ["×1 = 1 step", "width 2"]);
  });
});
