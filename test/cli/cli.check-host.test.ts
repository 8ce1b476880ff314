// `rlm-plan check` against a host profile: found by walking up from the plan, or named with
// --host; its capabilities, budget, tools and providers decide the host-dependent problems, which
// are errors there: `run` would refuse the plan.

import assert from "node:assert/strict";
import { test } from "node:test";
import { cliWorkspace, LEFT_TO_PREFLIGHT } from "../support/cliWorkspace";

const { write, check } = cliWorkspace("check-host");

const PLAN = `{
  "steps": [
    { "op": "tool", "name": "count_items", "args": [1, 2], "bind": "n" },
    { "op": "tool", "name": "ghost", "args": 1, "bind": "g" },
    { "op": "final", "value": { "ref": "var", "name": "n" } }
  ]
}
`;

write(
  "ws/rlmplan.host.json",
  JSON.stringify({
    capabilities: ["tool(count_items)"],
    budget: { max_tool_calls: 1 },
    tools: { count_items: { type: "builtin", builtin: "count_items" } },
  }),
);
write("ws/plans/deep/plan.rlmplan.json", PLAN);
write("bad/rlmplan.host.json", '{ "capabilities": "all" }');
write("bad/plan.rlmplan.json", PLAN);

test("the nearest host profile decides capabilities, registries and the budget (errors: run refuses them)", () => {
  const run = check("ws/plans/deep/plan.rlmplan.json");
  assert.equal(run.stderr, `rlm-plan: ${LEFT_TO_PREFLIGHT}\n`);
  assert.equal(
    run.stdout,
    [
      "ws/plans/deep/plan.rlmplan.json:1:1: error: worst case tool calls 2 exceeds the budget's max_tool_calls of 1 [budget_exceeded]",
      "ws/plans/deep/plan.rlmplan.json:4:29: error: this step needs the capability tool(ghost), which the host does not grant [capability_denied]",
      'ws/plans/deep/plan.rlmplan.json:4:29: error: the plan calls tool "ghost", which the host does not register [unknown_tool]',
      "ws/plans/deep/plan.rlmplan.json: 3 errors",
      "",
    ].join("\n"),
  );
  assert.equal(run.code, 1);
});

test("--capabilities and --budget override the profile's", () => {
  const run = check(
    "ws/plans/deep/plan.rlmplan.json",
    "--capabilities",
    "tool(count_items),tool(ghost)",
    "--budget",
    "default",
  );
  assert.equal(
    run.stdout,
    [
      'ws/plans/deep/plan.rlmplan.json:4:29: error: the plan calls tool "ghost", which the host does not register [unknown_tool]',
      "ws/plans/deep/plan.rlmplan.json: 1 error",
      "",
    ].join("\n"),
  );
});

test("an invalid host profile is reported where it is wrong, and fails the check", () => {
  const run = check("bad/plan.rlmplan.json");
  assert.match(run.stderr, /^bad\/rlmplan\.host\.json:1:19: error: /);
  assert.equal(run.stdout, "");
  assert.equal(run.code, 1);
});

test("--host names the profile to use instead of the nearest one", () => {
  const run = check("bad/plan.rlmplan.json", "--host", "ws/rlmplan.host.json");
  assert.equal(run.stderr, `rlm-plan: ${LEFT_TO_PREFLIGHT}\n`);
  assert.match(run.stdout, /bad\/plan\.rlmplan\.json: 3 errors\n$/);
  assert.equal(run.code, 1);
});

write(
  "named/cr.host.json",
  '{\n  "capabilities": ["tool(count_items)"],\n  "budget": { "max_tool_calls": -8 },\n  "tools": {}\n}\n',
);
write("named/ok.host.json", '{ "capabilities": [] }');
write("named/notes.json", '{ "title": "not a plan" }');

test("a host profile named otherwise is checked as a host profile, by what it holds (as --host takes any name)", () => {
  const run = check("named/cr.host.json", "named/ok.host.json");
  assert.equal(run.stderr, "");
  assert.equal(
    run.stdout,
    [
      "named/cr.host.json:3:33: error: /budget/max_tool_calls: max_tool_calls must be an integer of 0 or more, got the number -8 [invalid_host_profile]",
      "named/cr.host.json: 1 error",
      "named/ok.host.json: ok (host profile)",
      "",
    ].join("\n"),
  );
  assert.equal(run.code, 1);
  // Neither a plan nor a host profile: checked as a plan, as before.
  assert.match(check("named/notes.json").stdout, /^named\/notes\.json:1:1: error: .*missing.*steps/m);
});
