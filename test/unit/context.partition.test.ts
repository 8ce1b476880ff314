// partition: consecutive parts of a context (runs of characters, lines or items), within limits.

import assert from "node:assert/strict";
import { describe, test } from "node:test";
import type { JsonValue } from "@rlm-plan/core/json";
import type { PartitionStrategy } from "@rlm-plan/core/plan/ast";
import { ContextStore, type ContextOutcome } from "@rlm-plan/core/context/store";

const SAMPLE = "alpha\nneedle one\nneedle two\nomega";
const ITEMS: JsonValue[] = ["red", "green needle", 42, { k: "needle in dict" }, ["x", 1], true, null, -3.5];

function plain(outcome: ContextOutcome): unknown {
  return JSON.parse(JSON.stringify(outcome));
}

async function partition(source: string | JsonValue[], strategy: PartitionStrategy, maxResults = 4, maxBytes = 512) {
  const store = new ContextStore();
  const handle = typeof source === "string" ? store.registerText(source) : store.registerItems(source);
  return plain(await store.run(handle, { type: "partition", strategy }, { maxResults, maxBytes }));
}

describe("fixed partitions of a text", () => {
  test("one part when the size covers the text", async () => {
    assert.deepStrictEqual(await partition(SAMPLE, { type: "fixed", size: 100 }), {
      ok: true,
      value: [{ index: 0, start: 0, length: 33, value: SAMPLE }],
      truncated: false,
    });
  });

  test("max_results stops the parts", async () => {
    assert.deepStrictEqual(await partition(SAMPLE, { type: "fixed", size: 1 }), {
      ok: true,
      value: [
        { index: 0, start: 0, length: 1, value: "a" },
        { index: 1, start: 1, length: 1, value: "l" },
        { index: 2, start: 2, length: 1, value: "p" },
        { index: 3, start: 3, length: 1, value: "h" },
      ],
      truncated: true,
    });
  });

  test("a part cut by max_bytes keeps its full length and is the last part", async () => {
    assert.deepStrictEqual(await partition(SAMPLE, { type: "fixed", size: 4 }, 10, 6), {
      ok: true,
      value: [
        { index: 0, start: 0, length: 4, value: "alph" },
        { index: 1, start: 4, length: 4, value: "a\n" },
      ],
      truncated: true,
    });
  });

  test("starts and lengths count code points", async () => {
    assert.deepStrictEqual(await partition("😀a😀b\n𝔘x", { type: "fixed", size: 3 }), {
      ok: true,
      value: [
        { index: 0, start: 0, length: 3, value: "😀a😀" },
        { index: 1, start: 3, length: 3, value: "b\n𝔘" },
        { index: 2, start: 6, length: 1, value: "x" },
      ],
      truncated: false,
    });
  });

  test("an empty text has no parts", async () => {
    assert.deepStrictEqual(await partition("", { type: "fixed", size: 3 }), { ok: true, value: [], truncated: false });
  });

  test("the size must be positive", async () => {
    const outcome = (await partition(SAMPLE, { type: "fixed", size: 0 })) as { ok: false; error: { message: string } };
    const { message, ...error } = outcome.error;
    assert.deepStrictEqual(error, { operation: "partition(fixed(0))", kind: "invalid_argument", value: 0 });
    assert.match(message, /positive integer/);
  });
});

describe("line partitions of a text", () => {
  test("runs of lines, with the index of their first line", async () => {
    assert.deepStrictEqual(await partition(SAMPLE, { type: "lines", size: 2 }), {
      ok: true,
      value: [
        { index: 0, start: 0, length: 2, value: ["alpha", "needle one"] },
        { index: 1, start: 2, length: 2, value: ["needle two", "omega"] },
      ],
      truncated: false,
    });
  });

  test("all lines in one part, or one line per part within max_results", async () => {
    assert.deepStrictEqual(await partition(SAMPLE, { type: "lines", size: 100 }), {
      ok: true,
      value: [{ index: 0, start: 0, length: 4, value: ["alpha", "needle one", "needle two", "omega"] }],
      truncated: false,
    });
    assert.deepStrictEqual(await partition(SAMPLE, { type: "lines", size: 1 }, 2), {
      ok: true,
      value: [
        { index: 0, start: 0, length: 1, value: ["alpha"] },
        { index: 1, start: 1, length: 1, value: ["needle one"] },
      ],
      truncated: true,
    });
  });

  test("lines are measured as quoted strings; a run cut by max_bytes keeps the lines that fit", async () => {
    // "alpha" costs 7 bytes, "needle one" 12.
    assert.deepStrictEqual(await partition(SAMPLE, { type: "lines", size: 3 }, 4, 12), {
      ok: true,
      value: [{ index: 0, start: 0, length: 1, value: ["alpha"] }],
      truncated: true,
    });
  });

  test("an empty text is one empty line; a trailing newline ends with one", async () => {
    assert.deepStrictEqual(await partition("", { type: "lines", size: 1 }), {
      ok: true,
      value: [{ index: 0, start: 0, length: 1, value: [""] }],
      truncated: false,
    });
    assert.deepStrictEqual(await partition("a\n", { type: "lines", size: 5 }), {
      ok: true,
      value: [{ index: 0, start: 0, length: 2, value: ["a", ""] }],
      truncated: false,
    });
  });
});

describe("partitions of a list of items", () => {
  test("fixed runs of items", async () => {
    assert.deepStrictEqual(await partition(ITEMS, { type: "fixed", size: 3 }), {
      ok: true,
      value: [
        { index: 0, start: 0, length: 3, value: ["red", "green needle", 42] },
        { index: 1, start: 3, length: 3, value: [{ k: "needle in dict" }, ["x", 1], true] },
        { index: 2, start: 6, length: 2, value: [null, -3.5] },
      ],
      truncated: false,
    });
  });

  test("max_bytes is shared by all parts", async () => {
    // Printed sizes: "red" 5, "green needle" 14, 42 2.
    assert.deepStrictEqual(await partition(ITEMS, { type: "fixed", size: 2 }, 4, 21), {
      ok: true,
      value: [
        { index: 0, start: 0, length: 2, value: ["red", "green needle"] },
        { index: 1, start: 2, length: 1, value: [42] },
      ],
      truncated: true,
    });
  });

  test("lines do not apply to a list, whatever the size", async () => {
    for (const size of [1, -1]) {
      const outcome = (await partition(ITEMS, { type: "lines", size })) as { ok: false; error: { message: string } };
      const { message, ...error } = outcome.error;
      assert.deepStrictEqual(error, {
        operation: `partition(lines(${size}))`,
        kind: "unsupported_partition",
        context_kind: "terms",
        strategy: `lines(${size})`,
      });
      assert.match(message, /fixed/);
    }
  });
});
