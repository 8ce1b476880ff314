// The what-if lens and hover over stdio, on a git repository the test makes: at the top of a plan,
// the plan's change since HEAD (or the rlmPlan.whatIf.base setting) in check --against's words;
// the lens's command shows it set by set; a new commit is seen at once; outside a repository, and
// with the setting "", there is no what-if lens.

import assert from "node:assert/strict";
import { it } from "node:test";
import {
  CodeLensRequest,
  ExecuteCommandRequest,
  HoverRequest,
  ShowMessageNotification,
  type ShowMessageParams,
} from "vscode-languageserver-protocol/node";
import { hostProfile, withServer, type ServerSession } from "@rlm-plan/lsp-harness";
import { commitAll } from "../support/gitRepo";

const HOST = {
  capabilities: ["model(llm)", "retry", "tool(billing.refund)"],
  providers: { llm: { type: "openai-chat", baseUrl: "http://127.0.0.1:9/v1", model: "m", apiKeyEnv: "LLM_KEY" } },
  mcpServers: { billing: { command: "./no-such-server" } },
};
const model = (bind: string) => ({ op: "model", provider: "llm", prompt: "p", bind });
const final = (name: string) => ({ op: "final", value: { ref: "var", name } });
const planText = (...steps: unknown[]) => `${JSON.stringify({ steps }, null, 2)}\n`;
const BASE = planText(model("a"), model("b"), final("a"));
const HEAD = planText(
  { op: "retry", attempts: 3, plan: { steps: [model("a"), final("a")] }, bind: "r" },
  { op: "tool", name: "billing.refund", args: {}, bind: "t" },
  final("r"),
);
const SENTENCE =
  "this change adds retry, tool('billing.refund'), reaches MCP server billing and raises the worst case " +
  "from 2 to 3 model calls, from 0 to 1 tool calls, from 3 to 9 steps and depth from 1 to 2";

async function titles(server: ServerSession, uri: string): Promise<string[]> {
  const lenses = await server.client.connection.sendRequest(CodeLensRequest.type, { textDocument: { uri } });
  return (lenses ?? []).map((lens) => lens.command?.title ?? "");
}

async function hoverText(server: ServerSession, uri: string, line: number): Promise<string> {
  const answer = await server.client.connection.sendRequest(HoverRequest.type, {
    textDocument: { uri },
    position: { line, character: 0 },
  });
  const contents = answer?.contents;
  return contents && typeof contents === "object" && "value" in contents ? contents.value : "";
}

it("the lens and the first line's hover say what the change since HEAD does; the command shows it set by set", async () => {
  const messages: ShowMessageParams[] = [];
  await withServer(
    {
      files: { "rlmplan.host.json": hostProfile(HOST), "p.rlmplan.json": BASE },
      onConnection: (connection) =>
        connection.onNotification(ShowMessageNotification.method, (m: ShowMessageParams) => void messages.push(m)),
    },
    async (server) => {
      commitAll(server.workspace.root, "base");
      server.workspace.write("p.rlmplan.json", HEAD);
      const { uri } = await server.open("p.rlmplan.json", HEAD);
      assert.deepEqual(await titles(server, uri), [
        "▶ Run plan (steps 9/64 · models 3/8 · tools 1/16 · depth 2/4)",
        `Since HEAD: ${SENTENCE}`,
      ]);
      const hover = await hoverText(server, uri, 0);
      assert.match(hover, /\n\n---\n\n\*\*Since `HEAD`\*\*: this change adds retry/);
      assert.ok(
        hover.endsWith(
          [
            `**Since \`HEAD\`**: ${SENTENCE}.`,
            "",
            "- capabilities: +retry, +tool('billing.refund')",
            "- tools: +billing.refund",
            "- MCP servers: +billing",
            "- worst-case model calls: 2 → 3",
            "- worst-case tool calls: 0 → 1",
            "- worst-case steps: 3 → 9",
            "- worst-case depth: 1 → 2",
          ].join("\n"),
        ),
        hover,
      );
      assert.doesNotMatch(await hoverText(server, uri, 2), /Since/, "only the first line's hover compares");

      const shown = await server.client.connection.sendRequest(ExecuteCommandRequest.type, {
        command: "rlmPlan.server.showWhatIf",
        arguments: [uri],
      });
      assert.equal(shown, true);
      for (let i = 0; i < 200 && messages.length === 0; i++) await new Promise((resolve) => setTimeout(resolve, 25));
      assert.equal(
        messages[0]?.message,
        `Since HEAD: ${SENTENCE}; capabilities: +retry, +tool('billing.refund'); tools: +billing.refund; MCP servers: +billing; ` +
          "worst-case model calls: 2 → 3; worst-case tool calls: 0 → 1; worst-case steps: 3 → 9; worst-case depth: 1 → 2",
      );

      // Committed: the same plan is now HEAD's, seen at the next ask (the blob id changed).
      commitAll(server.workspace.root, "head");
      assert.deepEqual((await titles(server, uri)).slice(1), [
        "Since HEAD: this change changes no capability, tool or worst-case figure",
      ]);
    },
  );
});

it("a base ref from the setting, a plan new since it, and a ref that names nothing", async () => {
  await withServer(
    {
      files: { "rlmplan.host.json": hostProfile(HOST), "p.rlmplan.json": BASE },
      settings: { whatIf: { base: "HEAD~1" } },
    },
    async (server) => {
      commitAll(server.workspace.root, "one");
      commitAll(server.workspace.root, "two");
      const { uri } = await server.open("p.rlmplan.json", HEAD);
      assert.equal((await titles(server, uri))[1], `Since HEAD~1: ${SENTENCE}`);
      const fresh = await server.open("fresh.rlmplan.json", planText(model("a"), final("a")));
      assert.equal(
        (await titles(server, fresh.uri))[1],
        "Since HEAD~1: this new plan needs model(llm) and has a worst case of 1 model calls, 2 steps and depth 1",
      );
    },
  );
  await withServer(
    { files: { "p.rlmplan.json": BASE }, settings: { whatIf: { base: "no-such-branch" } } },
    async (server) => {
      commitAll(server.workspace.root, "one");
      const { uri } = await server.open("p.rlmplan.json", HEAD);
      assert.match((await titles(server, uri))[1] ?? "", /^Since no-such-branch: cannot compare: /);
    },
  );
});

it("no what-if lens outside a git repository, nor with the setting off", async () => {
  await withServer({ files: { "p.rlmplan.json": BASE } }, async (server) => {
    const { uri } = await server.open("p.rlmplan.json", HEAD);
    assert.equal((await titles(server, uri)).length, 1);
  });
  await withServer({ files: { "p.rlmplan.json": BASE }, settings: { whatIf: { base: "" } } }, async (server) => {
    commitAll(server.workspace.root, "one");
    const { uri } = await server.open("p.rlmplan.json", HEAD);
    assert.equal((await titles(server, uri)).length, 1);
  });
});
