// Handles, registration, limits and failures: what the store accepts, what it refuses, and that
// run() answers every call with an outcome.

import assert from "node:assert/strict";
import { describe, test } from "node:test";
import type { JsonValue } from "@rlm-plan/core/json";
import type { ContextAction } from "@rlm-plan/core/plan/ast";
import { ContextHandle, ContextStore, DEFAULT_CONTEXT_LIMITS, type ContextOutcome } from "@rlm-plan/core/context/store";

const SAMPLE = "alpha\nneedle one\nneedle two\nomega";
const SEARCH: ContextAction = { type: "search", pattern: "needle" };

function errorOf(outcome: ContextOutcome): Record<string, unknown> {
  assert.equal(outcome.ok, false, JSON.stringify(outcome));
  return outcome.ok ? {} : { ...outcome.error };
}

describe("handles", () => {
  test("a registered context gets a handle of this store, printed as its id and version", () => {
    let next = 0;
    const store = new ContextStore({ newId: () => `ctx-${++next}` });
    const handle = store.registerText(SAMPLE);
    assert.ok(handle instanceof ContextHandle);
    assert.equal(handle.id, "ctx-1");
    assert.equal(handle.version, 1);
    assert.ok(store.isHandle(handle));
    assert.deepStrictEqual(handle.toJSON(), { $context: { id: "ctx-1", version: 1 } });
    assert.equal(JSON.stringify({ h: handle }), '{"h":{"$context":{"id":"ctx-1","version":1}}}');
    assert.ok(Object.isFrozen(handle));
  });

  test("ids are unique by default", () => {
    const store = new ContextStore();
    const ids = new Set(Array.from({ length: 50 }, () => store.registerText("x").id));
    assert.equal(ids.size, 50);
  });

  test("handles cannot be made outside a store", () => {
    const Handle = ContextHandle as unknown as new (key: symbol, id: string, version: number) => ContextHandle;
    assert.throws(() => new Handle(Symbol("forged"), "ctx-1", 1), TypeError);
  });

  test("only this store's handles are handles of this store", async () => {
    const mine = new ContextStore({ newId: () => "same-id" });
    const other = new ContextStore({ newId: () => "same-id" });
    const foreign = other.registerText(SAMPLE);
    mine.registerText(SAMPLE);
    assert.equal(mine.isHandle(foreign), false);
    assert.equal(mine.isHandle(foreign.toJSON()), false);
    assert.equal(mine.isHandle("same-id"), false);
    const error = errorOf(await mine.run(foreign, SEARCH));
    assert.deepStrictEqual(
      { operation: error["operation"], kind: error["kind"], handle: JSON.parse(JSON.stringify(error["handle"])) },
      { operation: "resolve", kind: "invalid_handle", handle: { $context: { id: "same-id", version: 1 } } },
    );
    assert.match(String(error["message"]), /another context store/);
  });

  test("anything else is an invalid handle, shown as JSON", async () => {
    const store = new ContextStore();
    const cases: [unknown, JsonValue, RegExp][] = [
      ["not-a-handle", "not-a-handle", /got a string/],
      [{ id: "x" }, { id: "x" }, /got an object/],
      [undefined, null, /got nothing/],
      [() => 1, null, /got a function/],
      [{ $context: { id: "x", version: 1 } }, { $context: { id: "x", version: 1 } }, /got an object/],
    ];
    for (const [value, shown, message] of cases) {
      const error = errorOf(await store.run(value, SEARCH));
      assert.deepStrictEqual(
        { operation: error["operation"], kind: error["kind"], handle: JSON.parse(JSON.stringify(error["handle"])) },
        { operation: "resolve", kind: "invalid_handle", handle: shown },
      );
      assert.match(String(error["message"]), message);
    }
  });

  test("a value that refers to itself is still shown without failing", async () => {
    const cyclic: Record<string, unknown> = { a: 1 };
    cyclic["self"] = cyclic;
    const error = errorOf(await new ContextStore().run(cyclic, SEARCH));
    assert.deepStrictEqual(JSON.parse(JSON.stringify(error["handle"])), { a: 1, self: null });
  });
});

