// Running a plan from any LSP editor (Neovim, Helix, Zed, eglot): the "▶ Run plan" lens names
// the server's own command unless the client says it runs plans itself; the command reports
// with standard LSP only: cancellable work-done progress, a log message per transition and per
// failed retry attempt (with its reason), and the
// outcome in window/showMessage; it answers with the result when the run ends.

import assert from "node:assert/strict";
import { describe, it } from "node:test";
import {
  CodeLensRequest,
  ExecuteCommandRequest,
  MessageType,
  ShowMessageNotification,
  WorkDoneProgressCreateRequest,
  type ShowMessageParams,
} from "vscode-languageserver-protocol/node";
import { hostProfile } from "@rlm-plan/lsp-harness";
import { useServer } from "@rlm-plan/lsp-harness/suite";

const HOST = {
  capabilities: ["context(search)", "tool(count_items)", "retry"],
  inputs: { doc: { type: "text", text: "needle one\nhay\nneedle two\n" } },
  tools: { count_items: { type: "builtin", builtin: "count_items" } },
};

const PLAN = `{
  "steps": [
    {"op": "context", "handle": {"ref": "input", "name": "doc"}, "action": {"type": "search", "pattern": "needle"}, "bind": "hits"},
    {"op": "tool", "name": "count_items", "args": {"ref": "var", "name": "hits"}, "bind": "count"},
    {"op": "final", "value": {"ref": "var", "name": "count"}}
  ]
}`;

const FILES = { "rlmplan.host.json": hostProfile(HOST) };

describe("running a plan with standard LSP messages (any editor)", () => {
  const progress: unknown[] = [];
  const shown: ShowMessageParams[] = [];
  const server = useServer({
    files: FILES,
    windowCapabilities: { workDoneProgress: true },
    onConnection: (connection) => {
      connection.onRequest(WorkDoneProgressCreateRequest.method, () => null);
      connection.onNotification("$/progress", (params: { value: unknown }) => {
        progress.push(params.value);
      });
      connection.onNotification(ShowMessageNotification.method, (params: ShowMessageParams) => {
        shown.push(params);
      });
    },
  });

  it("the lens names the server's command when the client has no run command of its own", async () => {
    const { client } = server;
    const { uri } = await server.open("lens.rlmplan.json", PLAN);
    const lenses = (await client.connection.sendRequest(CodeLensRequest.type, { textDocument: { uri } })) ?? [];
    assert.deepEqual(lenses[0]?.command, {
      title: "▶ Run plan (steps 3/64 · tools 1/16 · context ops 1/32 · depth 1/4)",
      command: "rlmPlan.server.runInEditor",
      arguments: [uri],
    });
    assert.ok(
      client.initializeResult?.capabilities.executeCommandProvider?.commands.includes("rlmPlan.server.runInEditor"),
    );
    await client.close(uri);
  });

  it("runs: progress begins, names steps and ends; transitions are logged; the value is shown and answered", async () => {
    const { client } = server;
    const { uri } = await server.open("run.rlmplan.json", PLAN);
    const result = await client.connection.sendRequest(ExecuteCommandRequest.type, {
      command: "rlmPlan.server.runInEditor",
      arguments: [uri],
    });
    assert.deepEqual((result as { ok: boolean; value: unknown }).value, 2);
    const kinds = progress.map((v) => (v as { kind: string }).kind);
    assert.equal(kinds[0], "begin");
    assert.equal(kinds[kinds.length - 1], "end");
    assert.deepEqual(progress[0], {
      kind: "begin",
      title: "RLM Plan: run.rlmplan.json",
      message: "starting",
      cancellable: true,
    });
    assert.ok(
      progress.some((v) => (v as { message?: string }).message === "tool(count_items) → count"),
      JSON.stringify(progress),
    );
    const logged = client.logMessages.filter((m) => m.message.startsWith("[rlm-plan] run.rlmplan.json"));
    assert.deepEqual(
      logged.map((m) => m.message.replace(/ \d+ ms$/, " N ms")),
      [
        "[rlm-plan] run.rlmplan.json #1 context(search) → hits ok N ms",
        "[rlm-plan] run.rlmplan.json #2 tool(count_items) → count ok N ms",
        "[rlm-plan] run.rlmplan.json #3 final ok N ms",
      ],
    );
    assert.equal(shown.length, 1);
    assert.equal(shown[0]?.type, MessageType.Info);
    assert.match(shown[0]?.message ?? "", /^RLM Plan: run\.rlmplan\.json returned 2 \(\d+\.\d s, 3 steps\)$/);
    await client.close(uri);
  });

  it("a failing plan is shown as an error message with its kind", async () => {
    const { client } = server;
    const { uri } = await server.open(
      "bad.rlmplan.json",
      '{"steps": [{"op": "tool", "name": "count_items", "args": 7, "bind": "n"}, {"op": "final", "value": {"ref": "var", "name": "n"}}]}',
    );
    shown.length = 0;
    const result = (await client.connection.sendRequest(ExecuteCommandRequest.type, {
      command: "rlmPlan.server.runInEditor",
      arguments: [{ uri }],
    })) as { ok: boolean; error: { kind: string } };
    assert.equal(result.ok, false);
    assert.equal(result.error.kind, "tool_error");
    assert.equal(shown[0]?.type, MessageType.Error);
    assert.match(shown[0]?.message ?? "", /^RLM Plan: bad\.rlmplan\.json failed: \[tool_error\] /);
    await client.close(uri);
  });

  it("each failed retry attempt is logged with its kind and reason", async () => {
    const { client } = server;
    const { uri } = await server.open(
      "retried.rlmplan.json",
      JSON.stringify({
        steps: [
          {
            op: "retry",
            attempts: 2,
            plan: {
              steps: [
                { op: "tool", name: "count_items", args: 7, bind: "n" },
                { op: "final", value: 1 },
              ],
            },
            bind: "r",
          },
          { op: "final", value: { ref: "var", name: "r" } },
        ],
      }),
    );
    const result = (await client.connection.sendRequest(ExecuteCommandRequest.type, {
      command: "rlmPlan.server.runInEditor",
      arguments: [{ uri }],
    })) as { ok: boolean; error: { message: string } };
    assert.equal(result.ok, false);
    const logged = client.logMessages.filter((m) => m.message.startsWith("[rlm-plan] retried.rlmplan.json"));
    assert.deepEqual(
      logged.map((m) => m.message),
      [
        `[rlm-plan] retried.rlmplan.json retry attempt 1/2 failed [execute/tool_error]: ${result.error.message}; retrying`,
        `[rlm-plan] retried.rlmplan.json retry attempt 2/2 failed [execute/tool_error]: ${result.error.message}; no attempts left`,
      ],
    );
    await client.close(uri);
  });
});

describe("a client that runs plans itself", () => {
  const server = useServer({ files: FILES, initializationOptions: { clientRunsPlans: true } });

  it("gets a lens naming its own command", async () => {
    const { uri } = await server.open("lens.rlmplan.json", PLAN);
    const lenses = (await server.client.connection.sendRequest(CodeLensRequest.type, { textDocument: { uri } })) ?? [];
    assert.deepEqual(lenses[0]?.command, {
      title: "▶ Run plan (steps 3/64 · tools 1/16 · context ops 1/32 · depth 1/4)",
      command: "rlmPlan.run",
      arguments: [uri],
    });
  });
});
