// The built-in tools: a table of arguments and results (or error messages), each documented
// example, and the list of names the host-profile schema offers.

import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { describe, test } from "node:test";
import { BUILTIN_TOOL_NAMES, BUILTIN_TOOLS, builtinTool, type BuiltinToolName } from "@rlm-plan/core/host";
import type { JsonValue } from "@rlm-plan/core";

const ROOT = resolve(__dirname, "..", "..", "..");
const context = { signal: new AbortController().signal, tool: "t" };

async function run(name: BuiltinToolName, args: JsonValue): Promise<{ value: unknown } | { error: string }> {
  try {
    return { value: await builtinTool(name)(args, context) };
  } catch (error) {
    return { error: (error as Error).message };
  }
}

type Case = readonly [BuiltinToolName, JsonValue, { value: JsonValue } | { error: string }];

const CASES: readonly Case[] = [
  ["count_items", [1, "a", null, [2]], { value: 4 }],
  ["count_items", [], { value: 0 }],
  ["count_items", "abc", { error: "count_items expects a list" }],
  ["count_items", { items: [1] }, { error: "count_items expects a list" }],
  ["sum", [1, 2, 3.5], { value: 6.5 }],
  ["sum", [], { value: 0 }],
  ["sum", [1, "2"], { error: "sum expects a list of numbers" }],
  ["sum", [1e308, 1e308], { error: "sum: the total is too large for a JSON number" }],
  ["join", ["a", "b"], { value: "a\nb" }],
  ["join", { items: ["a", "b", "c"], separator: ", " }, { value: "a, b, c" }],
  ["join", { items: [] }, { value: "" }],
  ["join", ["a", 1], { error: "join expects a list of texts" }],
  ["join", { items: ["a"], separator: 1 }, { error: 'join: "separator" must be a text' }],
  ["join", "a", { error: 'join expects a list of texts or {"items": [texts], "separator": text}' }],
  ["unique", [3, 1, 3, "a", "a", { x: 1, y: 2 }, { y: 2, x: 1 }], { value: [3, 1, "a", { x: 1, y: 2 }] }],
  ["unique", 5, { error: "unique expects a list" }],
  ["sort", [3, 1, 2, -1.5], { value: [-1.5, 1, 2, 3] }],
  ["sort", ["b", "a", "B", "é", "😀", "z"], { value: ["B", "a", "b", "z", "é", "😀"] }],
  ["sort", { items: [1, 3, 2], descending: true }, { value: [3, 2, 1] }],
  ["sort", [1, "a"], { error: "sort expects a list of numbers or a list of texts" }],
  ["sort", { items: [1], descending: "yes" }, { error: 'sort: "descending" must be true or false' }],
  ["pick", { items: [{ id: 1 }, { id: 2, x: 0 }], field: "id" }, { value: [1, 2] }],
  [
    "pick",
    { items: [{ id: 1 }, { x: 2 }], field: "id" },
    { error: 'pick: item 2 is not an object with the field "id"' },
  ],
  ["pick", { items: [{ id: 1 }] }, { error: 'pick expects {"items": [objects], "field": name}' }],
  ["pick", [{ id: 1 }], { error: 'pick expects {"items": [objects], "field": name}' }],
  ["length", "héllo 😀", { value: 7 }],
  ["length", "", { value: 0 }],
  ["length", ["a"], { error: "length expects a text" }],
];

describe("built-in tools", () => {
  for (const [name, args, expected] of CASES) {
    test(`${name}(${JSON.stringify(args)})`, async () => {
      assert.deepEqual(await run(name, args), expected);
    });
  }

  test("each documented example holds", async () => {
    for (const info of Object.values(BUILTIN_TOOLS)) {
      assert.deepEqual(await run(info.name, info.example.args), { value: info.example.result }, info.name);
    }
  });

  test("a field named __proto__ is an ordinary field", async () => {
    const item = JSON.parse('{"__proto__": 7}') as JsonValue;
    assert.deepEqual(await run("pick", { items: [item], field: "__proto__" }), { value: [7] });
  });

  test("the host-profile schema offers exactly these names", () => {
    const schema = JSON.parse(
      readFileSync(join(ROOT, "shared-runtime", "schemas", "host-profile.schema.json"), "utf8"),
    );
    const builtin = schema.definitions.tool.oneOf[0].properties.builtin;
    assert.deepEqual(builtin.enum, [...BUILTIN_TOOL_NAMES]);
    for (const name of BUILTIN_TOOL_NAMES) assert.match(builtin.description, new RegExp(`\\b${name}\\b`));
  });
});
