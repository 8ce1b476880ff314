// One rule for a binding name (shared-runtime/src/plan/names.ts), kept by `check`, the editor and
// rename. The reference runtime accepts any text as a name, so the runtime's first-error
// validation (what `run` and hosts use, and the conformance vectors score) still accepts them.

import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, test } from "node:test";
import { bindingNameProblem, isValidBindingName } from "@rlm-plan/core/plan/names";
import { parsePlan } from "@rlm-plan/core/plan/parse";
import type { Plan } from "@rlm-plan/core/plan/ast";
import { validatePlan } from "@rlm-plan/core/plan/validate";
import { CLI, ROOT } from "../support/cliWorkspace";

const VALID = ["a", "_x", "hits", "v10", "a.b-c_d", "A9", "x".repeat(200)];
const INVALID: [string, string][] = [
  [
    "has space",
    '"has space" is not a valid binding name: use letters, digits, "_", "-" and ".", starting with a letter or "_"',
  ],
  ["", "a binding name cannot be empty"],
  [
    "9lives",
    '"9lives" is not a valid binding name: use letters, digits, "_", "-" and ".", starting with a letter or "_"',
  ],
  ["-x", '"-x" is not a valid binding name: use letters, digits, "_", "-" and ".", starting with a letter or "_"'],
  ["x".repeat(201), "a binding name can be at most 200 characters long"],
];

for (const name of VALID) {
  test(`${JSON.stringify(name.slice(0, 12))} is a valid binding name`, () => {
    assert.equal(bindingNameProblem(name), undefined);
    assert.equal(isValidBindingName(name), true);
  });
}

for (const [name, message] of INVALID) {
  test(`${JSON.stringify(name.slice(0, 12))} is not a valid binding name`, () => {
    assert.equal(bindingNameProblem(name), message);
    assert.equal(isValidBindingName(name), false);
  });
}

const planWith = (bind: string): unknown => ({
  steps: [
    { op: "tool", name: "echo", args: 1, bind },
    { op: "final", value: { ref: "var", name: bind } },
  ],
});

function planOf(value: unknown): Plan {
  const parsed = parsePlan({ kind: "value", value });
  assert.deepEqual(parsed.problems, []);
  return parsed.plan as Plan;
}

for (const [name] of INVALID.slice(0, 3)) {
  test(`collect-all validation reports ${JSON.stringify(name)} at its "bind"; first-error validation accepts it like the reference`, () => {
    const plan = planOf(planWith(name));
    const editor = validatePlan(plan, { collectAll: true });
    assert.deepEqual(
      editor.problems.map((p) => [p.reason, p.detail, p.path]),
      [["invalid_binding_name", `invalid_binding_name(${JSON.stringify(name)})`, ["steps", 0, "bind"]]],
    );
    assert.equal(validatePlan(plan).ok, true);
  });
}

const dir = mkdtempSync(join(tmpdir(), "rlm-plan-names-"));
after(() => rmSync(dir, { recursive: true, force: true }));

test('`rlm-plan check` refuses "has space", "" and "9lives" with located errors', () => {
  const lines: string[] = [];
  const files = INVALID.slice(0, 3).map(([name], i) => {
    const file = join(dir, `bad${i}.rlmplan.json`);
    writeFileSync(file, JSON.stringify(planWith(name)));
    return file;
  });
  const run = spawnSync(process.execPath, [CLI, "check", "--capabilities", "tool(echo)", ...files], {
    cwd: ROOT,
    encoding: "utf8",
    env: { ...process.env, NO_COLOR: "1" },
  });
  for (const [i, file] of files.entries()) {
    const [name, message] = INVALID[i] as [string, string];
    const column = JSON.stringify(planWith(name)).indexOf(`"bind":${JSON.stringify(name)}`) + 8;
    lines.push(`${file}:1:${column}: error: ${message} [invalid_binding_name]`, `${file}: 1 error`);
  }
  assert.deepEqual(run.stdout.split("\n"), [...lines, ""]);
  assert.equal(run.status, 1);
});
