// Approvals through the language server (what the editor's "Approve…" sends): a CLI run waits before
// the call a rule holds (the marker tool has not run); rlmPlan/journalRun lists the pending request
// (step, call, masked arguments, hash, rule, no votes); a vote by someone who is not an approver is
// refused with the core's message and records nothing; an approver's vote resumes the run in the
// server, the tool runs once, and the run's request then shows approved with the vote.

import assert from "node:assert/strict";
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, it } from "node:test";
import { ExecuteCommandRequest } from "vscode-languageserver-protocol/node";
import { useServer } from "@rlm-plan/lsp-harness/suite";
import { runCli } from "../support/cliWorkspace";

const PLAN = JSON.stringify({
  steps: [
    { op: "tool", name: "send", args: { to: "ada@example.com" }, bind: "r" },
    { op: "final", value: { ref: "var", name: "r" } },
  ],
});

const HOST = JSON.stringify({
  capabilities: ["tool(send)"],
  tools: { send: { type: "command", command: [process.execPath, "mark.js"], writes: ["."] } },
  approvals: [{ tool: "send", approvers: ["alice", "bob"], timeout: 600 }],
});

interface Request {
  request: number;
  step: string;
  call: string;
  arguments: string;
  hash: string;
  rule: number;
  approvers: string[];
  quorum: number;
  deadline: number;
  state: string;
  votes: { approver: string; decision: string; reason: string; at: number }[];
}

describe("approvals through the server", () => {
  const finished = new Map<string, { ok: boolean }>();
  const server = useServer({
    files: { "rlmplan.host.json": HOST, "send.rlmplan.json": PLAN },
    onConnection: (connection) => {
      connection.onNotification("rlmPlan/runFinished", (params: { runId: string; result: { ok: boolean } }) => {
        finished.set(params.runId, params.result);
      });
    },
  });
  const { workspace } = server;
  const execute = (command: string, args: unknown[]) =>
    server.client.connection.sendRequest(ExecuteCommandRequest.type, { command, arguments: args });
  const journalRun = async () =>
    (await server.client.connection.sendRequest("rlmPlan/journalRun", {
      dir: join(workspace.root, ".rlm-plan"),
      id: 1,
    })) as { status: string; approvals: Request[] };

  it("lists the pending request, refuses a non-approver, resumes on approval and the tool runs once", async () => {
    const marks = join(workspace.root, "marks.txt");
    const read = () => (existsSync(marks) ? readFileSync(marks, "utf8") : "");
    writeFileSync(
      join(workspace.root, "mark.js"),
      `let i = ""; process.stdin.on("data", (c) => (i += c)); process.stdin.on("end", () => {
        require("fs").appendFileSync(${JSON.stringify(marks)}, "sent\\n");
        process.stdout.write(JSON.stringify({ sent: true }));
      });`,
    );
    const run = runCli(workspace.root, ["run", "send.rlmplan.json", "--as", "carol"]);
    assert.equal(run.code, 3, run.stderr);
    assert.equal(read(), "", "the held tool has not run");

    const waiting = await journalRun();
    assert.equal(waiting.status, "waiting");
    assert.equal(waiting.approvals.length, 1);
    const [pending] = waiting.approvals as [Request];
    assert.match(pending.hash, /^[0-9a-f]{64}$/);
    assert.equal(typeof pending.deadline, "number");
    assert.deepEqual(
      { ...pending, hash: "H", deadline: 0 },
      {
        request: 1,
        step: "steps/0",
        call: "tool(send)",
        arguments: pending.arguments,
        hash: "H",
        rule: 0,
        approvers: ["alice", "bob"],
        quorum: 1,
        deadline: 0,
        state: "pending",
        votes: [],
      },
    );
    assert.match(pending.arguments, /ada@example\.com/);

    const dir = join(workspace.root, ".rlm-plan");
    const refused = await execute("rlmPlan.server.voteApproval", [
      { dir, id: 1, vote: "approve", as: "mallory", reason: "looks fine" },
    ]).then(
      () => "voted",
      (error: Error) => error.message,
    );
    assert.equal(refused, 'Cannot approve: "mallory" is not an approver of this step (approvers: alice, bob)');
    assert.deepEqual((await journalRun()).approvals[0]!.votes, [], "a refused vote records nothing");

    const voted = (await execute("rlmPlan.server.voteApproval", [
      { dir, id: 1, step: "steps/0", vote: "approve", as: "alice", reason: "checked the address" },
    ])) as { step: string; call: string; hash: string; state: string; next: string; resumed: { runId: string } };
    assert.deepEqual(
      { ...voted, resumed: typeof voted.resumed.runId },
      { step: "steps/0", call: "tool(send)", hash: pending.hash, state: "approved", next: "resume", resumed: "string" },
    );
    while (!finished.has(voted.resumed.runId)) await new Promise((resolve) => setTimeout(resolve, 20));
    assert.deepEqual(finished.get(voted.resumed.runId)?.ok, true);
    assert.equal(read(), "sent\n", "the tool ran once");

    const after = await journalRun();
    assert.equal(after.status, "ok");
    assert.deepEqual(
      after.approvals.map((r) => ({ state: r.state, votes: r.votes.map(({ at, ...v }) => ({ ...v, at: typeof at })) })),
      [
        {
          state: "approved",
          votes: [{ approver: "alice", decision: "approve", reason: "checked the address", at: "number" }],
        },
      ],
    );
  });
});
