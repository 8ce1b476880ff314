// Propose Plan from any editor, over the protocol, against a real chat-completions server on
// 127.0.0.1: the host profile's providers (names and key variables, never a key), a proposed
// plan's text and its problems against the host, the key passed for the call only, and an
// unsaved proposal at a path in the workspace checked against that folder's host profile.

import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { ExecuteCommandRequest } from "vscode-languageserver-protocol/node";
import { startChatServer, type ChatServer } from "../support/chatServer";
import { hostProfile, ServerSession, type LspClient, type TempWorkspace } from "@rlm-plan/lsp-harness";

const KEY_VARIABLE = "RLM_PLAN_TEST_PROPOSE_KEY";
const KEY = "sk-propose-sentinel-41";
const PLAN = {
  steps: [
    { op: "tool", name: "count_items", args: [1, 2], bind: "n" },
    { op: "final", value: { ref: "var", name: "n" } },
  ],
};

describe("Propose Plan (server command)", () => {
  let chat: ChatServer;
  let server: ServerSession;
  let workspace: TempWorkspace;
  let client: LspClient;
  before(async () => {
    chat = await startChatServer();
    server = new ServerSession({
      files: {
        "rlmplan.host.json": hostProfile({
          capabilities: ["tool(count_items)"],
          tools: { count_items: { type: "builtin", builtin: "count_items" } },
          providers: {
            planner: { type: "openai-chat", baseUrl: chat.baseUrl, model: "tiny", apiKeyEnv: KEY_VARIABLE },
          },
        }),
        // A folder with a host of its own: what applies in it is this one, not its parent's.
        "team/rlmplan.host.json": hostProfile({
          capabilities: ["tool(count_items)"],
          tools: { count_items: { type: "builtin", builtin: "count_items" } },
          providers: {
            reviewer: { type: "openai-chat", baseUrl: chat.baseUrl, model: "small", apiKeyEnv: KEY_VARIABLE },
          },
        }),
      },
    });
    ({ workspace, client } = await server.start());
  });
  after(async () => {
    await server.dispose();
    await chat.close();
  });

  const propose = (args: Record<string, unknown>) =>
    client.connection.sendRequest(ExecuteCommandRequest.type, {
      command: "rlmPlan.server.proposePlan",
      arguments: [args],
    }) as Promise<Record<string, unknown>>;

  it("lists the host's providers with the variable each reads its key from", async () => {
    const result = await client.connection.sendRequest("rlmPlan/hostProviders", {
      uri: workspace.uri("x.rlmplan.json"),
    });
    assert.deepEqual(result, {
      hostProfile: workspace.path("rlmplan.host.json"),
      providers: [{ name: "planner", description: `tiny at ${chat.baseUrl}`, keyVariable: KEY_VARIABLE }],
    });
  });

  it("a folder's URI (no trailing slash) means the host profile in that folder, else the nearest above", async () => {
    const at = (uri: string) => client.connection.sendRequest("rlmPlan/hostProviders", { uri });
    assert.deepEqual(await at(workspace.uri("")), {
      hostProfile: workspace.path("rlmplan.host.json"),
      providers: [{ name: "planner", description: `tiny at ${chat.baseUrl}`, keyVariable: KEY_VARIABLE }],
    });
    assert.deepEqual(await at(workspace.uri("team")), {
      hostProfile: workspace.path("team/rlmplan.host.json"),
      providers: [{ name: "reviewer", description: `small at ${chat.baseUrl}`, keyVariable: KEY_VARIABLE }],
    });
    // A document in that folder, its host profile itself, and an unsaved proposal placed there
    // (proposing again from it) get the same one.
    for (const uri of [
      workspace.uri("team/rlmplan.host.json"),
      `untitled:${workspace.path("team/proposed.rlmplan.json")}`,
    ]) {
      assert.equal(((await at(uri)) as { hostProfile: string }).hostProfile, workspace.path("team/rlmplan.host.json"));
    }
  });

  it("proposing from a folder asks that folder's provider", async () => {
    chat.reset();
    chat.script({ kind: "ok", text: JSON.stringify(PLAN) });
    const result = await propose({ uri: workspace.uri("team"), goal: "count", env: { [KEY_VARIABLE]: KEY } });
    assert.equal(result.ok, true);
    assert.equal(result.provider, "reviewer");
    assert.equal((chat.requests[0]?.body as { model?: string } | undefined)?.model, "small");
  });

  it("answers with the proposed plan, pretty-printed, and no problems; the key went to the provider only", async () => {
    chat.reset();
    chat.script({ kind: "ok", text: "Here you go:\n```json\n" + JSON.stringify(PLAN) + "\n```" });
    const result = await propose({
      uri: workspace.uri("x.rlmplan.json"),
      goal: "count two things",
      env: { [KEY_VARIABLE]: KEY },
    });
    assert.deepEqual(result, {
      ok: true,
      provider: "planner",
      planText: `${JSON.stringify(PLAN, null, 2)}\n`,
      reply: null,
      problems: [],
    });
    assert.equal(chat.requests.length, 1);
    assert.equal(chat.requests[0]?.headers.authorization, `Bearer ${KEY}`);
    assert.match(chat.requests[0]?.text ?? "", /count two things/);
    assert.ok(!JSON.stringify(result).includes(KEY));
  });

  it("a plan the host refuses comes back with its located problems", async () => {
    chat.reset();
    chat.script({
      kind: "ok",
      text: JSON.stringify({
        steps: [
          { op: "rlm", plan: PLAN, bind: "x" },
          { op: "final", value: 1 },
        ],
      }),
    });
    const result = await propose({ uri: workspace.uri("x.rlmplan.json"), goal: "nest", env: { [KEY_VARIABLE]: KEY } });
    assert.equal(result.ok, true);
    assert.deepEqual(
      (result.problems as { code: string; line: number }[]).map((p) => [p.code, p.line]),
      [["capability_denied", 4]],
    );
  });

  it("a provider failure is an error message without the key", async () => {
    chat.reset();
    chat.script({ kind: "status", status: 401, body: { error: { message: "bad key" } } });
    const result = await propose({ uri: workspace.uri("x.rlmplan.json"), goal: "g", env: { [KEY_VARIABLE]: KEY } });
    assert.equal(result.ok, false);
    assert.match(String(result.error), /^provider "planner" failed: /);
    assert.ok(!String(result.error).includes(KEY));
  });

  it("an unsaved proposal at a path in the workspace is checked against that folder's host profile", async () => {
    const uri = `untitled:${workspace.path("proposed.rlmplan.json")}`;
    await client.connection.sendNotification("textDocument/didOpen", {
      textDocument: {
        uri,
        languageId: "rlm-plan",
        version: 1,
        text: JSON.stringify({
          steps: [
            { op: "rlm", plan: PLAN, bind: "x" },
            { op: "final", value: 1 },
          ],
        }),
      },
    });
    const diagnostics = await client.waitForDiagnostics(uri, (all) => all.length > 0);
    assert.deepEqual(
      diagnostics.map((d) => d.code),
      ["capability_denied"],
    );
  });
});
