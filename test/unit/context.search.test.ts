// search: matching lines (or items) with their index, and how the result and byte limits stop it.

import assert from "node:assert/strict";
import { describe, test } from "node:test";
import type { JsonValue } from "@rlm-plan/core/json";
import { ContextStore, type ContextOutcome } from "@rlm-plan/core/context/store";

const SAMPLE = "alpha\nneedle one\nneedle two\nomega";
const NOTES = "Line A\nline b\nNEEDLE upper\nneedle lower\nété café\nlast";
const ITEMS: JsonValue[] = ["red", "green needle", 42, { k: "needle in dict" }, ["x", 1], true, null, -3.5];

function plain(outcome: ContextOutcome): unknown {
  return JSON.parse(JSON.stringify(outcome));
}

async function searchText(text: string, pattern: string, maxResults: number, maxBytes: number): Promise<unknown> {
  const store = new ContextStore();
  return plain(await store.run(store.registerText(text), { type: "search", pattern }, { maxResults, maxBytes }));
}

async function searchItems(items: JsonValue[], pattern: string, maxResults = 4, maxBytes = 512): Promise<unknown> {
  const store = new ContextStore();
  return plain(await store.run(store.registerItems(items), { type: "search", pattern }, { maxResults, maxBytes }));
}

describe("search in a text", () => {
  test("finds lines by 0-based index", async () => {
    assert.deepStrictEqual(await searchText(SAMPLE, "needle", 4, 512), {
      ok: true,
      value: [
        { index: 1, value: "needle one" },
        { index: 2, value: "needle two" },
      ],
      truncated: false,
    });
  });

  test("is case sensitive", async () => {
    assert.deepStrictEqual(await searchText(SAMPLE, "NEEDLE", 4, 512), { ok: true, value: [], truncated: false });
  });

  test("a match cut by max_bytes ends the search", async () => {
    assert.deepStrictEqual(await searchText(SAMPLE, "needle", 4, 8), {
      ok: true,
      value: [{ index: 1, value: "needle o" }],
      truncated: true,
    });
  });

  test("a match that exactly fills max_bytes stops the search with lines left", async () => {
    assert.deepStrictEqual(await searchText(SAMPLE, "needle", 4, 10), {
      ok: true,
      value: [{ index: 1, value: "needle one" }],
      truncated: true,
    });
  });

  test("stops at max_results", async () => {
    assert.deepStrictEqual(await searchText(SAMPLE, "o", 2, 512), {
      ok: true,
      value: [
        { index: 1, value: "needle one" },
        { index: 2, value: "needle two" },
      ],
      truncated: true,
    });
  });

  test("reaching max_results on the last line is not a truncation", async () => {
    assert.deepStrictEqual(await searchText(SAMPLE, "omega", 1, 512), {
      ok: true,
      value: [{ index: 3, value: "omega" }],
      truncated: false,
    });
  });

  test("the budget counts only what matches return", async () => {
    assert.deepStrictEqual(await searchText(NOTES, "needle", 4, 20), {
      ok: true,
      value: [{ index: 3, value: "needle lower" }],
      truncated: false,
    });
  });

  test("max_bytes is shared by all matches", async () => {
    const rows = Array.from({ length: 15 }, (_, i) => `row ${String(i).padStart(2, "0")} needle ${"x".repeat(i % 7)}`);
    const result = (await searchText(rows.join("\n"), "needle", 50, 120)) as { value: { value: string }[] };
    assert.deepStrictEqual(
      result.value.map((match) => match.value),
      [...rows.slice(0, 7), "r"],
    );
  });

  test("lines follow split_string: a trailing newline adds an empty line", async () => {
    assert.deepStrictEqual(await searchText("a\n", "a", 4, 512), {
      ok: true,
      value: [{ index: 0, value: "a" }],
      truncated: false,
    });
    assert.deepStrictEqual(await searchText("", "x", 4, 512), { ok: true, value: [], truncated: false });
  });

  test("a pattern with a newline never matches a line", async () => {
    assert.deepStrictEqual(await searchText(SAMPLE, "alpha\nneedle", 4, 512), {
      ok: true,
      value: [],
      truncated: false,
    });
  });

  test("an empty pattern is refused", async () => {
    const outcome = (await searchText(SAMPLE, "", 4, 512)) as { ok: false; error: Record<string, unknown> };
    assert.equal(outcome.ok, false);
    assert.deepStrictEqual(
      { operation: outcome.error["operation"], kind: outcome.error["kind"] },
      { operation: "search", kind: "invalid_pattern" },
    );
  });
});

describe("search in a list of items", () => {
  test("matches strings by their text and other items by their printed form", async () => {
    assert.deepStrictEqual(await searchItems(ITEMS, "needle"), {
      ok: true,
      value: [
        { index: 1, value: "green needle" },
        { index: 3, value: 'json{k:"needle in dict"}' },
      ],
      truncated: false,
    });
  });

  test("matches printed numbers", async () => {
    assert.deepStrictEqual(await searchItems(ITEMS, "3.5"), {
      ok: true,
      value: [{ index: 7, value: "-3.5" }],
      truncated: false,
    });
  });

  test("matches lists by their printed form, without spaces", async () => {
    assert.deepStrictEqual(await searchItems(ITEMS, '["x",1]'), {
      ok: true,
      value: [{ index: 4, value: '["x",1]' }],
      truncated: false,
    });
  });

  test("true, false and null are matched by their names", async () => {
    assert.deepStrictEqual(await searchItems(ITEMS, "ull"), {
      ok: true,
      value: [{ index: 6, value: "null" }],
      truncated: false,
    });
  });
});
