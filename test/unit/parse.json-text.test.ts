// Strict JSON text: what JSON.parse forgives (duplicate keys) is still caught, whichever of
// the fast and precise checks settles it, and colons inside strings confuse neither.

import assert from "node:assert/strict";
import { test } from "node:test";
import { parseJsonText } from "@rlm-plan/core/text/jsonText";

function check(text: string, expected: { ok: true } | { code: string; offset: number; key?: string }): void {
  const result = parseJsonText(text);
  if ("ok" in expected) {
    assert.equal(result.ok, true, JSON.stringify(result));
    return;
  }
  assert.equal(result.ok, false);
  if (result.ok) return;
  assert.deepEqual(
    {
      code: result.error.code,
      offset: result.error.offset,
      ...(result.error.key === undefined ? {} : { key: result.error.key }),
    },
    expected,
  );
}

test("no colon in any string: the value's keys match the text's colons", () => {
  check('{"a": 1, "b": {"c": [1, {"d": 2}]}}', { ok: true });
});

test("colons inside strings, no duplicate: accepted", () => {
  check('{"url": "http://x:8080/a:b", "note": "a: b: c", "k": {"x": ":"}}', { ok: true });
});

test("a duplicate key with no colon in strings", () => {
  check('{"a": 1, "a": 2}', { code: "duplicate_key", offset: 9, key: "a" });
});

test("a duplicate key beside a colon in a string (counts that could cancel out do not)", () => {
  check('{"a": "x:y", "a": 2}', { code: "duplicate_key", offset: 13, key: "a" });
});

test("a duplicate key in a nested object, after a key that contains a colon", () => {
  check('{"a:b": {"c": 1, "c": 2}}', { code: "duplicate_key", offset: 17, key: "c" });
});

test("the same key in different objects is not a duplicate", () => {
  check('[{"a": 1}, {"a": 2}, {"b": {"a": 3}}]', { ok: true });
});

test("1001 levels of nesting: too_deep at the bracket that crosses the limit", () => {
  check("[".repeat(1001) + "]".repeat(1001), { code: "too_deep", offset: 1000 });
});

test("1000 levels of nesting are fine", () => {
  check("[".repeat(1000) + "]".repeat(1000), { ok: true });
});
