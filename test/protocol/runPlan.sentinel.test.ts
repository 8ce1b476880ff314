// The sentinel key, handed to the server's run for one run (as the VS Code client does), against
// ten hostile provider behaviours: it reaches the provider as the bearer token, and no
// notification, log message or stderr line of the server carries it in any folded form.

import assert from "node:assert/strict";
import { after, before, it } from "node:test";
import { startChatServer, type ChatServer } from "../support/chatServer";
import { assertNoKey, hostileBehaviours, newSentinel } from "../support/hostileProviders";
import { hostProfile, ServerSession } from "@rlm-plan/lsp-harness";
import { recordRunNotifications, runToEnd, RUN_NOTIFICATIONS } from "./support/planRuns";

const sentinel = newSentinel();
const KEY_VAR = "RLM_SENTINEL_PROVIDER_VAR";

let chat: ChatServer;
let server: ServerSession;
const seen: string[] = [];

before(async () => {
  chat = await startChatServer();
  server = await new ServerSession({
    files: {
      "rlmplan.host.json": hostProfile({
        capabilities: ["model(local)"],
        providers: { local: { type: "openai-chat", baseUrl: chat.baseUrl, model: "tiny", apiKeyEnv: KEY_VAR } },
      }),
    },
  }).start();
  recordRunNotifications(server.client, seen, [...RUN_NOTIFICATIONS, "window/showMessage"]);
});

after(async () => {
  await server.dispose();
  await chat.close();
});

function run(name: string, plan: string): Promise<Record<string, unknown>> {
  const file = server.workspace.path(`${name}.rlmplan.json`);
  return runToEnd(server.client, seen, file, plan, { env: { [KEY_VAR]: sentinel.key } });
}

it("no hostile provider gets the key into what the server sends", async () => {
  for (const [index, hostile] of hostileBehaviours(sentinel).entries()) {
    chat.reset();
    chat.script(hostile.answer);
    const final = hostile.planCarries === undefined ? { ref: "var", name: "reply" } : hostile.planCarries;
    const plan = JSON.stringify({
      steps: [
        { op: "model", provider: "local", prompt: "say hi", bind: "reply" },
        { op: "final", value: final },
      ],
    });
    const result = await run(`plan-${index}`, plan);
    assert.equal(typeof result.ok, "boolean", hostile.name);
    assert.equal(chat.requests[0]?.headers.authorization, `Bearer ${sentinel.key}`, hostile.name);
    assertNoKey(seen.join("\n"), sentinel, `notifications after "${hostile.name}"`);
  }
  assertNoKey(JSON.stringify(server.client.logMessages), sentinel, "log messages");
  assertNoKey(server.client.stderr, sentinel, "the server's stderr");
  assert.ok(seen.length >= 20);
});
