// A malformed final step is reported as what it is: the editor's analysis gives its own
// problem and not also "the plan does not end with a final step" on the step before it. The
// runtime's first-error answer is unchanged.

import assert from "node:assert/strict";
import { test } from "node:test";
import { analyzePlanText } from "@rlm-plan/core/analysis";
import { parsePlan } from "@rlm-plan/core/plan/parse";

function codes(text: string): string[][] {
  return analyzePlanText(text).problems.map((p) => [
    p.reason ?? p.kind,
    text.slice(p.range.offset, p.range.offset + p.range.length),
  ]);
}

const CHECKPOINT = '{"op": "checkpoint", "label": "l"}';

test("a final step without a value: only its missing field", () => {
  assert.deepEqual(codes(`{"steps": [${CHECKPOINT}, {"op": "final"}]}`), [["missing_field", '{"op": "final"}']]);
});

test("a final step whose value does not normalize: only that value's problem", () => {
  assert.deepEqual(codes(`{"steps": [${CHECKPOINT}, {"op": "final", "value": {"ref": "nope"}}]}`), [
    ["unknown_reference", '"nope"'],
  ]);
});

test("nested: a broken final ends its sub-plan too", () => {
  assert.deepEqual(
    codes(
      `{"steps": [{"op": "rlm", "plan": {"steps": [${CHECKPOINT}, {"op": "final"}]}, "bind": "x"}, {"op": "final", "value": 1}]}`,
    ),
    [["missing_field", '{"op": "final"}']],
  );
});

test("a broken final that is not last is still misplaced", () => {
  assert.deepEqual(codes(`{"steps": [{"op": "final"}, ${CHECKPOINT}]}`), [
    ["missing_field", '{"op": "final"}'],
    ["final_must_be_unique_and_last", '"final"'],
  ]);
});

test("a plan that really has no final step still says so", () => {
  assert.deepEqual(codes(`{"steps": [${CHECKPOINT}]}`), [["final_must_be_unique_and_last", '"checkpoint"']]);
});

test("the runtime's answer is the first problem, as before", () => {
  const parsed = parsePlan({ kind: "value", value: { steps: [{ op: "checkpoint", label: "l" }, { op: "final" }] } });
  assert.equal(parsed.plan, undefined);
  assert.deepEqual(
    parsed.problems.map((p) => p.detail),
    ["missing_field(value)"],
  );
});
