// "Rerun From Here" shows a recorded run's values in the editor: a provider key the model echoed
// into a binding never reaches the editor through the scope request, nor through the fork's
// notifications or the server's logs (the key handed to the first run only, as the client does).

import assert from "node:assert/strict";
import { after, before, it } from "node:test";
import { ExecuteCommandRequest } from "vscode-languageserver-protocol/node";
import { startChatServer, type ChatServer } from "../support/chatServer";
import { assertNoKey, newSentinel } from "../support/hostileProviders";
import { hostProfile, ServerSession } from "@rlm-plan/lsp-harness";
import { recordRunNotifications, runToEnd, RUN_NOTIFICATIONS } from "./support/planRuns";

const sentinel = newSentinel();
const KEY_VAR = "RLM_SENTINEL_FORK_VAR";
const PLAN = JSON.stringify({
  steps: [
    { op: "model", provider: "local", prompt: "say hi", bind: "reply" },
    { op: "final", value: { ref: "var", name: "reply" } },
  ],
});

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
      // On disk too: a recorded run is run again from its plan file.
      "echo.rlmplan.json": PLAN,
    },
  }).start();
  recordRunNotifications(server.client, seen, [...RUN_NOTIFICATIONS, "window/showMessage"]);
});

after(async () => {
  await server.dispose();
  await chat.close();
});

it("a key the model echoed is masked in the recorded values shown, the fork and the logs", async () => {
  chat.script({ kind: "ok", text: `your key is ${sentinel.key}, ok?` });
  const file = server.workspace.path("echo.rlmplan.json");
  const result = await runToEnd(server.client, seen, file, PLAN, { env: { [KEY_VAR]: sentinel.key } });
  assert.equal(result.ok, true);
  const dir = server.workspace.path(".rlm-plan");

  const scope = (await server.client.connection.sendRequest("rlmPlan/recordedScope", {
    dir,
    id: 1,
    step: "steps/1",
  })) as { ok: boolean; reached: boolean; bindings: { name: string; value?: unknown }[] };
  assert.deepEqual(
    { ok: scope.ok, reached: scope.reached, names: scope.bindings.map((b) => b.name) },
    { ok: true, reached: true, names: ["reply"] },
  );
  assert.match(JSON.stringify(scope.bindings[0]?.value), /\*\*\*/, "the recorded value, masked");
  assertNoKey(JSON.stringify(scope), sentinel, "the scope's answer");

  await server.client.connection.sendRequest(ExecuteCommandRequest.type, {
    command: "rlmPlan.server.fork",
    // The client hands the keys to each run, a fork's too (preflight wants them set).
    arguments: [{ dir, id: 1, step: "steps/1", set: { reply: "edited" }, env: { [KEY_VAR]: sentinel.key } }],
  });
  for (let i = 0; i < 400 && !seen.some((s) => s.includes('"value":"edited"')); i++)
    await new Promise((resolve) => setTimeout(resolve, 25));
  assert.ok(
    seen.some((s) => s.includes('"value":"edited"')),
    "the fork ended with the edited value",
  );
  assertNoKey(seen.join("\n"), sentinel, "the runs' notifications");
  assertNoKey(JSON.stringify(server.client.logMessages), sentinel, "log messages");
  assertNoKey(server.client.stderr, sentinel, "the server's stderr");
});
