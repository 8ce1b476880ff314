// The debug adapter's output boundary: a provider (a real chat-completions server on 127.0.0.1)
// answers with the very key it was called with, the key the launch passed in `env` (as the
// extension passes keys from its secret storage, under a name that says nothing). Paused after
// the model step, the Variables view and the console's evaluate show the reply; the run's output
// events, run events (transitions among them) and result (what the extension's run history
// stores) follow. The key, in
// any case, appears in none of them: the session's mask covers every event and response.

import assert from "node:assert/strict";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, test } from "node:test";
import type { DebugProtocol } from "@vscode/debugprotocol";
import {
  DebugRunEvent,
  DebugRunJournalEvent,
  DebugRunResultEvent,
  DebugRunStartedEvent,
} from "@rlm-plan/language-server/protocol";
import { startChatServer, type ChatServer } from "../support/chatServer";
import { debugClient } from "../support/debugClient";

const SENTINEL = "sk-DapSentinel-4b8e1f0a7c";

const dir = mkdtempSync(join(tmpdir(), "rlm-dap-secrets-"));
let chat: ChatServer;
before(async () => {
  chat = await startChatServer();
});
after(async () => {
  await chat.close();
  rmSync(dir, { recursive: true, force: true });
});

const PLAN = `{
  "steps": [
    { "op": "model", "provider": "echo", "prompt": "say the key", "bind": "reply" },
    { "op": "final", "value": { "said": { "ref": "var", "name": "reply" } } }
  ]
}
`;

test("a debug run whose provider echoes the key leaves it in no event, variable, evaluation or result", async () => {
  const plan = join(dir, "echo.rlmplan.json");
  writeFileSync(plan, PLAN);
  writeFileSync(
    join(dir, "rlmplan.host.json"),
    JSON.stringify({
      capabilities: ["model(echo)"],
      providers: { echo: { type: "openai-chat", baseUrl: chat.baseUrl, model: "m", apiKeyEnv: "PLAIN_NAME" } },
    }),
  );
  // The provider answers with the Authorization header's key, lowercased too.
  chat.script({
    kind: "dynamic",
    answer: (request) => {
      const key = String(request.headers.authorization ?? "").replace(/^Bearer /, "");
      return { kind: "ok", text: `the key is ${key}, or ${key.toLowerCase()}` };
    },
  });

  const dc = debugClient(dir);
  const seen: unknown[] = [];
  const custom = [DebugRunStartedEvent, DebugRunJournalEvent, DebugRunEvent, DebugRunResultEvent].map((e) => e.event);
  for (const event of ["output", "stopped", ...custom]) dc.on(event, (body: unknown) => seen.push(body));
  const result = dc.waitForEvent(DebugRunResultEvent.event);
  const terminated = dc.waitForEvent("terminated");
  await dc.start();
  try {
    await Promise.all([
      dc.waitForEvent("initialized").then(async () => {
        await dc.setBreakpointsRequest({ source: { path: plan }, breakpoints: [{ line: 4 }] });
        await dc.configurationDoneRequest();
      }),
      dc
        .initializeRequest({ adapterID: "rlm-plan", linesStartAt1: true, columnsStartAt1: true, pathFormat: "path" })
        .then(() => dc.launchRequest({ program: plan, env: { PLAIN_NAME: SENTINEL } } as never)),
    ]);
    await dc.waitForEvent("stopped");
    const frames = await dc.stackTraceRequest({ threadId: 1 });
    const frameId = frames.body.stackFrames[0]?.id as number;
    const scopes = await dc.scopesRequest({ frameId });
    for (const scope of scopes.body.scopes) {
      const variables = await dc.variablesRequest({ variablesReference: scope.variablesReference });
      seen.push(variables.body);
      for (const variable of variables.body.variables as DebugProtocol.Variable[]) {
        if (variable.variablesReference > 0)
          seen.push((await dc.variablesRequest({ variablesReference: variable.variablesReference })).body);
      }
    }
    const evaluated = await dc.evaluateRequest({ expression: "reply", frameId, context: "repl" });
    seen.push(evaluated.body);
    assert.match(evaluated.body.result, /\*\*\*/, "the evaluation shows the masked reply");
    await dc.continueRequest({ threadId: 1 });
    seen.push((await result).body);
    await terminated;
  } finally {
    await dc.stop();
  }
  assert.equal(chat.requests[0]?.headers.authorization, `Bearer ${SENTINEL}`, "the provider got the real key");
  const everything = JSON.stringify(seen);
  assert.ok(everything.includes("the key is ***"), everything);
  assert.ok(!everything.toLowerCase().includes("dapsentinel"), `the key leaked: ${everything}`);
});
