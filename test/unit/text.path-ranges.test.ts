// Locating problems without a tree (text/pathRanges.ts) gives the ranges the jsonc tree gives:
// every value and every key of a plan file, asked all at once and one at a time, plus paths
// that do not exist.

import assert from "node:assert/strict";
import { test } from "node:test";
import { getNodePath, type Node } from "jsonc-parser";
import { parseJsoncDocument, parsePlanDocument } from "@rlm-plan/core/text/planDocument";
import { rangesByScan, type RangeRequest } from "@rlm-plan/core/text/pathRanges";

const TEXT = `{
  "steps": [
    {"op": "context", "handle": {"ref": "input", "name": "doc"}, "action": {"type": "search", "pattern": "a\\"b"}, "bind": "hits"},
    {"op": "parallel", "plans": [{"steps": [{"op": "final", "value": [1, {"k": null}, "x"]}]}, {"steps": []}], "bind": "p"},
    {"op": "final", "value": {"ref": "var", "name": "hits"}}
  ],
  "note": true
}`;

function everyPath(node: Node, out: RangeRequest[]): void {
  if (node.type === "property") {
    const value = node.children?.[1];
    if (value) everyPath(value, out);
    return;
  }
  const path = getNodePath(node);
  out.push({ path, target: "value" });
  if (node.parent?.type === "property") out.push({ path, target: "key" });
  for (const child of node.children ?? []) everyPath(child, out);
}

test("every value and key: the scan's ranges are the tree's", () => {
  const tree = parseJsoncDocument(TEXT);
  const requests: RangeRequest[] = [];
  everyPath(tree.tree() as Node, requests);
  assert.ok(requests.length > 50, String(requests.length));
  const expected = requests.map((r) => tree.rangeOf(r.path, r.target));
  assert.deepEqual(rangesByScan(TEXT, requests), expected);
  assert.deepEqual(rangesByScan(TEXT, requests, true), expected);
  assert.deepEqual(
    requests.map((r) => rangesByScan(TEXT, [r])[0]),
    expected,
  );
  assert.deepEqual(
    requests.map((r) => rangesByScan(TEXT, [r], true)[0]),
    expected,
  );
});

test("paths that are not in the text have no range", () => {
  assert.deepEqual(
    rangesByScan(TEXT, [
      { path: ["steps", 9] },
      { path: ["steps", 0, "nope"] },
      { path: ["steps", "0"] },
      { path: ["note", "x"] },
    ]),
    [undefined, undefined, undefined, undefined],
  );
});

test("a strict-JSON document locates problems without building its tree", () => {
  const document = parsePlanDocument(TEXT);
  const ranges = document.rangesOf([
    { path: ["steps", 2, "value", "name"] },
    { path: ["steps", 0, "bind"], target: "key" },
  ]);
  assert.deepEqual(ranges, [
    { offset: TEXT.indexOf('"hits"}}'), length: 6 },
    { offset: TEXT.indexOf('"bind": "hits"'), length: 6 },
  ]);
  assert.equal(document.builtTree?.(), undefined);
});

test("a plan file with comments takes the fast path too: same value, same ranges as the tree", () => {
  const commented = `// Needs: tool(t).\n${TEXT.replace('"steps": [', '"steps": [ /* the steps */').replace('"note": true', '"note": true // a note')}`;
  const fast = parsePlanDocument(commented);
  const tree = parseJsoncDocument(commented);
  assert.deepEqual(fast.syntaxErrors, []);
  assert.equal(JSON.stringify(fast.value), JSON.stringify(tree.value));
  const requests: RangeRequest[] = [];
  everyPath(tree.tree() as Node, requests);
  assert.deepEqual(
    fast.rangesOf(requests),
    requests.map((r) => tree.rangeOf(r.path, r.target)),
  );
  assert.equal(fast.builtTree?.(), undefined);
});

test("text with a broken escape in a key is a located syntax error, never an exception", () => {
  for (const text of ['{"\\x": 1', '{"a\\u12": 1}', '{"\\q": 1, "steps": []}']) {
    const document = parsePlanDocument(text);
    assert.ok(document.syntaxErrors.length > 0, text);
  }
});

test("a duplicate key: the scan, like the tree, gives the first; and it stops once everything is found", () => {
  const text = `{"steps": [{"op": "final", "value": 1}], "steps": [], "note": ${"[".repeat(20)}`;
  const tree = parseJsoncDocument(text);
  const requests: RangeRequest[] = [
    { path: ["steps"], target: "key" },
    { path: ["steps"], target: "value" },
    { path: ["steps", 0, "op"], target: "value" },
  ];
  assert.deepEqual(rangesByScan(text, requests), [
    { offset: 1, length: 7 },
    { offset: 10, length: 29 },
    { offset: 18, length: 7 },
  ]);
  assert.deepEqual(
    rangesByScan(text, requests),
    requests.map((r) => tree.rangeOf(r.path, r.target)),
  );
});