describe("order of checks", () => {
  test("an empty search pattern is refused before the handle is looked at", async () => {
    const error = errorOf(await new ContextStore().run("not-a-handle", { type: "search", pattern: "" }));
    assert.deepStrictEqual([error["operation"], error["kind"]], ["search", "invalid_pattern"]);
  });

  test("the handle is checked before the limits", async () => {
    for (const options of [{ maxResults: 0, maxBytes: 1 }, { timeLimit: null }, null]) {
      const error = errorOf(await new ContextStore().run("x", SEARCH, options));
      assert.equal(error["kind"], "invalid_handle");
    }
  });

  test("limits must be positive integers", async () => {
    const store = new ContextStore();
    const handle = store.registerText(SAMPLE);
    for (const limits of [
      { maxResults: 0, maxBytes: 1 },
      { maxResults: 1, maxBytes: -5 },
      { maxResults: 1.5, maxBytes: 10 },
    ]) {
      const error = errorOf(await store.run(handle, SEARCH, limits));
      assert.deepStrictEqual([error["operation"], error["kind"]], ["options", "invalid_limit"]);
    }
  });

  test("null is a wrong limit, not a missing one; a field left out takes its default", async () => {
    const store = new ContextStore();
    const handle = store.registerText(SAMPLE);
    for (const options of [{ maxResults: null }, { maxBytes: null }, { timeLimit: null }]) {
      const error = errorOf(await store.run(handle, SEARCH, options));
      assert.deepStrictEqual(
        [error["operation"], error["kind"]],
        ["options", "invalid_limit"],
        JSON.stringify(options),
      );
    }
    const outcome = await store.run(handle, SEARCH, { maxBytes: undefined, timeLimit: undefined });
    assert.deepStrictEqual(outcome, {
      ok: true,
      value: [
        { index: 1, value: "needle one" },
        { index: 2, value: "needle two" },
      ],
      truncated: false,
    });
  });

  test("the time limit must be a positive number of seconds", async () => {
    const store = new ContextStore();
    const handle = store.registerText(SAMPLE);
    for (const timeLimit of [0, -1, "x", Infinity, true, [], "0.25"]) {
      const error = errorOf(await store.run(handle, SEARCH, { timeLimit }));
      assert.deepStrictEqual([error["operation"], error["kind"]], ["options", "invalid_limit"], String(timeLimit));
    }
    for (const timeLimit of [0.001, 1, 30]) assert.equal((await store.run(handle, SEARCH, { timeLimit })).ok, true);
  });

  test("options that are not an object are invalid limits", async () => {
    const store = new ContextStore();
    const handle = store.registerText(SAMPLE);
    for (const options of [null, "fast", 3, [1]]) {
      const error = errorOf(await store.run(handle, SEARCH, options));
      assert.deepStrictEqual(
        [error["operation"], error["kind"]],
        ["options", "invalid_limit"],
        JSON.stringify(options),
      );
    }
  });

  test("the defaults are the reference's", () => {
    assert.deepStrictEqual(DEFAULT_CONTEXT_LIMITS, { maxResults: 32, maxBytes: 16384 });
  });
});

describe("registration", () => {
  test("created_at comes from the clock, in seconds", async () => {
    const store = new ContextStore({ now: () => 1700000000.5 });
    const outcome = await store.run(store.registerItems([]), { type: "peek", selector: { type: "metadata" } });
    assert.deepStrictEqual(outcome, {
      ok: true,
      value: { backend: "memory", kind: "terms", bytes: 0, items: 0, version: 1, created_at: 1700000000.5 },
      truncated: false,
    });
  });

  test("the default clock is Date.now() in seconds", async () => {
    const before = Date.now() / 1000;
    const store = new ContextStore();
    const outcome = await store.run(store.registerText("x"), { type: "peek", selector: { type: "metadata" } });
    const createdAt = outcome.ok ? (outcome.value as { created_at: number }).created_at : NaN;
    assert.ok(createdAt >= before - 1 && createdAt <= Date.now() / 1000 + 1, String(createdAt));
  });

  test("items are copied in and out: neither the caller nor a result can change the context", async () => {
    const store = new ContextStore();
    const items: JsonValue[] = [{ k: ["v"] }];
    const handle = store.registerItems(items);
    (items[0] as { k: JsonValue[] }).k.push("added later");
    const first = await store.run(handle, { type: "peek", selector: { type: "item", index: 0 } });
    assert.ok(first.ok);
    (first.value as { k: JsonValue[] }).k.push("changed by a reader");
    const second = await store.run(handle, { type: "peek", selector: { type: "item", index: 0 } });
    assert.deepStrictEqual(JSON.parse(JSON.stringify(second)), { ok: true, value: { k: ["v"] }, truncated: false });
  });

  test("keys like __proto__ stay plain keys", async () => {
    const store = new ContextStore();
    const item = JSON.parse('{"__proto__": {"polluted": true}, "constructor": 1}') as JsonValue;
    const handle = store.registerItems([item]);
    const outcome = await store.run(handle, { type: "map", transform: "identity" });
    assert.ok(outcome.ok);
    const [copy] = outcome.value as Record<string, JsonValue>[];
    assert.ok(copy !== undefined);
    assert.equal(Object.getPrototypeOf(copy), null);
    assert.deepStrictEqual(Object.keys(copy), ["__proto__", "constructor"]);
    assert.equal(({} as Record<string, unknown>)["polluted"], undefined);
    const search = await store.run(handle, { type: "search", pattern: "proto" });
    assert.deepStrictEqual(JSON.parse(JSON.stringify(search)), {
      ok: true,
      value: [{ index: 0, value: "json{'__proto__':json{polluted:true},constructor:1}" }],
      truncated: false,
    });
  });

  test("what is not text or JSON is refused at registration", () => {
    const store = new ContextStore();
    assert.throws(() => store.registerText(42 as unknown as string), TypeError);
    assert.throws(() => store.registerItems("abc" as unknown as JsonValue[]), TypeError);
    assert.throws(() => store.registerItems([undefined as unknown as JsonValue]), /items\[0\]/);
    assert.throws(() => store.registerItems([{ when: new Date(0) as unknown as JsonValue }]), /items\[0\]\.when/);
    const cyclic: JsonValue[] = [];
    cyclic.push(cyclic);
    assert.throws(() => store.registerItems(cyclic), /refers back to itself/);
  });
});

