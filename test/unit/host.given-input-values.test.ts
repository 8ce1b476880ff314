// The core's one check of an input value given for a run (host/inputValues.ts'
// givenInputProblem), case by case: what `run --input-text/--input-json/--inputs` refuses, and
// that no message holds the value itself (it may be a secret).

import assert from "node:assert/strict";
import { test } from "node:test";
import { givenInputProblem, parseHostProfile } from "@rlm-plan/core/host";
import type { JsonValue } from "@rlm-plan/core/json";

const parsed = parseHostProfile(
  JSON.stringify({
    capabilities: [],
    inputs: {
      doc: { type: "text", text: "a" },
      tags: { type: "items", items: ["x"] },
      url: { type: "value", value: "https://example.invalid" },
      limit: { type: "value", value: { n: 2 }, schema: { type: "object", properties: { n: { type: "integer" } } } },
    },
  }),
  "/w/rlmplan.host.json",
);
assert.ok(parsed.ok);
const profile = parsed.profile;
const READ = new Set(["doc", "question"]);

const CASES: [string, JsonValue, string | undefined][] = [
  ["doc", "any text", undefined],
  ["doc", { secret: "sk-123" }, 'input "doc" is a text: give a string, not an object'],
  ["tags", ["y"], 'input "tags" is a list of items (items): it is read from the host profile, not given as a value'],
  ["url", "https://other.invalid", undefined],
  ["url", 3, `input "url" is a string (its declared value's kind): not a number`],
  ["limit", { n: 4 }, undefined],
  ["limit", { n: "sk-secret" }, 'input "limit" does not match its schema at /n: must be integer'],
  ["question", "undeclared, but the plan reads it", undefined],
  [
    "questoin",
    "x",
    'no input "questoin": the host profile does not declare it and the plan does not read it (inputs: doc, limit, question, tags, url)',
  ],
];

for (const [name, value, expected] of CASES)
  test(`${name} = ${JSON.stringify(value)}`, () => {
    assert.equal(givenInputProblem(profile, name, value, READ), expected);
  });

test("an unreadable plan (no input names known) refuses no undeclared name: the plan's own error comes first", () => {
  assert.equal(givenInputProblem(profile, "questoin", "x", undefined), undefined);
});
