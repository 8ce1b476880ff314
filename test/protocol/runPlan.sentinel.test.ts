// The sentinel key, handed to the server's run for one run (as the VS Code client does), against
// ten hostile provider behaviours: it reaches the provider as the bearer token, and no
// notification, log message or stderr line of the server carries it in any folded form.

import assert from "node:assert/strict";
import { it } from "node:test";
import { assertNoKey, hostileBehaviours, newSentinel } from "../support/hostileProviders";
import { runToEnd } from "./support/planRuns";
import { useSentinelServer } from "./support/sentinelServer";

const sentinel = newSentinel();
const KEY_VAR = "RLM_SENTINEL_PROVIDER_VAR";
const suite = useSentinelServer(KEY_VAR);
const { seen } = suite;

function run(name: string, plan: string): Promise<Record<string, unknown>> {
  const file = suite.server.workspace.path(`${name}.rlmplan.json`);
  return runToEnd(suite.server.client, seen, file, plan, { env: { [KEY_VAR]: sentinel.key } });
}

it("no hostile provider gets the key into what the server sends", async () => {
  for (const [index, hostile] of hostileBehaviours(sentinel).entries()) {
    suite.chat.reset();
    suite.chat.script(hostile.answer);
    const final = hostile.planCarries === undefined ? { ref: "var", name: "reply" } : hostile.planCarries;
    const plan = JSON.stringify({
      steps: [
        { op: "model", provider: "local", prompt: "say hi", bind: "reply" },
        { op: "final", value: final },
      ],
    });
    const result = await run(`plan-${index}`, plan);
    assert.equal(typeof result.ok, "boolean", hostile.name);
    assert.equal(suite.chat.requests[0]?.headers.authorization, `Bearer ${sentinel.key}`, hostile.name);
    assertNoKey(seen.join("\n"), sentinel, `notifications after "${hostile.name}"`);
  }
  assertNoKey(JSON.stringify(suite.server.client.logMessages), sentinel, "log messages");
  assertNoKey(suite.server.client.stderr, sentinel, "the server's stderr");
  assert.ok(seen.length >= 20);
});
