// The openai-chat provider against a real endpoint, only when one is configured:
// RLM_PLAN_LIVE_BASE_URL, RLM_PLAN_LIVE_MODEL and RLM_PLAN_LIVE_KEY_ENV (the NAME of the variable
// holding the key; may be left unset for keyless local servers such as Ollama).

import assert from "node:assert/strict";
import { test } from "node:test";
import { createOpenAIChatProvider } from "@rlm-plan/core/providers/openaiChat";
import { runPlan } from "@rlm-plan/core/run/startRun";

const baseUrl = process.env.RLM_PLAN_LIVE_BASE_URL;
const model = process.env.RLM_PLAN_LIVE_MODEL;
const apiKeyEnv = process.env.RLM_PLAN_LIVE_KEY_ENV;

test("live: model -> final against a real OpenAI-compatible endpoint", async (t) => {
  if (!baseUrl || !model) {
    t.skip("set RLM_PLAN_LIVE_BASE_URL, RLM_PLAN_LIVE_MODEL and RLM_PLAN_LIVE_KEY_ENV to run against a live endpoint");
    return;
  }
  const provider = createOpenAIChatProvider(
    { type: "openai-chat", baseUrl, model, ...(apiKeyEnv ? { apiKeyEnv } : {}), timeoutMs: 60_000, maxRetries: 2 },
    process.env,
  );
  const host = { providers: new Map([["live", provider]]) };
  const plan = {
    steps: [
      {
        op: "model",
        provider: "live",
        prompt: "Reply with the single word: pong",
        options: { temperature: 0, max_tokens: 16 },
        bind: "reply",
      },
      { op: "final", value: { ref: "var", name: "reply" } },
    ],
  };
  const outcome = await runPlan({ kind: "value", value: plan }, { capabilities: ["model(live)"] }, host);
  assert.ok(outcome.ok, outcome.ok ? "" : outcome.error.message);
  const value = outcome.value as Record<string, unknown>;
  assert.equal(typeof value.text, "string");
  assert.ok((value.text as string).length > 0, "the model answered with some text");
  assert.equal(typeof value.model, "string");
  const usage = value.usage as Record<string, unknown>;
  for (const key of ["prompt_tokens", "completion_tokens", "total_tokens"]) {
    assert.ok(usage[key] === null || typeof usage[key] === "number", key);
  }
  assert.ok(value.finish_reason === null || typeof value.finish_reason === "string");
  assert.deepEqual(
    outcome.transitions.map((transition) => transition.operation),
    ["model(live)", "final"],
  );
});
