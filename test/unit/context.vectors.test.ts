// The reference's conformance vectors of the op-context group, run directly on the context store:
// each case's single context step, with the case's inputs and context options, must give the
// value (or the context error) the reference gave.

import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { test } from "node:test";
import type { JsonValue } from "@rlm-plan/core/json";
import type { ContextAction, Selector } from "@rlm-plan/core/plan/ast";
import { ContextStore } from "@rlm-plan/core/context/store";

// Compiled to test/out/unit: the fixtures are two levels up.
const CORPUS = join(__dirname, "..", "..", "fixtures", "conformance", "public.jsonl");

interface Step {
  readonly op: string;
  readonly handle?: { readonly ref: string; readonly name: string };
  readonly action?: Record<string, unknown> & { readonly type: string };
  readonly value?: { readonly ref: string; readonly key?: string };
}

interface VectorCase {
  readonly id: string;
  readonly group: string;
  readonly note?: string;
  readonly plan: { readonly steps: readonly Step[] };
  readonly inputs: Record<string, { text?: string; terms?: JsonValue[] }>;
  readonly context_options: { readonly max_results?: number; readonly max_bytes?: number };
  readonly expected: {
    readonly execute: { readonly ok: boolean; readonly value?: JsonValue; readonly cause?: Record<string, JsonValue> };
  };
}

/** A plan's action JSON as the normalizer hands it over: the selector "metadata" becomes an object. */
function toAction(json: Record<string, unknown> & { readonly type: string }): ContextAction {
  if (json.type === "peek" && json["selector"] === "metadata") {
    const selector: Selector = { type: "metadata" };
    return { type: "peek", selector };
  }
  return json as unknown as ContextAction;
}

const cases = readFileSync(CORPUS, "utf8")
  .split("\n")
  .filter((line) => line.trim() !== "")
  .map((line) => JSON.parse(line) as VectorCase)
  .filter((c) => c.group === "op-context");

test("the corpus has op-context vectors", () => {
  assert.ok(cases.length >= 50, `found ${cases.length}`);
});

for (const c of cases) {
  test(`${c.id}: ${c.note ?? ""}`, async () => {
    const [step, final] = c.plan.steps;
    assert.ok(step?.op === "context" && step.handle !== undefined && step.action !== undefined);
    const input = c.inputs[step.handle.name];
    assert.ok(input !== undefined);
    const store = new ContextStore({ now: () => 1700000000 });
    const handle = input.text !== undefined ? store.registerText(input.text) : store.registerItems(input.terms ?? []);
    const outcome = await store.run(handle, toAction(step.action), {
      maxResults: c.context_options.max_results ?? 32,
      maxBytes: c.context_options.max_bytes ?? 16384,
    });
    const expected = c.expected.execute;
    if (expected.ok) {
      assert.ok(outcome.ok, JSON.stringify(outcome));
      let value = JSON.parse(JSON.stringify(outcome.value)) as JsonValue;
      // A final `{"ref": "field", "key": K}` reads one field of the bound value.
      const key = final?.value?.key;
      if (key !== undefined) value = (value as Record<string, JsonValue>)[key] ?? null;
      assert.deepStrictEqual(value, expected.value);
    } else {
      assert.ok(!outcome.ok, JSON.stringify(outcome));
      const { message, ...error } = outcome.error;
      const { message: referenceMessage, ...cause } = expected.cause ?? {};
      assert.equal(typeof message, "string");
      assert.equal(typeof referenceMessage, "string");
      assert.deepStrictEqual(error, cause);
    }
  });
}
