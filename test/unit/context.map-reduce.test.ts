// map and reduce: allow-listed per-item transforms and whole-context summaries.

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

async function map(source: string | JsonValue[], transform: string, maxResults = 4, maxBytes = 512) {
  const store = new ContextStore();
  const handle = typeof source === "string" ? store.registerText(source) : store.registerItems(source);
  return plain(await store.run(handle, { type: "map", transform }, { maxResults, maxBytes }));
}

async function reduce(source: string | JsonValue[], reducer: string) {
  const store = new ContextStore();
  const handle = typeof source === "string" ? store.registerText(source) : store.registerItems(source);
  return plain(await store.run(handle, { type: "reduce", reducer }));
}

describe("map over the lines of a text", () => {
  test("identity, uppercase and length, within max_results", async () => {
    assert.deepStrictEqual(await map(NOTES, "identity"), {
      ok: true,
      value: ["Line A", "line b", "NEEDLE upper", "needle lower"],
      truncated: true,
    });
    assert.deepStrictEqual(await map(NOTES, "uppercase"), {
      ok: true,
      value: ["LINE A", "LINE B", "NEEDLE UPPER", "NEEDLE LOWER"],
      truncated: true,
    });
    assert.deepStrictEqual(await map(NOTES, "length"), { ok: true, value: [6, 6, 12, 12], truncated: true });
  });

  test("every line when max_results allows it", async () => {
    assert.deepStrictEqual(await map(NOTES, "lowercase", 6), {
      ok: true,
      value: ["line a", "line b", "needle upper", "needle lower", "été café", "last"],
      truncated: false,
    });
    assert.deepStrictEqual(await map(NOTES, "length", 6), { ok: true, value: [6, 6, 12, 12, 8, 4], truncated: false });
  });

  test("stops before the first value that does not fit max_bytes", async () => {
    assert.deepStrictEqual(await map(SAMPLE, "identity", 8, 16), {
      ok: true,
      value: ["alpha", "needle one"],
      truncated: true,
    });
  });

  test("case mapping is one code point to one, as in SWI-Prolog", async () => {
    assert.deepStrictEqual(await map("straße σς ǆ ᾳ ﬀ", "uppercase"), {
      ok: true,
      value: ["STRAßE ΣΣ Ǆ ᾼ ﬀ"],
      truncated: false,
    });
    assert.deepStrictEqual(await map("İSTANBUL ΑΣ Ǆ", "lowercase"), {
      ok: true,
      value: ["istanbul ασ ǆ"],
      truncated: false,
    });
  });

  test("length counts code points", async () => {
    assert.deepStrictEqual(await map("😀a😀b\n𝔘x", "length"), { ok: true, value: [4, 2], truncated: false });
  });

  test("an unknown transform is refused", async () => {
    const outcome = (await map(SAMPLE, "Foo Bar")) as { ok: false; error: { message: string } };
    const { message, ...error } = outcome.error;
    assert.deepStrictEqual(error, {
      operation: "map('Foo Bar')",
      kind: "capability_denied",
      capability: "map",
      requested: "Foo Bar",
    });
    assert.match(message, /identity, lowercase, uppercase, length/);
  });
});

describe("map over a list of items", () => {
  test("identity gives the items back", async () => {
    assert.deepStrictEqual(await map(ITEMS, "identity"), {
      ok: true,
      value: ["red", "green needle", 42, { k: "needle in dict" }],
      truncated: true,
    });
  });

  test("text transforms work on the printed form of items that are not strings", async () => {
    assert.deepStrictEqual(await map(ITEMS, "uppercase"), {
      ok: true,
      value: ["RED", "GREEN NEEDLE", "42", 'JSON{K:"NEEDLE IN DICT"}'],
      truncated: true,
    });
    assert.deepStrictEqual(await map(ITEMS, "length", 8), {
      ok: true,
      value: [3, 12, 2, 24, 7, 4, 4, 4],
      truncated: false,
    });
  });

  test("a string value costs its own bytes, any other value its printed bytes", async () => {
    // {"x": "0123456789"} prints as json{x:"0123456789"}: 20 bytes; "y" then costs 1.
    assert.deepStrictEqual(await map([{ x: "0123456789" }, "y"], "identity", 4, 21), {
      ok: true,
      value: [{ x: "0123456789" }, "y"],
      truncated: false,
    });
    assert.deepStrictEqual(await map([{ x: "0123456789" }, "y"], "identity", 4, 20), {
      ok: true,
      value: [{ x: "0123456789" }],
      truncated: true,
    });
  });
});

describe("reduce", () => {
  test("count and byte_count of a text", async () => {
    assert.deepStrictEqual(await reduce(SAMPLE, "count"), { ok: true, value: 4, truncated: false });
    assert.deepStrictEqual(await reduce(NOTES, "count"), { ok: true, value: 6, truncated: false });
    assert.deepStrictEqual(await reduce(SAMPLE, "byte_count"), { ok: true, value: 33, truncated: false });
    assert.deepStrictEqual(await reduce(NOTES, "byte_count"), { ok: true, value: 56, truncated: false });
  });

  test("an empty text counts no lines, a trailing newline one more", async () => {
    assert.deepStrictEqual(await reduce("", "count"), { ok: true, value: 0, truncated: false });
    assert.deepStrictEqual(await reduce("a\n", "count"), { ok: true, value: 2, truncated: false });
  });

  test("count and byte_count of a list count items and printed bytes", async () => {
    assert.deepStrictEqual(await reduce(ITEMS, "count"), { ok: true, value: 8, truncated: false });
    assert.deepStrictEqual(await reduce(ITEMS, "byte_count"), { ok: true, value: 64, truncated: false });
  });

  test("an unknown reducer is refused, naming the context kind", async () => {
    const outcome = (await reduce(ITEMS, "sum")) as { ok: false; error: { message: string } };
    const { message, ...error } = outcome.error;
    assert.deepStrictEqual(error, {
      operation: "reduce(sum)",
      kind: "capability_denied",
      capability: "reduce(terms)",
      requested: "sum",
    });
    assert.match(message, /count, byte_count/);
    const onText = (await reduce(SAMPLE, "Max")) as { ok: false; error: Record<string, unknown> };
    assert.deepStrictEqual([onText.error["operation"], onText.error["capability"]], ["reduce('Max')", "reduce(text)"]);
  });
});
