// slice: a window of code points of a text, or of items of a list, within the limits.

import assert from "node:assert/strict";
import { describe, test } from "node:test";
import type { JsonValue } from "@rlm-plan/core/json";
import { ContextStore, type ContextOutcome } from "@rlm-plan/core/context/store";

const SAMPLE = "alpha\nneedle one\nneedle two\nomega";
const ITEMS: JsonValue[] = ["red", "green needle", 42, { k: "needle in dict" }, ["x", 1], true, null, -3.5];

function plain(outcome: ContextOutcome): unknown {
  return JSON.parse(JSON.stringify(outcome));
}

async function slice(source: string | JsonValue[], start: number, length: number, maxResults = 4, maxBytes = 512) {
  const store = new ContextStore();
  const handle = typeof source === "string" ? store.registerText(source) : store.registerItems(source);
  return plain(await store.run(handle, { type: "slice", start, length }, { maxResults, maxBytes }));
}

describe("slice of a text", () => {
  test("a prefix and a middle part", async () => {
    assert.deepStrictEqual(await slice(SAMPLE, 0, 5), { ok: true, value: "alpha", truncated: false });
    assert.deepStrictEqual(await slice(SAMPLE, 6, 10), { ok: true, value: "needle one", truncated: false });
  });

  test("starting at the end gives an empty text, marked truncated as fewer characters came back", async () => {
    assert.deepStrictEqual(await slice(SAMPLE, 33, 5), { ok: true, value: "", truncated: true });
  });

  test("starting past the end is out of range", async () => {
    const outcome = (await slice(SAMPLE, 34, 1)) as { ok: false; error: { message: string } };
    const { message, ...error } = outcome.error;
    assert.deepStrictEqual(error, { operation: "slice(34,1)", kind: "out_of_range", index: 34 });
    assert.match(message, /34/);
    assert.ok(!message.includes("alpha"), "messages never quote the context");
  });

  test("max_bytes cuts the slice", async () => {
    assert.deepStrictEqual(await slice(SAMPLE, 0, 34, 4, 6), { ok: true, value: "alpha\n", truncated: true });
  });

  test("the whole text with the default limits", async () => {
    const store = new ContextStore();
    const outcome = await store.run(store.registerText(SAMPLE), { type: "slice", start: 0, length: 1000 });
    assert.deepStrictEqual(plain(outcome), { ok: true, value: SAMPLE, truncated: true });
  });

  test("offsets and lengths count code points, not UTF-16 units", async () => {
    const text = "😀a😀b\n𝔘x";
    assert.deepStrictEqual(await slice(text, 1, 3), { ok: true, value: "a😀b", truncated: false });
    assert.deepStrictEqual(await slice(text, 5, 2), { ok: true, value: "𝔘x", truncated: false });
    assert.deepStrictEqual(await slice(text, 7, 1), { ok: true, value: "", truncated: true });
    const outcome = (await slice(text, 8, 1)) as { ok: boolean; error: { kind: string; index: number } };
    assert.deepStrictEqual([outcome.ok, outcome.error.kind, outcome.error.index], [false, "out_of_range", 8]);
  });

  test("code points stay right far into a long text with astral characters", async () => {
    const text = "😀é中x".repeat(5000);
    const start = 4 * 3217 + 1;
    assert.deepStrictEqual(await slice(text, start, 6), { ok: true, value: "é中x😀é中", truncated: false });
  });

  test("negative offsets are invalid arguments", async () => {
    const outcome = (await slice(SAMPLE, -1, 2)) as { ok: false; error: { message: string } };
    const { message, ...error } = outcome.error;
    assert.deepStrictEqual(error, { operation: "slice(-1,2)", kind: "invalid_argument", value: -1 });
    assert.match(message, /non-negative integer/);
    const length = (await slice(SAMPLE, 0, -2)) as { ok: false; error: Record<string, unknown> };
    assert.deepStrictEqual([length.error["operation"], length.error["value"]], ["slice(0,-2)", -2]);
  });
});

describe("slice of a list of items", () => {
  test("items from start, as JSON values", async () => {
    assert.deepStrictEqual(await slice(ITEMS, 1, 3), {
      ok: true,
      value: ["green needle", 42, { k: "needle in dict" }],
      truncated: false,
    });
  });

  test("max_results caps the number of items", async () => {
    assert.deepStrictEqual(await slice(ITEMS, 0, 8, 2), { ok: true, value: ["red", "green needle"], truncated: true });
  });

  test("max_bytes counts printed items: a string with its quotes", async () => {
    // "red" prints as 5 bytes and "green needle" as 14.
    assert.deepStrictEqual(await slice(ITEMS, 0, 2, 4, 18), { ok: true, value: ["red"], truncated: true });
    assert.deepStrictEqual(await slice(ITEMS, 0, 2, 4, 19), {
      ok: true,
      value: ["red", "green needle"],
      truncated: false,
    });
  });

  test("at the end it is empty (nothing was left to return, so not truncated), past the end out of range", async () => {
    assert.deepStrictEqual(await slice(ITEMS, 8, 1), { ok: true, value: [], truncated: false });
    const outcome = (await slice(ITEMS, 9, 1)) as { ok: false; error: Record<string, unknown> };
    assert.deepStrictEqual([outcome.error["kind"], outcome.error["index"]], ["out_of_range", 9]);
  });
});
