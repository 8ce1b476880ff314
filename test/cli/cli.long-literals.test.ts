// A literal list of 130,000 items (a 260 KB plan) under a host profile, through the built CLI:
// `check`, `estimate` and `graph` failed with "Maximum call stack size exceeded" (exit 2), from a
// spread of the list's items onto the call stack. Each now answers, and `check` still finds what
// sits after the list.

import assert from "node:assert/strict";
import { test } from "node:test";
import { cliWorkspace } from "../support/cliWorkspace";

const { write, cli, check } = cliWorkspace("long-literals");
write(
  "rlmplan.host.json",
  JSON.stringify({
    capabilities: ["tool(count_items)"],
    tools: { count_items: { type: "builtin", builtin: "count_items" } },
  }),
);
const items = `[${"1,".repeat(130_000)}1]`;
write("list.rlmplan.json", `{"steps":[{"op":"final","value":${items}}]}`);
const ARGS = `{"steps":[{"op":"tool","name":"count_items","args":${items},"bind":"n"},{"op":"final","value":[${"1,".repeat(130_000)}{"ref":"input","name":"ghost"}]}]}`;
write("args.rlmplan.json", ARGS);

test("check, estimate and graph answer on a 130,000-item literal list", () => {
  const checked = check("list.rlmplan.json", "args.rlmplan.json");
  assert.equal(
    checked.stderr,
    "rlm-plan: static check, no program started; left to --preflight: MCP tool lists and argument schemas, programs, provider keys, input files\n",
  );
  assert.equal(checked.code, 0);
  assert.deepEqual(checked.stdout.split("\n"), [
    "list.rlmplan.json: ok (1 step)",
    `args.rlmplan.json:1:${ARGS.indexOf('"ghost"') + 1}: warning: the plan reads input "ghost", which the host profile does not declare under "inputs" [undeclared_input]`,
    "args.rlmplan.json: ok (2 steps), 1 warning",
    "",
  ]);
  const estimated = cli("estimate", "list.rlmplan.json");
  assert.equal(estimated.code, 0, estimated.stderr);
  assert.match(estimated.stdout, /list\.rlmplan\.json: within budget\n$/);
  const graph = cli("graph", "args.rlmplan.json", "--format", "dot");
  assert.equal(graph.code, 0, graph.stderr);
  assert.match(graph.stdout, /^digraph /);
});
