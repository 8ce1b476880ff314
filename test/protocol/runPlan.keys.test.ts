// A provider key handed to the server's run command for one run (what the VS Code client does
// with keys from its secret storage) reaches the provider's Authorization header, and nothing
// the server sends back carries it.

import assert from "node:assert/strict";
import { randomUUID } from "node:crypto";
import { after, before, it } from "node:test";
import { startChatServer, type ChatServer } from "../support/chatServer";
import { hostProfile, ServerSession } from "@rlm-plan/lsp-harness";
import { recordRunNotifications, runToEnd } from "./support/planRuns";

const KEY = `sk-SENTINEL-${randomUUID()}`;
const PLAN = `{"steps": [
  {"op": "model", "provider": "local", "prompt": "say hi", "bind": "reply"},
  {"op": "final", "value": {"ref": "field", "value": {"ref": "var", "name": "reply"}, "key": "text"}}
]}`;

let chat: ChatServer;
let server: ServerSession;
const seen: string[] = [];

before(async () => {
  chat = await startChatServer([
    { kind: "ok", text: "hello" },
    { kind: "ok", text: "hello again" },
  ]);
  server = await new ServerSession({
    files: {
      "rlmplan.host.json": hostProfile({
        capabilities: ["model(local)"],
        providers: {
          local: { type: "openai-chat", baseUrl: chat.baseUrl, model: "tiny", apiKeyEnv: "RLM_PLAN_TEST_RUN_KEY" },
        },
      }),
    },
  }).start();
  recordRunNotifications(server.client, seen);
});

after(async () => {
  await server.dispose();
  await chat.close();
});

function runWith(args: Record<string, unknown>): Promise<Record<string, unknown>> {
  return runToEnd(server.client, seen, server.workspace.path("hi.rlmplan.json"), PLAN, args);
}

it("the key passed for the run is sent as the bearer token, and is echoed nowhere", async () => {
  const result = await runWith({ env: { RLM_PLAN_TEST_RUN_KEY: KEY } });
  assert.deepEqual(result.ok, true);
  assert.equal(result.value, "hello");
  assert.equal(chat.requests.length, 1);
  assert.equal(chat.requests[0]?.headers.authorization, `Bearer ${KEY}`);
  assert.ok(!seen.some((text) => text.includes(KEY)), "a notification carries the key");
});

it("without the key the run fails in preflight, naming the provider and the variable, not a value", async () => {
  const result = await runWith({});
  assert.equal(result.ok, false);
  const error = result.error as Record<string, unknown>;
  assert.deepEqual(
    [error.phase, error.kind, error.variable],
    ["preflight", "provider_key_missing", "RLM_PLAN_TEST_RUN_KEY"],
  );
  assert.match(String(error.message), /RLM_PLAN_TEST_RUN_KEY, which is not set/);
  assert.equal(chat.requests.length, 1, "no request without a key");
});
