// A failing case's actual value as the Testing view diffs it beside the expected one: keys in the
// expected value's order (then its own), recursively; values, arrays and extra keys unchanged.

import assert from "node:assert/strict";
import { test } from "node:test";
import { inExpectedOrder } from "@rlm-plan/core/testing/diffOrder";

test("keys follow the expected value's order, recursively; the rest keep theirs; values are unchanged", () => {
  const actual = { label: "news", extra: 1, title: "Example", nested: { z: 1, a: [{ y: 2, x: 1 }] } };
  const expected = { title: "Example", nested: { a: [{ x: 1, y: 3 }], z: 1 }, label: "shop" };
  const laid = inExpectedOrder(actual, expected);
  assert.equal(
    JSON.stringify(laid),
    '{"title":"Example","nested":{"a":[{"x":1,"y":2}],"z":1},"label":"news","extra":1}',
  );
  assert.deepEqual(JSON.parse(JSON.stringify(laid)), actual, "the same value");
  assert.equal(inExpectedOrder("text", { a: 1 }), "text");
  assert.equal(JSON.stringify(inExpectedOrder({ b: 1, a: 2 }, undefined)), '{"b":1,"a":2}');
});
