// Worst cases beyond 2^53, in process: hover, code lens, inlay hints and diagnostics show the
// exact figures.

import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { codeLenses } from "@rlm-plan/language-server/service/codeLens";
import { planDiagnostics } from "@rlm-plan/language-server/service/diagnostics";
import { hover as hoverOf } from "@rlm-plan/language-server/service/hover";
import { inlayHints } from "@rlm-plan/language-server/service/inlayHints";
import { analyzed, analyzedAt, hoverValue } from "./support/analyzed";

/** A retry of a billion attempts around another: 2,000,000,002,000,000,002 steps in the worst case. */
const PLAN = `{
  "steps": [
    {"op": "retry", "attempts": 1000000000, "plan": {"steps": [
      {"op": "retry", "attempts": 1000000000, "plan": {"steps": [
        {"op": "tool", "name": "count_items", "args": [1], "bind": "n"},
        {"op": "final", "value": {"ref": "var", "name": "n"}}
      ]}, "bind": "inner"},
      {"op": "final", "value": {"ref": "var", "name": "inner"}}
    ]}, "bind": "outer"},
    {"op": "final", "value": {"ref": "var", "name": "outer"}}
  ]
}
`;

describe("costs beyond 2^53", () => {
  const { plan } = analyzed(PLAN, { name: "bignum.rlmplan.json" });

  it("the budget diagnostic names the exact worst case", () => {
    const diagnostics = planDiagnostics(plan, { hostProblemsAsErrors: false });
    const messages = diagnostics.filter((d) => d.code === "budget_exceeded").map((d) => d.message);
    assert.deepEqual(messages, [
      `worst case steps 2000000002000000002 exceeds the budget's max_steps of 64 (the default budget): make the plan do less, or set "max_steps" in a host profile's budget`,
      `worst case tool calls 1000000000000000000 exceeds the budget's max_tool_calls of 16 (the default budget): make the plan do less, or set "max_tool_calls" in a host profile's budget`,
    ]);
  });

  it("hover on the outer retry multiplies exactly", () => {
    const at = analyzedAt(PLAN.replace('"attempts": 1000000000', '"attempts": 1|000000000'));
    const value = hoverValue(hoverOf(at.plan, at.position));
    assert.ok(value !== undefined);
    const lines = value.split("\n\n");
    assert.deepEqual(lines.slice(2, 5), [
      "**Worst case of this step:** 2000000002000000001 steps · depth 3 · parallel width 0 · 0 model calls · 1000000000000000000 tool calls · 0 context operations",
      "**Retry:** 1000000000 attempts × 2000000002 steps = 2000000002000000000 steps, plus the retry step · 1000000000 attempts × 1000000000 tool calls = 1000000000000000000 tool calls",
      "**Plan so far** (up to and including this step): steps 2000000002000000001 of 64 (over) · depth 3 of 4 · parallel width 0 of 8 · model calls 0 of 8 · tool calls 1000000000000000000 of 16 (over) · context operations 0 of 32",
    ]);
  });

  it("the code lens and the inlay hints show the exact figures", () => {
    const lenses = codeLenses(plan);
    assert.deepEqual(
      lenses.map((lens) => lens.command?.title),
      ["▶ Run plan (steps 2000000002000000002/64 ⚠ · tools 1000000000000000000/16 ⚠ · depth 3/4)"],
    );
    const range = { start: { line: 0, character: 0 }, end: { line: 12, character: 0 } };
    const hints = inlayHints(plan, range);
    assert.deepEqual(
      hints.map((hint) => hint.label),
      ["×1000000000 = 2000000002000000000 steps", "×1000000000 = 2000000000 steps"],
    );
  });
});
