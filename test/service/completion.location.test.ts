// Completion finds the cursor from the cached tree (server/src/service/cursorLocation.ts) instead of
// rescanning the whole text: at every offset of valid, commented, oddly shaped and broken texts
// it must say exactly what jsonc-parser's getLocation says. Completion (the feature, in process) in a
// long plan works with a syntax error after the cursor (read from the tree) and before it
// (getLocation decides).

import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { parseJsoncDocument } from "@rlm-plan/core/text/planDocument";
import { completion } from "@rlm-plan/language-server/service/completion";
import { cursorLocation } from "@rlm-plan/language-server/service/cursorLocation";
import { getLocation } from "jsonc-parser";
import { analyzedAt, itemsOf } from "./support/analyzed";

const OPERATIONS = ["context", "model", "rlm", "tool", "parallel", "retry", "checkpoint", "final"];

const TEXTS = [
  `{"steps": [
  {"op": "tool", "name": "t", "args": [1, -2.5e3, true, false, null], "bind": "a"},
  /* a comment */ {"op": "rlm", "plan": {"steps": [
    {"op": "final", "value": {"ref": "var", "name": "a"}} // another
  ]}, "bind": "b"},
  {"op": "parallel", "plans": [{"steps": []}, {"steps": [{"op": "final", "value": [[], {}, [[{}]]]}]}], "bind": "c"},
  {"op": "final", "value": {"k\\"ey": "\\u00e9", "ref": "field", "value": {"ref": "var", "name": "c"}, "key": "x"}}
]}`,
  '{"steps": [{}, ]}',
  '[[{}], [], [1, {"a": [ ]}], {}]',
  '{"a": {"b": [1, {"c": 2,}, ], }, "d": {}}',
  '\r\n  {"a"\r\n:\r\n1\r\n,\r\n"b":[\r\n]}\r\n  ',
  '{"steps": [{"op": }]}',
  '{"a": 1 "b": 2}',
  '{"a" 1, "b": [1 2]}',
  '{"steps": [{"op": "final", "value": {"ref": "var", "name": "',
  '"just a string"',
  "",
];

/** Deterministic variants with a few characters deleted or inserted: syntax errors anywhere. */
function mutations(text: string, count: number): string[] {
  let seed = 12345;
  const next = (): number => {
    seed = (seed * 1103515245 + 12345) & 0x7fffffff;
    return seed / 0x7fffffff;
  };
  const pieces = ["{", "}", "[", "]", ",", ":", '"', " ", "x", "1", "\n", "/*", "//", "-"];
  const variants: string[] = [];
  for (let k = 0; k < count; k++) {
    let variant = text;
    for (let edits = 1 + Math.floor(next() * 3); edits > 0; edits--) {
      const at = Math.floor(next() * (variant.length + 1));
      variant =
        next() < 0.5
          ? variant.slice(0, at) + variant.slice(at + 1 + Math.floor(next() * 3))
          : variant.slice(0, at) + (pieces[Math.floor(next() * pieces.length)] ?? "") + variant.slice(at);
    }
    variants.push(variant);
  }
  return variants;
}

/** A plan of `count` tool steps, each step's args naming the previous step's binding. */
function longPlan(count: number): string {
  const steps = Array.from(
    { length: count },
    (_, i) =>
      `    {"op": "tool", "name": "t", "args": [${i > 0 ? `{"ref": "var", "name": "v${i - 1}"}` : ""}], "bind": "v${i}"}`,
  );
  return `{\n  "steps": [\n${steps.join(",\n")}\n  ]\n}\n`;
}

describe("completion: where the cursor is", () => {
  it("says what getLocation says at every offset", () => {
    let compared = 0;
    for (const text of [...TEXTS, ...mutations(TEXTS[0] as string, 60)]) {
      const parsed = parseJsoncDocument(text);
      const tree = parsed.tree();
      for (let offset = 0; offset <= text.length; offset++) {
        const expected = getLocation(text, offset);
        const previous = expected.previousNode;
        assert.deepEqual(
          cursorLocation(text, tree, parsed.syntaxErrors, offset),
          {
            path: expected.path,
            isAtPropertyKey: expected.isAtPropertyKey,
            previous: previous && { offset: previous.offset, length: previous.length, type: previous.type },
          },
          `at ${offset}: ${JSON.stringify(text.slice(Math.max(0, offset - 20), offset))}|${JSON.stringify(text.slice(offset, offset + 10))}`,
        );
        compared++;
      }
    }
    assert.ok(compared > 10_000);
  });

  describe("in a long plan", () => {
    function labels(marked: string): string[] {
      const { plan, position } = analyzedAt(marked);
      return itemsOf(completion(plan, position)).map((item) => item.label);
    }

    const plan = longPlan(300);
    const opAt = (text: string, n: number): string => {
      const at = text.indexOf(`"op": "tool", "name": "t", "args": [{"ref": "var", "name": "v${n - 1}"}]`);
      return `${text.slice(0, at + 8)}|${text.slice(at + 8)}`;
    };

    it("operations with a half-typed step after the cursor", () => {
      const broken = plan.replace('"bind": "v299"}', '"bind": "v299"}, {"op": "mo');
      assert.deepEqual(labels(opAt(broken, 150)), OPERATIONS);
    });

    it("operations with a syntax error before the cursor", () => {
      const broken = plan.replace('"bind": "v10"},', '"bind": "v10"}');
      assert.deepEqual(labels(opAt(broken, 150)), OPERATIONS);
    });

    it("every earlier binding at a variable reference, in order", () => {
      const at = plan.indexOf('{"ref": "var", "name": "v199"}') + '{"ref": "var", "name": "'.length;
      const names = labels(`${plan.slice(0, at)}|${plan.slice(at)}`);
      assert.deepEqual(
        names,
        Array.from({ length: 200 }, (_, i) => `v${i}`),
      );
    });
  });
});
