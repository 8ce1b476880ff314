// Approvals before the run (docs/approvals.md), as `check`, `check --format github` and
// `estimate` print them: each step that can need approval under the host profile at its place,
// and the worst-case count (a retry multiplies it), exactly; a profile without rules says nothing.

import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { cliWorkspace } from "../support/cliWorkspace";

const PLAN = `{
  "steps": [
    { "op": "tool", "name": "send", "args": { "to": "ada" }, "bind": "first" },
    {
      "op": "retry",
      "attempts": 3,
      "plan": { "steps": [{ "op": "tool", "name": "send", "args": { "to": "bob" }, "bind": "r" }, { "op": "final", "value": 1 }] },
      "bind": "again"
    },
    { "op": "final", "value": 1 }
  ]
}
`;

function workspace(approvals: unknown[]) {
  const ws = cliWorkspace("approvals-check");
  ws.write(
    "rlmplan.host.json",
    JSON.stringify({
      capabilities: ["tool(send)", "retry"],
      tools: { send: { type: "builtin", builtin: "length" } },
      approvals,
    }),
  );
  ws.write("plan.rlmplan.json", PLAN);
  return ws;
}

const RULE = { tool: "send", approvers: ["alice"], timeout: 60 };

describe("approvals before the run", () => {
  test("check lists the steps and the worst case; --format github as notices", () => {
    const ws = workspace([RULE]);
    const text = ws.check("plan.rlmplan.json");
    assert.equal(text.code, 0, text.stderr);
    assert.equal(
      text.stdout,
      [
        "plan.rlmplan.json:3:5: tool(send) at steps/0 needs approval (approval rule 0), at worst 1 time",
        "plan.rlmplan.json:7:27: tool(send) at steps/1/plan/steps/0 needs approval (approval rule 0), at worst 3 times",
        "plan.rlmplan.json: at worst 4 approvals (2 steps can need approval)",
        "plan.rlmplan.json: ok (5 steps)",
        "",
      ].join("\n"),
    );
    const github = ws.check("--format", "github", "plan.rlmplan.json").stdout.split("\n");
    assert.deepEqual(
      github.filter((line) => line.includes("approval")),
      [
        "::notice file=plan.rlmplan.json,line=3,col=5,title=rlm-plan approval::tool(send) at steps/0 needs approval (approval rule 0), at worst 1 time",
        "::notice file=plan.rlmplan.json,line=7,col=27,title=rlm-plan approval::tool(send) at steps/1/plan/steps/0 needs approval (approval rule 0), at worst 3 times",
        "::notice file=plan.rlmplan.json,title=rlm-plan approval::at worst 4 approvals (2 steps can need approval)",
      ],
    );
  });

  test("check --format json carries them in the plan's entry", () => {
    const json = JSON.parse(workspace([RULE]).check("--format", "json", "plan.rlmplan.json").stdout) as {
      files: Record<string, unknown>[];
    };
    assert.deepEqual(json.files[0]?.["approvals"], {
      worstCase: 4,
      steps: [
        { step: "steps/0", capability: "tool(send)", rule: 0, conditional: false, worstCase: 1 },
        { step: "steps/1/plan/steps/0", capability: "tool(send)", rule: 0, conditional: false, worstCase: 3 },
      ],
    });
  });

  test("estimate prints them after the budget table, and --json carries them", () => {
    const ws = workspace([{ ...RULE, when: { pointer: "/to", equals: "bob" } }]);
    const text = ws.cli("estimate", "plan.rlmplan.json");
    assert.equal(text.code, 0, text.stderr);
    assert.deepEqual(text.stdout.trimEnd().split("\n").slice(-2), [
      "plan.rlmplan.json:7:27: tool(send) at steps/1/plan/steps/0 needs approval (approval rule 0), at worst 3 times",
      "plan.rlmplan.json: at worst 3 approvals (1 step can need approval)",
    ]);
    const json = JSON.parse(ws.cli("estimate", "plan.rlmplan.json", "--json").stdout) as Record<string, unknown>;
    assert.deepEqual(json["approvals"], {
      worstCase: 3,
      steps: [{ step: "steps/1/plan/steps/0", capability: "tool(send)", rule: 0, conditional: false, worstCase: 3 }],
    });
  });

  test("a profile without approval rules adds nothing", () => {
    const ws = workspace([]);
    assert.equal(ws.check("plan.rlmplan.json").stdout, "plan.rlmplan.json: ok (5 steps)\n");
    assert.equal("approvals" in JSON.parse(ws.cli("estimate", "plan.rlmplan.json", "--json").stdout), false);
  });
});