describe("failures are outcomes", () => {
  test("malformed actions never throw or reject", async () => {
    const store = new ContextStore();
    const handle = store.registerText(SAMPLE);
    const malformed = [
      null,
      { type: "grep", pattern: "x" },
      { type: "peek" },
      { type: "peek", selector: { type: "middle", count: 1 } },
      { type: "partition", strategy: { type: "words", size: 2 } },
      { type: "slice", start: "0", length: 1 },
      { type: "map" },
      { type: "search", pattern: 5 },
    ] as unknown as ContextAction[];
    for (const action of malformed) {
      const outcome = await store.run(handle, action);
      assert.equal(outcome.ok, false, JSON.stringify(action));
      if (!outcome.ok) {
        assert.equal(typeof outcome.error.kind, "string");
        assert.equal(typeof outcome.error.operation, "string");
        assert.ok(outcome.error.message.length > 0);
      }
    }
  });

  test("each malformed action gets the reference's kind", async () => {
    const store = new ContextStore();
    const handle = store.registerText(SAMPLE);
    const kinds: [unknown, Record<string, unknown>][] = [
      [
        { type: "grep", pattern: "x" },
        { operation: "grep", kind: "unsupported_operation", requested: "grep" },
      ],
      [
        { type: "peek", selector: { type: "middle", count: 1 } },
        { operation: "peek(middle)", kind: "unsupported_selector", context_kind: "text", selector: "middle" },
      ],
      [
        { type: "partition", strategy: { type: "words", size: 2 } },
        { operation: "partition(words(2))", kind: "unsupported_partition", context_kind: "text", strategy: "words(2)" },
      ],
      [
        { type: "slice", start: 2.5, length: 1 },
        { operation: "slice(2.5,1)", kind: "invalid_argument", value: 2.5 },
      ],
      [
        { type: "search", pattern: 5 },
        { operation: "search", kind: "invalid_pattern" },
      ],
      [null, { operation: "unknown", kind: "runtime_error", exception: "TypeError" }],
    ];
    for (const [action, expected] of kinds) {
      const { message, ...error } = errorOf(await store.run(handle, action as ContextAction));
      assert.equal(typeof message, "string");
      assert.deepStrictEqual(error, expected);
    }
  });

  test("messages never quote the context", async () => {
    const secret = "SECRET-TOKEN";
    const store = new ContextStore();
    const text = store.registerText(`${secret}\n${secret}`);
    const items = store.registerItems([secret, { [secret]: secret }]);
    const actions: [ContextAction, unknown][] = [
      [{ type: "slice", start: 99, length: 1 }, text],
      [{ type: "peek", selector: { type: "item", index: 0 } }, text],
      [{ type: "peek", selector: { type: "item", index: 9 } }, items],
      [{ type: "partition", strategy: { type: "lines", size: 1 } }, items],
      [{ type: "map", transform: "reverse" }, items],
      [{ type: "reduce", reducer: "sum" }, text],
    ];
    for (const [action, handle] of actions) {
      const error = errorOf(await store.run(handle, action));
      assert.ok(!JSON.stringify(error).includes(secret), JSON.stringify(error));
    }
  });
});
