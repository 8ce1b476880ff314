// The assertion engine through the real CLI on real files (test/fixtures/plan-tests): every
// assertion kind passing and failing, each failure with its exact message at the case's
// file:line:col (a dataset's case at its line of the JSONL file), repeats and inputs.

import assert from "node:assert/strict";
import { join } from "node:path";
import { describe, test } from "node:test";
import { DEFAULT_BUDGET } from "@rlm-plan/core/plan/budget";
import { checkExpectations } from "@rlm-plan/core/testing/assertions";
import { ROOT, runCli } from "../support/cliWorkspace";

const FIXTURES = join(ROOT, "test", "fixtures", "plan-tests");
const FILE = "tests/label.rlmplan.test.json";

interface Reported {
  id: string;
  ok: boolean;
  location: { file: string; line: number; column: number };
  failures: { assertion: string; message: string; expected?: unknown; actual?: unknown }[];
}

describe("rlm-plan test: assertions", () => {
  const run = runCli(FIXTURES, ["test", "tests", "--json", "--jobs", "1"]);
  const report = JSON.parse(run.stdout) as { cases: Reported[]; summary: Record<string, number> };
  const byName = new Map(report.cases.map((c) => [c.id.slice(FILE.length + 1), c]));
  const failures = (name: string) => {
    const c = byName.get(name);
    assert.ok(c, `no case ${name}`);
    return c.failures.map((f) => `${c.location.file}:${c.location.line}:${c.location.column}: ${f.message}`);
  };

  test("exit 1 with the summary of 22 case runs (18 cases, one repeated twice, three dataset rows)", () => {
    assert.equal(run.code, 1, run.stderr);
    assert.deepEqual({ ...report.summary, duration_ms: 0 }, { total: 22, passed: 11, failed: 11, duration_ms: 0 });
  });

  test("passing cases of every kind have no failure", () => {
    for (const name of [
      "equals passes",
      "contains passes",
      "schema passes",
      "error passes",
      "steps pass",
      "costs pass",
      "inputs",
      "repeated [1/2]",
      "repeated [2/2]",
      "rows:1",
      "rows:4",
    ])
      assert.deepEqual(failures(name), [], name);
  });

  test("value: equals, contains, schema, and a run that failed", () => {
    assert.deepEqual(failures("equals fails"), [
      `${FILE}:11:5: value: expected {"title":"X","label":"news"}, got {"label":"news","title":"T"}`,
    ]);
    assert.deepEqual(failures("contains fails"), [
      `${FILE}:13:5: value: expected a value containing {"label":"sport"}, got {"label":"news","title":"T"}`,
    ]);
    assert.deepEqual(failures("schema fails"), [
      `${FILE}:15:5: value: expected a value the schema {"type":"object","properties":{"label":{"enum":["shop"]}}} accepts, got {"label":"news","title":"T"}: /label must be equal to one of the allowed values`,
    ]);
    assert.deepEqual(failures("value expected, run fails"), [
      `${FILE}:22:5: value: the run failed: tool "fetch" failed: site down [execute/tool_error]`,
    ]);
    const equals = byName.get("equals fails")?.failures[0];
    assert.deepEqual(
      [equals?.expected, equals?.actual],
      [
        { title: "X", label: "news" },
        { label: "news", title: "T" },
      ],
    );
  });

  test("error: kind, phase, step, message; a run that succeeded; a failure nobody expected", () => {
    assert.deepEqual(failures("error fails"), [
      `${FILE}:18:5: error: expected kind "model_error", got "tool_error"`,
      `${FILE}:18:5: error: expected phase "validate", got "execute"`,
      `${FILE}:18:5: error: expected the failing step /steps/1, got /steps/0`,
      `${FILE}:18:5: error: expected a message containing "timeout", got "tool \\"fetch\\" failed: site down"`,
    ]);
    assert.deepEqual(failures("error expected, run succeeds"), [
      `${FILE}:20:5: error: expected the run to fail, it succeeded with {"label":"news","title":"T"}`,
    ]);
    assert.deepEqual(failures("no expectations, run fails"), [
      `${FILE}:21:5: the run failed: tool "fetch" failed: site down [execute/tool_error]`,
    ]);
  });

  test("steps: transitions, completion order, ran, never ran", () => {
    assert.deepEqual(failures("steps fail"), [
      `${FILE}:24:5: steps: expected the transitions ["tool(fetch)","final"], got ["tool(fetch)","model(llm)","final"]`,
      `${FILE}:24:5: steps: expected the steps to complete in the order ["/steps/1","/steps/0","/steps/2"], got ["/steps/0","/steps/1","/steps/2"]`,
      `${FILE}:24:5: steps: step /steps/1 ran (expected it never to run)`,
    ]);
    assert.deepEqual(failures("step never ran fails"), [`${FILE}:25:5: steps: step /steps/1 never ran`]);
  });

  test("costs: model calls, tool calls, steps, output bytes", () => {
    assert.deepEqual(failures("costs fail"), [
      `${FILE}:28:5: costs: 1 model call spent, at most 0 allowed`,
      `${FILE}:28:5: costs: 1 tool call spent, at most 0 allowed`,
      `${FILE}:28:5: costs: 3 steps spent, at most 2 allowed`,
      `${FILE}:28:5: costs: 47 output bytes spent, at most 10 allowed`,
    ]);
  });

  test("a dataset's case fails at its line of the JSONL file (blank lines skipped)", () => {
    assert.deepEqual(failures("rows:2"), [
      `tests/rows.jsonl:2:1: value: expected a value containing {"title":"T"}, got {"label":"news","title":"B"}`,
    ]);
    assert.deepEqual(
      report.cases.filter((c) => c.id.includes("#rows:")).map((c) => c.id),
      [`${FILE}#rows:1`, `${FILE}#rows:2`, `${FILE}#rows:4`],
    );
  });

  // A run cannot spend more than its plan's static worst case (the runtime's budget rule), so
  // this failure is shown on the engine itself with an estimate smaller than what was spent.
  test("costs: spent over the plan's worst case", () => {
    const zero = { steps: 0, depth: 1, parallel_width: 0, model_calls: 0, tool_calls: 0, context_ops: 0 };
    const failures = checkExpectations(
      { costs: { withinEstimate: true } },
      {
        outcome: {
          ok: true,
          value: null,
          vars: Object.create(null),
          transitions: [],
          checkpoints: [],
          budget_remaining: { steps: 60, model_calls: 6, tool_calls: 16, context_ops: 32, output_bytes: 65532 },
        },
        budget: DEFAULT_BUDGET,
        completed: [],
        started: new Set(),
        estimate: { ...zero, steps: 3, model_calls: 1 },
      },
    );
    assert.deepEqual(
      failures.map((f) => f.message),
      [
        "costs: 4 steps spent, over the plan's worst case of 3",
        "costs: 2 model calls spent, over the plan's worst case of 1",
      ],
    );
  });
});
