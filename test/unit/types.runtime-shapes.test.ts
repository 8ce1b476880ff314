// The type rules read the runtime's own result shapes: every context action, run on a text and
// on a list of items, returns a value its declared schema (context/resultShapes.ts) accepts, and
// a provider's reply is what run/modelReply.ts declares. A shape changed on one side fails here.

import assert from "node:assert/strict";
import { test } from "node:test";
import Ajv from "ajv";
import { contextResultSchema } from "@rlm-plan/core/plan/shapes/contextResults";
import { ContextStore } from "@rlm-plan/core/context/store";
import type { ContextAction } from "@rlm-plan/core/plan/ast";
import { chatValue } from "@rlm-plan/core/providers/chatResponse";
import { MODEL_REPLY_SCHEMA } from "@rlm-plan/core/plan/shapes/modelReply";

const ajv = new Ajv({ strict: false });

const ACTIONS: readonly ContextAction[] = [
  { type: "search", pattern: "a" },
  { type: "slice", start: 0, length: 5 },
  { type: "peek", selector: { type: "metadata" } },
  { type: "peek", selector: { type: "head", count: 2 } },
  { type: "peek", selector: { type: "tail", count: 2 } },
  { type: "peek", selector: { type: "item", index: 1 } },
  { type: "partition", strategy: { type: "fixed", size: 2 } },
  { type: "partition", strategy: { type: "lines", size: 1 } },
  { type: "map", transform: "identity" },
  { type: "map", transform: "lowercase" },
  { type: "map", transform: "uppercase" },
  { type: "map", transform: "length" },
  { type: "reduce", reducer: "count" },
  { type: "reduce", reducer: "byte_count" },
];

for (const kind of ["text", "terms"] as const) {
  test(`every context action on a ${kind === "text" ? "text" : "list of items"} returns what its schema says`, async () => {
    const store = new ContextStore();
    const handle =
      kind === "text"
        ? store.registerText("alpha\nBeta gamma\nomega a\n")
        : store.registerItems([{ id: 1, name: "a" }, "plain", 3, ["x", "a"]]);
    const seen: string[] = [];
    for (const action of ACTIONS) {
      const schema = contextResultSchema(action, kind);
      const outcome = await store.run(handle, action);
      const label = JSON.stringify(action);
      if (schema === undefined) {
        // The schema says this kind of context refuses the action; the runtime agrees.
        assert.equal(outcome.ok, false, label);
        continue;
      }
      assert.ok(outcome.ok, `${label}: ${outcome.ok ? "" : outcome.error.message}`);
      assert.ok(
        ajv.validate(schema, outcome.value),
        `${label}: ${ajv.errorsText()} (${JSON.stringify(outcome.value)})`,
      );
      seen.push(action.type);
    }
    assert.ok(seen.length >= 11);
  });
}

test("a provider's reply is the model reply the type rules read", () => {
  const body = JSON.stringify({
    model: "m-1",
    choices: [{ message: { content: "hello" }, finish_reason: "stop" }],
    usage: { prompt_tokens: 3, completion_tokens: 1, total_tokens: 4 },
  });
  const reply = chatValue(body, "fallback", []);
  assert.deepEqual(reply, {
    text: "hello",
    model: "m-1",
    usage: { prompt_tokens: 3, completion_tokens: 1, total_tokens: 4 },
    finish_reason: "stop",
  });
  assert.ok(ajv.validate(MODEL_REPLY_SCHEMA, reply), ajv.errorsText());
  const sparse = chatValue(
    JSON.stringify({ choices: [{ message: { content: "" } }], usage: { total_tokens: 2.5 } }),
    "f",
    [],
  );
  assert.deepEqual(sparse, {
    text: "",
    model: "f",
    usage: { prompt_tokens: null, completion_tokens: null, total_tokens: null },
    finish_reason: null,
  });
  assert.ok(ajv.validate(MODEL_REPLY_SCHEMA, sparse), ajv.errorsText());
});
