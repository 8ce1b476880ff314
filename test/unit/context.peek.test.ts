// peek: the head or tail of a context, one item of a list, or the context's metadata.

import assert from "node:assert/strict";
import { describe, test } from "node:test";
import type { JsonValue } from "@rlm-plan/core/json";
import type { Selector } from "@rlm-plan/core/plan/ast";
import { ContextStore, type ContextOutcome } from "@rlm-plan/core/context/store";

const SAMPLE = "alpha\nneedle one\nneedle two\nomega";
const NOTES = "Line A\nline b\nNEEDLE upper\nneedle lower\nété café\nlast";
const ITEMS: JsonValue[] = ["red", "green needle", 42, { k: "needle in dict" }, ["x", 1], true, null, -3.5];

function plain(outcome: ContextOutcome): unknown {
  return JSON.parse(JSON.stringify(outcome));
}

async function peek(source: string | JsonValue[], selector: Selector, maxResults = 4, maxBytes = 512) {
  const store = new ContextStore({ now: () => 1700000000.25 });
  const handle = typeof source === "string" ? store.registerText(source) : store.registerItems(source);
  return plain(await store.run(handle, { type: "peek", selector }, { maxResults, maxBytes }));
}

describe("peek at a text", () => {
  test("head and tail count characters", async () => {
    assert.deepStrictEqual(await peek(SAMPLE, { type: "head", count: 5 }), {
      ok: true,
      value: "alpha",
      truncated: true,
    });
    assert.deepStrictEqual(await peek(SAMPLE, { type: "tail", count: 5 }), {
      ok: true,
      value: "omega",
      truncated: true,
    });
  });

  test("more than the text gives the whole text, still marked truncated as fewer came back", async () => {
    assert.deepStrictEqual(await peek(SAMPLE, { type: "head", count: 1000 }), {
      ok: true,
      value: SAMPLE,
      truncated: true,
    });
    assert.deepStrictEqual(await peek(SAMPLE, { type: "tail", count: 1000 }), {
      ok: true,
      value: SAMPLE,
      truncated: true,
    });
  });

  test("exactly the whole text is not truncated", async () => {
    assert.deepStrictEqual(await peek(SAMPLE, { type: "head", count: 33 }), {
      ok: true,
      value: SAMPLE,
      truncated: false,
    });
  });

  test("tail keeps the start of the tail when max_bytes cuts it", async () => {
    assert.deepStrictEqual(await peek(SAMPLE, { type: "tail", count: 10 }, 4, 4), {
      ok: true,
      value: " two",
      truncated: true,
    });
  });

  test("astral characters count once", async () => {
    assert.deepStrictEqual(await peek("😀a😀b\n𝔘x", { type: "tail", count: 2 }), {
      ok: true,
      value: "𝔘x",
      truncated: true,
    });
    assert.deepStrictEqual(await peek("😀a😀b", { type: "head", count: 3 }), {
      ok: true,
      value: "😀a😀",
      truncated: true,
    });
  });

  test("item does not apply to a text, whatever the index", async () => {
    for (const index of [0, -1]) {
      const outcome = (await peek(SAMPLE, { type: "item", index })) as { ok: false; error: { message: string } };
      const { message, ...error } = outcome.error;
      assert.deepStrictEqual(error, {
        operation: `peek(item(${index}))`,
        kind: "unsupported_selector",
        context_kind: "text",
        selector: `item(${index})`,
      });
      assert.match(message, /head, tail or metadata/);
    }
  });

  test("a negative count is an invalid argument", async () => {
    const outcome = (await peek(SAMPLE, { type: "head", count: -1 })) as { ok: false; error: Record<string, unknown> };
    assert.deepStrictEqual(
      [outcome.error["operation"], outcome.error["kind"], outcome.error["value"]],
      ["peek(head(-1))", "invalid_argument", -1],
    );
  });

  test("metadata: UTF-8 bytes and line count", async () => {
    assert.deepStrictEqual(await peek(SAMPLE, { type: "metadata" }), {
      ok: true,
      value: { backend: "memory", kind: "text", bytes: 33, items: 4, version: 1, created_at: 1700000000.25 },
      truncated: false,
    });
    const notes = (await peek(NOTES, { type: "metadata" })) as { value: { bytes: number; items: number } };
    assert.deepStrictEqual([notes.value.bytes, notes.value.items], [56, 6]);
  });

  test("metadata of an empty text has no items; a trailing newline adds one", async () => {
    const empty = (await peek("", { type: "metadata" })) as { value: { bytes: number; items: number } };
    assert.deepStrictEqual([empty.value.bytes, empty.value.items], [0, 0]);
    const trailing = (await peek("a\n", { type: "metadata" })) as { value: { items: number } };
    assert.equal(trailing.value.items, 2);
  });
});

describe("peek at a list of items", () => {
  test("one item, as its JSON value", async () => {
    assert.deepStrictEqual(await peek(ITEMS, { type: "item", index: 1 }), {
      ok: true,
      value: "green needle",
      truncated: false,
    });
    assert.deepStrictEqual(await peek(ITEMS, { type: "item", index: 3 }), {
      ok: true,
      value: { k: "needle in dict" },
      truncated: false,
    });
  });

  test("an item larger than max_bytes comes back as a preview of its printed form, with no other key", async () => {
    assert.deepStrictEqual(await peek(ITEMS, { type: "item", index: 1 }, 4, 6), {
      ok: true,
      value: { preview: '"green' },
      truncated: true,
    });
    assert.deepStrictEqual(await peek(ITEMS, { type: "item", index: 3 }, 4, 10), {
      ok: true,
      value: { preview: 'json{k:"ne' },
      truncated: true,
    });
  });

  test("an index past the end is out of range", async () => {
    const outcome = (await peek(ITEMS, { type: "item", index: 8 })) as { ok: false; error: { message: string } };
    const { message, ...error } = outcome.error;
    assert.deepStrictEqual(error, { operation: "peek(item(8))", kind: "out_of_range", index: 8 });
    assert.match(message, /8 items/);
  });

  test("head and tail", async () => {
    assert.deepStrictEqual(await peek(ITEMS, { type: "head", count: 3 }), {
      ok: true,
      value: ["red", "green needle", 42],
      truncated: false,
    });
    assert.deepStrictEqual(await peek(ITEMS, { type: "tail", count: 2 }), {
      ok: true,
      value: [null, -3.5],
      truncated: true,
    });
  });

  test("head and tail within max_results and max_bytes", async () => {
    assert.deepStrictEqual(await peek(["a", "b", "c", "d", "e"], { type: "tail", count: 4 }, 2), {
      ok: true,
      value: ["b", "c"],
      truncated: true,
    });
    assert.deepStrictEqual(await peek(["a", "b", "c", "d", "e"], { type: "head", count: 4 }, 8, 10), {
      ok: true,
      value: ["a", "b", "c"],
      truncated: true,
    });
  });

  test("metadata: bytes of every printed item", async () => {
    assert.deepStrictEqual(await peek(ITEMS, { type: "metadata" }), {
      ok: true,
      value: { backend: "memory", kind: "terms", bytes: 64, items: 8, version: 1, created_at: 1700000000.25 },
      truncated: false,
    });
  });
});
