// A step dropped for a problem already reported (a number overflowing to Infinity, an unknown
// reference) does not also make its plan "empty" or "without a final step".

import assert from "node:assert/strict";
import { test } from "node:test";
import { analyzePlanText } from "@rlm-plan/core";

const CASES: readonly [string, string, string[]][] = [
  [
    "a final value overflowing to Infinity",
    '{"steps":[{"op":"final","value":1e999}]}',
    ["numbers must be finite: JSON has no NaN or Infinity, and this one overflows"],
  ],
  [
    "a nested plan whose only step is broken",
    '{"steps":[{"op":"rlm","plan":{"steps":[{"op":"final","value":-1e400}]},"bind":"x"},{"op":"final","value":{"ref":"var","name":"x"}}]}',
    ["numbers must be finite: JSON has no NaN or Infinity, and this one overflows"],
  ],
  ["a plan with no steps at all", '{"steps":[]}', ["a plan needs at least one step, ending with a final step"]],
];

for (const [name, text, messages] of CASES) {
  test(name, () => {
    const analysis = analyzePlanText(text, { capabilities: ["rlm"], budget: "default" });
    assert.deepEqual(
      analysis.problems.map((p) => p.message),
      messages,
    );
  });
}
