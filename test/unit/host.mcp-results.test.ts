// An MCP tool's answer as the value a plan binds: structured content first, else the content
// (one text is that text; several blocks are a list), and error results as failures.

import assert from "node:assert/strict";
import { test } from "node:test";
import { toolAnswer } from "@rlm-plan/core/host/mcp/results";

const plain = (value: unknown): unknown => JSON.parse(JSON.stringify(value));

test("structured content wins over the text that mirrors it", () => {
  const answer = toolAnswer({ content: [{ type: "text", text: '{"a":1}' }], structuredContent: { a: 1 } });
  assert.deepEqual(answer.ok && plain(answer.value), { a: 1 });
});

test("one text block is its text; several blocks are a list, non-text blocks as objects without _meta", () => {
  assert.deepEqual(toolAnswer({ content: [{ type: "text", text: "hi" }] }), { ok: true, value: "hi" });
  const answer = toolAnswer({
    content: [
      { type: "text", text: "a" },
      { type: "image", mimeType: "image/png", data: "iVBO", _meta: { x: 1 } },
    ],
  });
  assert.deepEqual(answer.ok && plain(answer.value), ["a", { type: "image", mimeType: "image/png", data: "iVBO" }]);
  assert.deepEqual(toolAnswer({ content: [] }), { ok: true, value: [] });
});

test("an error result fails with its text, on one line and cut to 300 characters", () => {
  assert.deepEqual(toolAnswer({ content: [{ type: "text", text: "no\n  such file" }], isError: true }), {
    ok: false,
    message: "the tool reported an error: no such file",
  });
  const long = toolAnswer({ content: [{ type: "text", text: "x".repeat(400) }], isError: true });
  assert.equal(!long.ok && long.message, `the tool reported an error: ${"x".repeat(297)}...`);
  assert.deepEqual(toolAnswer({ isError: true }), { ok: false, message: "the tool reported an error" });
});
