// Approval rules by cost (`cost_above`, docs/approvals.md) with real processes against the scripted
// chat server. Provider "a" costs 0.1 EUR a token with maxTokens 10, so a call's worst case is
// (prompt bytes + 8 + 10) * 0.1: "p1" may cost 2, "a longer prompt" 3.3. A rule holding calls
// above 2.5 lets the first call be made and holds the second before it is sent (the server sees
// one request); once approved, the run goes on and the server sees the second request once.
// `check` says the same before the run: only the dear step needs approval.

import assert from "node:assert/strict";
import { after, before, describe, test } from "node:test";
import { startChatServer, tenthPerTokenHost, type ChatServer } from "../support/chatServer";
import { cliWorkspace, jsonLines, runCliAsync, type CliWorkspace } from "../support/cliWorkspace";

const PLAN = {
  steps: [
    { op: "model", provider: "a", prompt: "p1", bind: "cheap" },
    { op: "model", provider: "a", prompt: "a longer prompt", bind: "dear" },
    { op: "final", value: { ref: "var", name: "dear" } },
  ],
};

let chat: ChatServer;
before(async () => {
  chat = await startChatServer();
});
after(() => chat.close());

function workspace(name: string): CliWorkspace {
  const ws = cliWorkspace(name);
  ws.write(
    "rlmplan.host.json",
    tenthPerTokenHost(chat.baseUrl, {
      approvals: [{ provider: "a", cost_above: 2.5, approvers: ["alice"], timeout: 600 }],
    }),
  );
  ws.write("plan.rlmplan.json", JSON.stringify(PLAN, null, 2));
  return ws;
}

describe("approvals by cost", () => {
  test("check names only the step whose worst case is above cost_above", () => {
    const checked = workspace("approvals-cost-check").check("plan.rlmplan.json");
    assert.equal(checked.code, 0, checked.stderr);
    assert.equal(
      checked.stdout,
      [
        "plan.rlmplan.json:9:5: model(a) at steps/1 needs approval (approval rule 0), at worst 1 time",
        "plan.rlmplan.json: at worst 1 approval (1 step can need approval)",
        "plan.rlmplan.json: ok (3 steps)",
        "",
      ].join("\n"),
    );
  });

  test("a run makes the cheap call, waits before the dear one, and makes it once approved", async () => {
    chat.reset();
    chat.script({ kind: "ok", text: "one" }, { kind: "ok", text: "two" });
    const ws = workspace("approvals-cost-run");
    const run = await runCliAsync(ws.dir, ["run", "--json", "--as", "carol", "plan.rlmplan.json"]);
    assert.equal(run.code, 3, run.stderr);
    const error = (jsonLines(run.stdout).pop() as Record<string, Record<string, unknown>>)["error"]!;
    assert.deepEqual([error["kind"], error["step"], error["capability"]], ["approval_pending", "steps/1", "model(a)"]);
    assert.deepEqual(
      chat.requests.map((r) => (r.body as { messages: { content: string }[] }).messages[0]?.content),
      ["p1"],
    );

    const approved = await runCliAsync(ws.dir, ["runs", "approve", "1", "--as", "alice", "--reason", "worth it"]);
    assert.equal(approved.code, 0, approved.stderr);
    assert.equal((JSON.parse(approved.stdout) as { text: string }).text, "two");
    assert.deepEqual(
      chat.requests.map((r) => (r.body as { messages: { content: string }[] }).messages[0]?.content),
      ["p1", "a longer prompt"],
    );
  });
});
