// Silent caps: a count or a sum of a search, partition or map result (directly, through tools
// that keep a subset of a list, or out of a sub-plan) gets one hint on the counting step that
// names the cap and where it comes from; counting an input directly, or a tool's own list,
// stays quiet.

import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { analyzePlanText } from "@rlm-plan/core/analysis";
import { DEFAULT_DATA_LIMITS, type DataLimits } from "@rlm-plan/core/plan/dataLimits";

const doc = { ref: "input", name: "doc" };
const v = (name: string) => ({ ref: "var", name });
const search = (bind: string) => ({ op: "context", handle: doc, action: { type: "search", pattern: "x" }, bind });
const tool = (name: string, args: unknown, bind: string) => ({ op: "tool", name, args, bind });
const final = (value: unknown) => ({ op: "final", value });

/** [path, message, related path and message] of each hint. */
function hints(steps: unknown[], limits?: DataLimits): [string, string, string, string][] {
  const text = JSON.stringify({ steps });
  const analysis = analyzePlanText(text, limits ? { dataLimits: limits } : {});
  return analysis.hints.map((hint) => {
    assert.equal(hint.kind, "silent_cap");
    assert.equal(hint.severity, "hint");
    const related = hint.related?.[0];
    const where = hint.relatedRanges[0];
    assert.ok(related && where);
    assert.equal(
      text.slice(hint.range.offset, hint.range.offset + hint.range.length),
      JSON.stringify((hint.path ?? []).length > 0 ? nameAt(steps, hint.path ?? []) : ""),
    );
    return [JSON.stringify(hint.path), hint.message, JSON.stringify(related.path), related.message];
  });
}

function nameAt(steps: unknown[], path: readonly (string | number)[]): unknown {
  let node: unknown = { steps };
  for (const segment of path) node = (node as Record<string | number, unknown>)[segment];
  return node;
}

const DEFAULT_SOURCE = "the runtime's default; no host profile sets context.max_results";

describe("silent caps", () => {
  test("search then count_items: one hint on the tool's name, the search related", () => {
    assert.deepEqual(hints([search("hits"), tool("count_items", v("hits"), "n"), final(v("n"))]), [
      [
        '["steps",1,"name"]',
        `count_items counts at most 32 items here: "hits" is a context search result, and a search stops at 32 hits without saying so (${DEFAULT_SOURCE})`,
        '["steps",0,"action","type"]',
        "this search returns at most 32 hits",
      ],
    ]);
  });

  test("a host's max_results and its name for the built-in; map then sum", () => {
    const limits: DataLimits = {
      maxResults: 5,
      maxResultsSource: "context.max_results in rlmplan.host.json",
      builtins: new Map([["total", "sum"]]),
    };
    const map = { op: "context", handle: doc, action: { type: "map", transform: "length" }, bind: "lengths" };
    assert.deepEqual(hints([map, tool("total", v("lengths"), "t"), final(v("t"))], limits), [
      [
        '["steps",1,"name"]',
        'total adds up at most 5 items here: "lengths" is a context map result, and a map stops at 5 items without saying so (context.max_results in rlmplan.host.json)',
        '["steps",0,"action","type"]',
        "this map returns at most 5 items",
      ],
    ]);
    // With a host, a tool named like a built-in is what the host says it is: here, nothing.
    assert.deepEqual(hints([map, tool("sum", v("lengths"), "t"), final(v("t"))], limits), []);
  });

  test("through unique and sort, and out of an rlm sub-plan, into a nested branch", () => {
    const partition = {
      op: "context",
      handle: doc,
      action: { type: "partition", strategy: { type: "lines", size: 10 } },
      bind: "parts",
    };
    const steps = [
      partition,
      { op: "rlm", plan: { steps: [tool("unique", v("parts"), "u"), final(v("u"))] }, bind: "distinct" },
      tool("sort", { items: v("distinct"), descending: true }, "sorted"),
      {
        op: "parallel",
        plans: [{ steps: [tool("count_items", v("sorted"), "n"), final(v("n"))] }],
        bind: "counts",
      },
      final(v("counts")),
    ];
    assert.deepEqual(hints(steps), [
      [
        '["steps",3,"plans",0,"steps",0,"name"]',
        `count_items counts at most 32 items here: "sorted" comes from "parts", a context partition result, and a partition stops at 32 parts without saying so (${DEFAULT_SOURCE})`,
        '["steps",0,"action","type"]',
        "this partition returns at most 32 parts",
      ],
    ]);
  });

  test("quiet: counting an input directly, a literal list, a non-keeping tool, a search read as a field", () => {
    const reduce = { op: "context", handle: doc, action: { type: "reduce", reducer: "count" }, bind: "lines" };
    assert.deepEqual(hints([reduce, final(v("lines"))]), []);
    assert.deepEqual(hints([search("hits"), tool("count_items", [1, 2], "n"), final(v("hits"))]), []);
    assert.deepEqual(
      hints([search("hits"), tool("join", v("hits"), "j"), tool("length", v("j"), "n"), final(v("n"))]),
      [],
    );
    // count_items of a list that holds the search result as one item counts one item, not the hits.
    assert.deepEqual(hints([search("hits"), tool("count_items", [v("hits")], "n"), final(v("n"))]), []);
    // A same-named binding in another branch is another variable.
    const steps = [
      {
        op: "parallel",
        plans: [
          { steps: [search("hits"), final(v("hits"))] },
          { steps: [tool("unique", [1], "hits"), tool("count_items", v("hits"), "n"), final(v("n"))] },
        ],
        bind: "both",
      },
      final(v("both")),
    ];
    assert.deepEqual(hints(steps), []);
  });

  test("two counting steps: one hint each, in source order, even after a second pass", () => {
    const steps = [
      search("a"),
      search("b"),
      tool("sum", v("a"), "x"),
      tool("count_items", v("b"), "y"),
      final([v("x"), v("y")]),
    ];
    assert.deepEqual(
      hints(steps).map(([path]) => path),
      ['["steps",2,"name"]', '["steps",3,"name"]'],
    );
    assert.equal(DEFAULT_DATA_LIMITS.maxResults, 32);
  });
});
