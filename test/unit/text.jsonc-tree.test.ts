// The core's jsonc tree (text/jsoncTree.ts) is jsonc-parser's parseTree node for node, errors
// included, on plans, broken texts and every JSON file the repository's examples and golden plans
// hold; and it is the smaller of the two to keep, which is why the language server uses it.

import assert from "node:assert/strict";
import { readdirSync, readFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { test } from "node:test";
import { setFlagsFromString } from "node:v8";
import { runInNewContext } from "node:vm";
import { parseTree, type Node, type ParseError, type ParseOptions } from "jsonc-parser";
import { parseJsoncTree } from "@rlm-plan/core/text/jsoncTree";

const REPO = resolve(__dirname, "..", "..", "..");
const OPTIONS: ParseOptions = { allowTrailingComma: true, disallowComments: false };

/** A chain of tool steps, each reading the one before, pretty-printed. */
function planText(steps: number): string {
  const chain = Array.from({ length: steps - 1 }, (_, i) => ({
    op: "tool",
    name: "echo",
    args: i === 0 ? "seed" : { ref: "var", name: `x${i}` },
    bind: `x${i + 1}`,
  }));
  return JSON.stringify({ steps: [...chain, { op: "final", value: { ref: "var", name: `x${steps - 1}` } }] }, null, 2);
}

function assertSameAsParseTree(text: string, options: ParseOptions = OPTIONS): void {
  const expectedErrors: ParseError[] = [];
  const expected = parseTree(text, expectedErrors, options);
  const errors: ParseError[] = [];
  assert.deepStrictEqual(parseJsoncTree(text, errors, options), expected, JSON.stringify(text.slice(0, 80)));
  assert.deepStrictEqual(errors, expectedErrors, JSON.stringify(text.slice(0, 80)));
}

test("broken and unusual texts: the same nodes, fields and errors as parseTree", () => {
  const texts = [
    "",
    "  ",
    "nul",
    '"s"',
    "1 2",
    "[1, 2",
    "[,]",
    "[{]}",
    "{]",
    "{,}",
    '{"a"',
    '{"a":',
    '{"a":1',
    '{"a": }',
    '{"a" 1}',
    '{"a":[}',
    '{"a": 1 "b": 2}',
    '{"a":1,,"b":2}',
    '{"a": {"b": [',
    '{"a":[1,{"b":null,}],}',
    '{"a": 1, "a": 2, "b": {"a": [true, false, -1.5e3]}}',
    '// comment\n{"x": true /* block */, "z": [1e3, -1, "\\u00e9\\n"]}',
    '{"steps": [{"op": "final", "value": "ünïcödé 🎉"}]}',
  ];
  for (const text of texts) assertSameAsParseTree(text);
  assertSameAsParseTree("// not allowed\n[1,]", { disallowComments: true, allowTrailingComma: false });
});

test("every JSON file of the examples and the golden plans: the same tree as parseTree", () => {
  const files: string[] = [];
  const walk = (dir: string): void => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      const path = join(dir, entry.name);
      if (entry.isDirectory()) walk(path);
      else if (entry.name.endsWith(".json")) files.push(path);
    }
  };
  walk(join(REPO, "examples"));
  walk(join(REPO, "test", "service", "golden", "plans"));
  assert.ok(files.length >= 20, `only ${files.length} files`);
  for (const file of files) assertSameAsParseTree(readFileSync(file, "utf8"));
  assertSameAsParseTree(planText(2_000));
});

test("the tree of a 10,000-step plan is kept in at most 75% of the heap parseTree's takes", () => {
  // Heap after a full collection: a count of bytes, not a time. parseTree grows every child list
  // from `[]` to 17 slots; here each list has its exact length and property names are shared.
  setFlagsFromString("--expose-gc");
  const gc = runInNewContext("gc") as () => void;
  const text = planText(10_000);
  const kept = (parse: () => Node | undefined): number => {
    gc();
    const before = process.memoryUsage().heapUsed;
    const tree = parse();
    gc();
    const bytes = process.memoryUsage().heapUsed - before;
    assert.ok(tree);
    return bytes;
  };
  const theirs = kept(() => parseTree(text, [], OPTIONS));
  const ours = kept(() => parseJsoncTree(text, [], OPTIONS));
  assert.ok(ours <= theirs * 0.75, `${ours} bytes kept against parseTree's ${theirs}`);
});
