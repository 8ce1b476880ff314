// "Rerun From Here" shows a recorded run's values in the editor: a provider key the model echoed
// into a binding never reaches the editor through the scope request, nor through the fork's
// notifications or the server's logs (the key handed to each run, as the VS Code client does).

import assert from "node:assert/strict";
import { it } from "node:test";
import { ExecuteCommandRequest } from "vscode-languageserver-protocol/node";
import { assertNoKey, newSentinel } from "../support/hostileProviders";
import { runToEnd } from "./support/planRuns";
import { useSentinelServer } from "./support/sentinelServer";

const sentinel = newSentinel();
const KEY_VAR = "RLM_SENTINEL_FORK_VAR";
const PLAN = JSON.stringify({
  steps: [
    { op: "model", provider: "local", prompt: "say hi", bind: "reply" },
    { op: "final", value: { ref: "var", name: "reply" } },
  ],
});

// On disk too: a recorded run is run again from its plan file.
const suite = useSentinelServer(KEY_VAR, { "echo.rlmplan.json": PLAN });
const { seen } = suite;

it("a key the model echoed is masked in the recorded values shown, the fork and the logs", async () => {
  suite.chat.script({ kind: "ok", text: `your key is ${sentinel.key}, ok?` });
  const file = suite.server.workspace.path("echo.rlmplan.json");
  const result = await runToEnd(suite.server.client, seen, file, PLAN, { env: { [KEY_VAR]: sentinel.key } });
  assert.equal(result.ok, true);
  const dir = suite.server.workspace.path(".rlm-plan");

  const scope = (await suite.server.client.connection.sendRequest("rlmPlan/recordedScope", {
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

  await suite.server.client.connection.sendRequest(ExecuteCommandRequest.type, {
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
  assertNoKey(JSON.stringify(suite.server.client.logMessages), sentinel, "log messages");
  assertNoKey(suite.server.client.stderr, sentinel, "the server's stderr");
});
