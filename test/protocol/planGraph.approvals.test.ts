// The graph view's request (rlmPlan/planGraph) through the real server over stdio carries the
// approval mark of each step the plan's host profile can hold, under the profile the editor uses
// for that plan: as it is edited, and none without rules. The marks' wording is the core's
// (test/cli/graph.approvals.test.ts); every field of them is in the plan-graph goldens.

import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { PlanGraphRequest } from "@rlm-plan/language-server/protocol";
import { hostProfile, LspClient, TempWorkspace } from "./support/lspClient";

const RULES = [
  { tool: "send", approvers: ["alice", "bob"], quorum: 2, timeout: 60 },
  { tool: "count_items", when: { pointer: "/0", equals: 5 }, approvers: ["carol"], timeout: 60 },
];
const HOST = {
  capabilities: ["tool(send)", "tool(count_items)", "retry"],
  tools: { send: { type: "builtin", builtin: "length" }, count_items: { type: "builtin", builtin: "count_items" } },
};
const PLAN = `{
  "steps": [
    { "op": "retry", "attempts": 4, "plan": { "steps": [
      { "op": "tool", "name": "send", "args": "hi", "bind": "s" },
      { "op": "final", "value": { "ref": "var", "name": "s" } }
    ] }, "bind": "tried" },
    { "op": "tool", "name": "count_items", "args": [{ "ref": "var", "name": "tried" }], "bind": "n" },
    { "op": "tool", "name": "count_items", "args": [1], "bind": "m" },
    { "op": "final", "value": { "ref": "var", "name": "n" } }
  ]
}
`;

describe("rlmPlan/planGraph: the approval marks, under the plan's host profile", () => {
  const workspace = new TempWorkspace({ "rlmplan.host.json": hostProfile({ ...HOST, approvals: RULES }) });
  let client: LspClient;
  let uri: string;

  const marks = async () => {
    const answer = await client.connection.sendRequest(PlanGraphRequest.type, { uri });
    return (answer?.graph.nodes ?? []).flatMap((node) =>
      node.kind === "step" && node.approval ? [[node.id, node.approval]] : [],
    );
  };

  before(async () => {
    client = await LspClient.start({ root: workspace.root });
    uri = await client.open(workspace.path("plan.rlmplan.json"), PLAN);
  });
  after(async () => {
    await client.stop();
    workspace.dispose();
  });

  it("marks each step a rule can hold, with its rule, approvers, quorum and worst case", async () => {
    assert.deepEqual(await marks(), [
      ["steps/0/plan/steps/0", { rule: 0, approvers: ["alice", "bob"], quorum: 2, worstCase: 4 }],
      [
        "steps/1",
        {
          rule: 1,
          approvers: ["carol"],
          quorum: 1,
          condition: "its arguments meet the rule's condition",
          worstCase: 1,
        },
      ],
    ]);
  });

  it("follows the profile as the editor changes it, and marks nothing without rules", async () => {
    const hostUri = await client.open(
      workspace.path("rlmplan.host.json"),
      hostProfile({ ...HOST, approvals: RULES }),
      "json",
    );
    await client.change(hostUri, hostProfile({ ...HOST, approvals: [{ ...RULES[0], quorum: 1 }] }));
    assert.deepEqual(await marks(), [
      ["steps/0/plan/steps/0", { rule: 0, approvers: ["alice", "bob"], quorum: 1, worstCase: 4 }],
    ]);
    await client.change(hostUri, hostProfile(HOST));
    assert.deepEqual(await marks(), []);
  });
});
