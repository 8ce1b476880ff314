// Answers of the reference itself (SWI-Prolog 9.0.4 running rlm_context.pl) for cases chosen to
// pin down its finer points: code points, cut characters, printed terms, limits, error details.
// Error messages are ours, so they are left out of the comparison.

import assert from "node:assert/strict";
import { test } from "node:test";
import type { JsonValue } from "@rlm-plan/core/json";
import type { ContextAction } from "@rlm-plan/core/plan/ast";
import { ContextStore, type ContextOutcome } from "@rlm-plan/core/context/store";

interface ReferenceCase {
  readonly note: string;
  readonly source: { readonly text: string } | { readonly items: JsonValue[] };
  readonly action: ContextAction;
  readonly limits: readonly [maxResults: number, maxBytes: number];
  readonly expected: unknown;
}

const CASES: readonly ReferenceCase[] = [
  {
    note: "a match cut inside a character keeps the cut byte as a character",
    source: { text: "é" },
    action: { type: "search", pattern: "é" },
    limits: [4, 1],
    expected: { ok: true, truncated: true, value: [{ index: 0, value: "Ã" }] },
  },
  {
    note: "slice cut inside a character",
    source: { text: "aé" },
    action: { type: "slice", start: 0, length: 2 },
    limits: [4, 2],
    expected: { ok: true, truncated: true, value: "aÃ" },
  },
  {
    note: "head cut inside a four-byte character",
    source: { text: "a😀b" },
    action: { type: "peek", selector: { type: "head", count: 3 } },
    limits: [4, 4],
    expected: { ok: true, truncated: true, value: "að\u009f\u0098" },
  },
  {
    note: "slice counts code points",
    source: { text: "😀a😀b\n𝔘x" },
    action: { type: "slice", start: 1, length: 3 },
    limits: [4, 512],
    expected: { ok: true, truncated: false, value: "a😀b" },
  },
  {
    note: "tail counts code points",
    source: { text: "😀a😀b\n𝔘x" },
    action: { type: "peek", selector: { type: "tail", count: 2 } },
    limits: [4, 512],
    expected: { ok: true, truncated: true, value: "𝔘x" },
  },
  {
    note: "fixed partitions count code points",
    source: { text: "😀a😀b\n𝔘x" },
    action: { type: "partition", strategy: { type: "fixed", size: 2 } },
    limits: [8, 512],
    expected: {
      ok: true,
      truncated: false,
      value: [
        { index: 0, length: 2, start: 0, value: "😀a" },
        { index: 1, length: 2, start: 2, value: "😀b" },
        { index: 2, length: 2, start: 4, value: "\n𝔘" },
        { index: 3, length: 1, start: 6, value: "x" },
      ],
    },
  },
  {
    note: "length counts code points",
    source: { text: "😀a😀b\n𝔘x" },
    action: { type: "map", transform: "length" },
    limits: [8, 512],
    expected: { ok: true, truncated: false, value: [4, 2] },
  },
  {
    note: "metadata of a text with astral characters",
    source: { text: "😀a😀b\n𝔘x" },
    action: { type: "peek", selector: { type: "metadata" } },
    limits: [4, 512],
    expected: {
      ok: true,
      truncated: false,
      value: { backend: "memory", bytes: 16, created_at: 1700000000, items: 2, kind: "text", version: 1 },
    },
  },
  {
    note: "an empty text has no items",
    source: { text: "" },
    action: { type: "reduce", reducer: "count" },
    limits: [4, 512],
    expected: { ok: true, truncated: false, value: 0 },
  },
  {
    note: "search in an empty text",
    source: { text: "" },
    action: { type: "search", pattern: "x" },
    limits: [4, 512],
    expected: { ok: true, truncated: false, value: [] },
  },
  {
    note: "an empty text is one empty line for partitions",
    source: { text: "" },
    action: { type: "partition", strategy: { type: "lines", size: 1 } },
    limits: [4, 512],
    expected: { ok: true, truncated: false, value: [{ index: 0, length: 1, start: 0, value: [""] }] },
  },
  {
    note: "an empty text has no fixed partitions",
    source: { text: "" },
    action: { type: "partition", strategy: { type: "fixed", size: 1 } },
    limits: [4, 512],
    expected: { ok: true, truncated: false, value: [] },
  },
  {
    note: "an empty text maps as one empty line",
    source: { text: "" },
    action: { type: "map", transform: "identity" },
    limits: [4, 512],
    expected: { ok: true, truncated: false, value: [""] },
  },
  {
    note: "metadata of an empty text",
    source: { text: "" },
    action: { type: "peek", selector: { type: "metadata" } },
    limits: [4, 512],
    expected: {
      ok: true,
      truncated: false,
      value: { backend: "memory", bytes: 0, created_at: 1700000000, items: 0, kind: "text", version: 1 },
    },
  },
  {
    note: "a trailing newline makes a last empty line",
    source: { text: "a\n" },
    action: { type: "partition", strategy: { type: "lines", size: 1 } },
    limits: [4, 512],
    expected: {
      ok: true,
      truncated: false,
      value: [
        { index: 0, length: 1, start: 0, value: ["a"] },
        { index: 1, length: 1, start: 1, value: [""] },
      ],
    },
  },
  {
    note: "a trailing newline counts as a line",
    source: { text: "a\n" },
    action: { type: "reduce", reducer: "count" },
    limits: [4, 512],
    expected: { ok: true, truncated: false, value: 2 },
  },
  {
    note: "lines are measured as quoted strings",
    source: { text: 'a\tb\nc"d\ne' },
    action: { type: "partition", strategy: { type: "lines", size: 1 } },
    limits: [8, 13],
    expected: {
      ok: true,
      truncated: true,
      value: [
        { index: 0, length: 1, start: 0, value: ["a\tb"] },
        { index: 1, length: 1, start: 1, value: ['c"d'] },
      ],
    },
  },
  {
    note: "reaching max_results on the last line is not truncation",
    source: { text: "x\ny\nneedle" },
    action: { type: "search", pattern: "needle" },
    limits: [1, 512],
    expected: { ok: true, truncated: false, value: [{ index: 2, value: "needle" }] },
  },
  {
    note: "reaching max_results with lines left is truncation",
    source: { text: "needle\nneedle\nx" },
    action: { type: "search", pattern: "needle" },
    limits: [2, 512],
    expected: {
      ok: true,
      truncated: true,
      value: [
        { index: 0, value: "needle" },
        { index: 1, value: "needle" },
      ],
    },
  },
  {
    note: "uppercase maps one code point to one",
    source: { text: "straße σς ǆ ᾳ ﬀ" },
    action: { type: "map", transform: "uppercase" },
    limits: [4, 512],
    expected: { ok: true, truncated: false, value: ["STRAßE ΣΣ Ǆ ᾼ ﬀ"] },
  },
  {
    note: "lowercase maps one code point to one",
    source: { text: "İSTANBUL ΑΣ Ǆ" },
    action: { type: "map", transform: "lowercase" },
    limits: [4, 512],
    expected: { ok: true, truncated: false, value: ["istanbul ασ ǆ"] },
  },
  {
    note: "a fixed partition cut inside a character ends the partitions",
    source: { text: "ééééé" },
    action: { type: "partition", strategy: { type: "fixed", size: 2 } },
    limits: [8, 5],
    expected: {
      ok: true,
      truncated: true,
      value: [
        { index: 0, length: 2, start: 0, value: "éé" },
        { index: 1, length: 2, start: 2, value: "Ã" },
      ],
    },
  },
  {
    note: "head 0",
    source: { text: "abc" },
    action: { type: "peek", selector: { type: "head", count: 0 } },
    limits: [4, 512],
    expected: { ok: true, truncated: true, value: "" },
  },
  {
    note: "tail 0",
    source: { text: "abc" },
    action: { type: "peek", selector: { type: "tail", count: 0 } },
    limits: [4, 512],
    expected: { ok: true, truncated: true, value: "" },
  },
  {
    note: "carriage returns stay in lines",
    source: { text: "l1\r\nl2" },
    action: { type: "map", transform: "length" },
    limits: [4, 512],
    expected: { ok: true, truncated: false, value: [3, 2] },
  },
  {
    note: "map stops before the first value that does not fit",
    source: { text: "alpha\nneedle one\nneedle two\nomega" },
    action: { type: "map", transform: "identity" },
    limits: [8, 16],
    expected: { ok: true, truncated: true, value: ["alpha", "needle one"] },
  },
  {
    note: "budget exhausted before a later match",
    source: { text: "alpha\nneedle one" },
    action: { type: "search", pattern: "needle" },
    limits: [4, 5],
    expected: { ok: true, truncated: true, value: [{ index: 1, value: "needl" }] },
  },
  {
    note: "a lines partition cut by the budget keeps the lines that fit",
    source: { text: "alpha\nneedle one\nneedle two\nomega" },
    action: { type: "partition", strategy: { type: "lines", size: 3 } },
    limits: [4, 12],
    expected: { ok: true, truncated: true, value: [{ index: 0, length: 1, start: 0, value: ["alpha"] }] },
  },
  {
    note: "strings are measured with quotes and escapes",
    source: {
      items: ["tab\there", 'quote"q', "back\\slash", "nl\nx", "\u0001", "é😀", "\u00a0nbsp", "\u200b", "it's"],
    },
    action: { type: "peek", selector: { type: "metadata" } },
    limits: [4, 512],
    expected: {
      ok: true,
      truncated: false,
      value: { backend: "memory", bytes: 83, created_at: 1700000000, items: 9, kind: "terms", version: 1 },
    },
  },
  {
    note: "search in a string item sees its own text",
    source: {
      items: ["tab\there", 'quote"q', "back\\slash", "nl\nx", "\u0001", "é😀", "\u00a0nbsp", "\u200b", "it's"],
    },
    action: { type: "search", pattern: "\\" },
    limits: [8, 512],
    expected: { ok: true, truncated: false, value: [{ index: 2, value: "back\\slash" }] },
  },
  {
    note: "length of string items",
    source: {
      items: ["tab\there", 'quote"q', "back\\slash", "nl\nx", "\u0001", "é😀", "\u00a0nbsp", "\u200b", "it's"],
    },
    action: { type: "map", transform: "length" },
    limits: [16, 512],
    expected: { ok: true, truncated: false, value: [8, 7, 10, 4, 1, 2, 5, 1, 4] },
  },
  {
    note: "fixed partitions of items",
    source: {
      items: ["tab\there", 'quote"q', "back\\slash", "nl\nx", "\u0001", "é😀", "\u00a0nbsp", "\u200b", "it's"],
    },
    action: { type: "partition", strategy: { type: "fixed", size: 3 } },
    limits: [8, 512],
    expected: {
      ok: true,
      truncated: false,
      value: [
        { index: 0, length: 3, start: 0, value: ["tab\there", 'quote"q', "back\\slash"] },
        { index: 1, length: 3, start: 3, value: ["nl\nx", "\u0001", "é😀"] },
        { index: 2, length: 3, start: 6, value: ["\u00a0nbsp", "\u200b", "it's"] },
      ],
    },
  },
  {
    note: "fixed partitions of items cut by the budget",
    source: {
      items: ["tab\there", 'quote"q', "back\\slash", "nl\nx", "\u0001", "é😀", "\u00a0nbsp", "\u200b", "it's"],
    },
    action: { type: "partition", strategy: { type: "fixed", size: 2 } },
    limits: [8, 40],
    expected: {
      ok: true,
      truncated: true,
      value: [
        { index: 0, length: 2, start: 0, value: ["tab\there", 'quote"q'] },
        { index: 1, length: 1, start: 2, value: ["back\\slash"] },
      ],
    },
  },
  {
    note: "an object prints as a json dict, keys in code point order",
    source: {
      items: [
        {
          "1": "x",
          "Count Items": 1,
          b: 2,
          a: [1, -2],
          "+": -1,
          _x: true,
          é: null,
          "": 0,
          "a'b": 1,
          "->": "y",
          "\ue000": 1,
          "😀": 2,
        },
      ],
    },
    action: { type: "search", pattern: "json" },
    limits: [4, 512],
    expected: {
      ok: true,
      truncated: false,
      value: [
        {
          index: 0,
          value:
            "json{'':0,+ : -1,-> :\"y\",'1':\"x\",'Count Items':1,'_x':true,a:[1,-2],'a\\'b':1,b:2,é:null,'\\uE000':1,😀 :2}",
        },
      ],
    },
  },
  {
    note: "uppercase of a printed dict",
    source: {
      items: [
        {
          "1": "x",
          "Count Items": 1,
          b: 2,
          a: [1, -2],
          "+": -1,
          _x: true,
          é: null,
          "": 0,
          "a'b": 1,
          "->": "y",
          "\ue000": 1,
          "😀": 2,
        },
      ],
    },
    action: { type: "map", transform: "uppercase" },
    limits: [4, 512],
    expected: {
      ok: true,
      truncated: false,
      value: [
        "JSON{'':0,+ : -1,-> :\"Y\",'1':\"X\",'COUNT ITEMS':1,'_X':TRUE,A:[1,-2],'A\\'B':1,B:2,É:NULL,'\\UE000':1,😀 :2}",
      ],
    },
  },
  {
    note: "metadata of a list holding a dict",
    source: {
      items: [
        {
          "1": "x",
          "Count Items": 1,
          b: 2,
          a: [1, -2],
          "+": -1,
          _x: true,
          é: null,
          "": 0,
          "a'b": 1,
          "->": "y",
          "\ue000": 1,
          "😀": 2,
        },
      ],
    },
    action: { type: "peek", selector: { type: "metadata" } },
    limits: [4, 512],
    expected: {
      ok: true,
      truncated: false,
      value: { backend: "memory", bytes: 108, created_at: 1700000000, items: 1, kind: "terms", version: 1 },
    },
  },
  {
    note: "empty pattern",
    source: {
      items: [
        0.1, 1.5e-7, 0.000001, 0.0001, 123456789.123, -0.5, 0.00001, 2.5e-10, 100.25, 3, 9007199254740991,
        -123456789012,
      ],
    },
    action: { type: "search", pattern: "" },
    limits: [4, 512],
    expected: { error: { kind: "invalid_pattern", operation: "search" }, ok: false },
  },
  {
    note: "printed numbers",
    source: {
      items: [
        0.1, 1.5e-7, 0.000001, 0.0001, 123456789.123, -0.5, 0.00001, 2.5e-10, 100.25, 3, 9007199254740991,
        -123456789012,
      ],
    },
    action: { type: "map", transform: "length" },
    limits: [16, 512],
    expected: { ok: true, truncated: false, value: [3, 6, 6, 6, 13, 4, 6, 7, 6, 1, 16, 13] },
  },
  {
    note: "floats printed with exponents",
    source: {
      items: [
        0.1, 1.5e-7, 0.000001, 0.0001, 123456789.123, -0.5, 0.00001, 2.5e-10, 100.25, 3, 9007199254740991,
        -123456789012,
      ],
    },
    action: { type: "search", pattern: "e" },
    limits: [16, 512],
    expected: {
      ok: true,
      truncated: false,
      value: [
        { index: 1, value: "1.5e-7" },
        { index: 2, value: "1.0e-6" },
        { index: 6, value: "1.0e-5" },
        { index: 7, value: "2.5e-10" },
      ],
    },
  },
  {
    note: "printed numbers as text",
    source: {
      items: [
        0.1, 1.5e-7, 0.000001, 0.0001, 123456789.123, -0.5, 0.00001, 2.5e-10, 100.25, 3, 9007199254740991,
        -123456789012,
      ],
    },
    action: { type: "map", transform: "lowercase" },
    limits: [16, 512],
    expected: {
      ok: true,
      truncated: false,
      value: [
        "0.1",
        "1.5e-7",
        "1.0e-6",
        "0.0001",
        "123456789.123",
        "-0.5",
        "1.0e-5",
        "2.5e-10",
        "100.25",
        "3",
        "9007199254740991",
        "-123456789012",
      ],
    },
  },
  {
    note: "an item too large for the budget becomes a preview",
    source: { items: ["green needle", { k: "needle in dict" }] },
    action: { type: "peek", selector: { type: "item", index: 0 } },
    limits: [4, 6],
    expected: { ok: true, truncated: true, value: { preview: '"green' } },
  },
  {
    note: "a dict item preview",
    source: { items: ["green needle", { k: "needle in dict" }] },
    action: { type: "peek", selector: { type: "item", index: 1 } },
    limits: [4, 10],
    expected: { ok: true, truncated: true, value: { preview: 'json{k:"ne' } },
  },
  {
    note: "slice at the end of a list",
    source: { items: ["a", "b", "c"] },
    action: { type: "slice", start: 3, length: 1 },
    limits: [4, 512],
    expected: { ok: true, truncated: false, value: [] },
  },
  {
    note: "slice past the end of a list",
    source: { items: ["a", "b", "c"] },
    action: { type: "slice", start: 4, length: 1 },
    limits: [4, 512],
    expected: { error: { index: 4, kind: "out_of_range", operation: "slice(4,1)" }, ok: false },
  },
  {
    note: "tail limited by max_results",
    source: { items: ["a", "b", "c", "d", "e"] },
    action: { type: "peek", selector: { type: "tail", count: 4 } },
    limits: [2, 512],
    expected: { ok: true, truncated: true, value: ["b", "c"] },
  },
  {
    note: "head limited by bytes",
    source: { items: ["a", "b", "c", "d", "e"] },
    action: { type: "peek", selector: { type: "head", count: 4 } },
    limits: [8, 10],
    expected: { ok: true, truncated: true, value: ["a", "b", "c"] },
  },
  {
    note: "identity values are measured as printed terms",
    source: { items: [{ x: "0123456789" }, "y"] },
    action: { type: "map", transform: "identity" },
    limits: [4, 20],
    expected: { ok: true, truncated: true, value: [{ x: "0123456789" }] },
  },
  {
    note: "nested lists and dicts",
    source: { items: [[[["a"]]], { x: { y: [] } }, {}, [], ""] },
    action: { type: "search", pattern: "[" },
    limits: [8, 512],
    expected: {
      ok: true,
      truncated: false,
      value: [
        { index: 0, value: '[[["a"]]]' },
        { index: 1, value: "json{x:json{y:[]}}" },
        { index: 3, value: "[]" },
      ],
    },
  },
  {
    note: "atoms and strings both match by their text",
    source: { items: [true, false, null, "true"] },
    action: { type: "search", pattern: "true" },
    limits: [8, 512],
    expected: {
      ok: true,
      truncated: false,
      value: [
        { index: 0, value: "true" },
        { index: 3, value: "true" },
      ],
    },
  },
  {
    note: "byte_count of items",
    source: { items: [1, 2] },
    action: { type: "reduce", reducer: "byte_count" },
    limits: [4, 512],
    expected: { ok: true, truncated: false, value: 2 },
  },
  {
    note: "item past the end",
    source: { items: ["a", "b", "c"] },
    action: { type: "peek", selector: { type: "item", index: 3 } },
    limits: [4, 512],
    expected: { error: { index: 3, kind: "out_of_range", operation: "peek(item(3))" }, ok: false },
  },
  {
    note: "negative slice start",
    source: { text: "ab" },
    action: { type: "slice", start: -1, length: 2 },
    limits: [4, 512],
    expected: { error: { kind: "invalid_argument", operation: "slice(-1,2)", value: -1 }, ok: false },
  },
  {
    note: "partition size 0",
    source: { text: "ab" },
    action: { type: "partition", strategy: { type: "fixed", size: 0 } },
    limits: [4, 512],
    expected: { error: { kind: "invalid_argument", operation: "partition(fixed(0))", value: 0 }, ok: false },
  },
  {
    note: "negative head",
    source: { items: ["a"] },
    action: { type: "peek", selector: { type: "head", count: -1 } },
    limits: [4, 512],
    expected: { error: { kind: "invalid_argument", operation: "peek(head(-1))", value: -1 }, ok: false },
  },
  {
    note: "item on a text is refused before its index is checked",
    source: { text: "ab" },
    action: { type: "peek", selector: { type: "item", index: -1 } },
    limits: [4, 512],
    expected: {
      error: { context_kind: "text", kind: "unsupported_selector", operation: "peek(item(-1))", selector: "item(-1)" },
      ok: false,
    },
  },
  {
    note: "lines on items is refused before its size is checked",
    source: { items: ["a"] },
    action: { type: "partition", strategy: { type: "lines", size: -1 } },
    limits: [4, 512],
    expected: {
      error: {
        context_kind: "terms",
        kind: "unsupported_partition",
        operation: "partition(lines(-1))",
        strategy: "lines(-1)",
      },
      ok: false,
    },
  },
  {
    note: "unknown transform",
    source: { text: "ab" },
    action: { type: "map", transform: "Foo Bar" },
    limits: [4, 512],
    expected: {
      error: { capability: "map", kind: "capability_denied", operation: "map('Foo Bar')", requested: "Foo Bar" },
      ok: false,
    },
  },
  {
    note: "unknown reducer",
    source: { items: ["a"] },
    action: { type: "reduce", reducer: "sum" },
    limits: [4, 512],
    expected: {
      error: { capability: "reduce(terms)", kind: "capability_denied", operation: "reduce(sum)", requested: "sum" },
      ok: false,
    },
  },
  {
    note: "unknown reducer on a text",
    source: { text: "ab" },
    action: { type: "reduce", reducer: "Max" },
    limits: [4, 512],
    expected: {
      error: { capability: "reduce(text)", kind: "capability_denied", operation: "reduce('Max')", requested: "Max" },
      ok: false,
    },
  },
];

/** The outcome as the reference harness reports it: plain JSON, error message left out. */
function asReported(outcome: ContextOutcome): unknown {
  if (outcome.ok) return { ok: true, truncated: outcome.truncated, value: JSON.parse(JSON.stringify(outcome.value)) };
  const { message, ...error } = outcome.error;
  assert.equal(typeof message, "string");
  assert.ok(message.length > 0);
  return { ok: false, error };
}

for (const c of CASES) {
  test(`reference: ${c.note}`, async () => {
    const store = new ContextStore({ now: () => 1700000000 });
    const handle = "text" in c.source ? store.registerText(c.source.text) : store.registerItems(c.source.items);
    const [maxResults, maxBytes] = c.limits;
    const outcome = await store.run(handle, c.action, { maxResults, maxBytes });
    assert.deepStrictEqual(asReported(outcome), c.expected);
  });
}
