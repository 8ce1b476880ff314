// Input references the host profile does not declare are host problems, found where a profile
// is known (check, the editor): one warning on each reference, nested plans and expressions
// included; without a profile, nothing is said.

import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, test } from "node:test";
import { analyzePlanText } from "@rlm-plan/core";
import { CLI } from "../support/cliWorkspace";

const PLAN = `{"steps": [
  {"op": "tool", "name": "t", "args": [{"ref": "input", "name": "ghost"}, {"ref": "input", "name": "doc"}], "bind": "a"},
  {"op": "rlm", "plan": {"steps": [{"op": "final", "value": {"ref": "field", "value": {"ref": "input", "name": "spook"}, "key": "k"}}]}, "bind": "b"},
  {"op": "final", "value": {"ref": "var", "name": "a"}}
]}`;

const REGISTRIES = { tools: new Set(["t"]), providers: new Set<string>(), inputs: new Set(["doc"]) };

test("each undeclared input reference is a host problem on the reference", () => {
  const analysis = analyzePlanText(PLAN, {
    capabilities: ["tool(t)", "rlm"],
    budget: "default",
    registries: REGISTRIES,
  });
  const found = analysis.problems.map((p) => ({
    kind: p.kind,
    host: p.hostDependent,
    message: p.message,
    text: PLAN.slice(p.range.offset, p.range.offset + p.range.length),
  }));
  assert.deepEqual(found, [
    {
      kind: "undeclared_input",
      host: true,
      message: 'the plan reads input "ghost", which the host profile does not declare under "inputs"',
      text: '"ghost"',
    },
    {
      kind: "undeclared_input",
      host: true,
      message: 'the plan reads input "spook", which the host profile does not declare under "inputs"',
      text: '"spook"',
    },
  ]);
});

test("without the host's inputs, input references are not judged", () => {
  const { inputs: _ignored, ...rest } = REGISTRIES;
  const analysis = analyzePlanText(PLAN, { capabilities: ["tool(t)", "rlm"], budget: "default", registries: rest });
  assert.deepEqual(analysis.problems, []);
});

const dir = mkdtempSync(join(tmpdir(), "rlm-plan-inputs-"));
after(() => rmSync(dir, { recursive: true, force: true }));

test("rlm-plan check warns on them when it finds a host profile", () => {
  writeFileSync(
    join(dir, "rlmplan.host.json"),
    JSON.stringify({
      capabilities: ["tool(t)", "rlm"],
      inputs: { doc: { type: "value", value: 1 } },
      tools: { t: { type: "builtin", builtin: "count_items" } },
    }),
  );
  writeFileSync(join(dir, "p.rlmplan.json"), PLAN);
  const run = spawnSync(process.execPath, [CLI, "check", "p.rlmplan.json"], { cwd: dir, encoding: "utf8" });
  assert.equal(
    run.stdout,
    [
      'p.rlmplan.json:2:65: warning: the plan reads input "ghost", which the host profile does not declare under "inputs" [undeclared_input]',
      'p.rlmplan.json:3:112: warning: the plan reads input "spook", which the host profile does not declare under "inputs" [undeclared_input]',
      "p.rlmplan.json: ok (4 steps), 2 warnings",
      "",
    ].join("\n"),
  );
  assert.equal(run.status, 0);
});