test("a list of 3,000 steps (positions kept in chunks of 1,024): any subset of its paths, the tree's ranges, by either scan", () => {
  const steps = Array.from({ length: 3000 }, (_, i) =>
    i % 7 === 0 ? `{"op": "checkpoint", "0": ${i}, "label": "s${i}"}` : `{"op": "checkpoint", "label": "s${i}"}`,
  );
  const text = `{"steps": [\n${steps.join(",\n")},\n{"op": "final", "value": 1}]}`;
  const tree = parseJsoncDocument(text);
  const all: RangeRequest[] = [];
  everyPath(tree.tree() as Node, all);
  // Odd segments too: positions past the list, negative and fractional ones, a number-like key.
  all.push(
    { path: ["steps", 3001] },
    { path: ["steps", 5000, "op"] },
    { path: ["steps", -1] },
    { path: ["steps", 1.5] },
    { path: ["steps", 7, "0"], target: "key" },
    { path: ["steps", 7, 0] },
  );
  // A seeded shuffle: the subsets come in no particular order.
  let seed = 22;
  const random = (n: number): number => {
    seed = (Math.imul(seed, 1103515245) + 12345) >>> 0;
    return seed % n;
  };
  for (const size of [1, 2, 17, 1024, 1025, all.length]) {
    const requests = Array.from({ length: size }, () => all[random(all.length)] as RangeRequest);
    const expected = requests.map((r) => tree.rangeOf(r.path, r.target));
    assert.deepEqual(rangesByScan(text, requests), expected, `${size} requests`);
    assert.deepEqual(rangesByScan(text, requests, true), expected, `${size} requests, strict scan`);
  }
});

/** A seeded random JSON value as text, with comments and odd spacing between its tokens. */
function randomDocument(seed: number): string {
  let state = seed;
  const random = (n: number): number => {
    state = (Math.imul(state, 1103515245) + 12345) >>> 0;
    return (state >>> 8) % n;
  };
  const gaps = ["", " ", "\n  ", "\t", "\r\n", " /* a } comment ] */ ", " // line, comment {\n", "/**/"];
  const gap = (): string => gaps[random(gaps.length)] as string;
  const strings = ['"a"', '"op"', '"steps"', '"x\\"y"', '"\\u0041b"', '"{[,:]}"', '"// not a comment"', '""', '"0"'];
  const literals = ["0", "-1.5e+3", "12", "true", "false", "null", ...strings];
  const value = (depth: number): string => {
    const kind = depth > 4 ? 2 : random(3);
    if (kind === 0) {
      const keys = Array.from({ length: random(5) }, () => strings[random(strings.length)] as string);
      return `{${gap()}${keys.map((k) => `${k}${gap()}:${gap()}${value(depth + 1)}`).join(`${gap()},${gap()}`)}${gap()}}`;
    }
    if (kind === 1)
      return `[${gap()}${Array.from({ length: random(5) }, () => value(depth + 1)).join(`${gap()},${gap()}`)}${gap()}]`;
    return literals[random(literals.length)] as string;
  };
  return `${gap()}{"steps": ${value(0)}, "more": ${value(1)}}${gap()}`;
}

test("the strict scan of 500 random documents with comments and escapes: the visitor's ranges, and the tree's, for every path and some that are not there", () => {
  let withoutDuplicates = 0;
  for (let seed = 1; seed <= 500; seed++) {
    const text = randomDocument(seed);
    const tree = parseJsoncDocument(text);
    const errors = tree.syntaxErrors.map((e) => e.code);
    assert.deepEqual(
      errors.filter((code) => code !== "duplicate_key"),
      [],
      text,
    );
    const requests: RangeRequest[] = [];
    everyPath(tree.tree() as Node, requests);
    requests.push({ path: ["steps", 99] }, { path: ["more", "nope"], target: "key" }, { path: ["A"] });
    const visited = rangesByScan(text, requests);
    assert.deepEqual(rangesByScan(text, requests, true), visited, text);
    // Under a repeated key the tree looks in the first object only, both scans in every one.
    if (errors.length === 0) {
      withoutDuplicates++;
      assert.deepEqual(
        visited,
        requests.map((r) => tree.rangeOf(r.path, r.target)),
        text,
      );
    }
    // One path at a time: every other container is skipped by counting brackets.
    for (const request of requests.slice(0, 40))
      assert.deepEqual(rangesByScan(text, [request], true), rangesByScan(text, [request]), text);
  }
  assert.ok(withoutDuplicates > 200, String(withoutDuplicates));
});

test("text that is not JSON, scanned as if it were: the visitor's ranges, never an exception", () => {
  for (const text of [
    '{"steps": [1, 2,]}',
    '{"steps": [1 2]}',
    '{"steps": [}',
    "{'steps': 1}",
    '{"steps": /* open',
    '{"a": tru}',
  ]) {
    const requests: RangeRequest[] = [{ path: ["steps"] }, { path: ["steps", 1] }, { path: ["steps"], target: "key" }];
    assert.deepEqual(rangesByScan(text, requests, true), rangesByScan(text, requests), text);
  }
});
