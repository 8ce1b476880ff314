// The baseline gate through the built CLI, every case answered by a cassette (no program, no
// provider): --bless writes NAME.rlmplan.baseline.json (its exact text for a small case);
// --baseline passes an unchanged run, fails a plan whose two tool steps were swapped (naming
// the first step that differs at its line in the plan, with runs diff's table), fails a changed
// value unless the case asserts it by contains, fails a cost
// beyond the test file's tolerance and passes one within; JUnit, GitHub and JSON carry the
// failure; a case with no baseline is told to bless; a failing case is not blessed; a hostile
// case name stays one escaped line.

import assert from "node:assert/strict";
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, test } from "node:test";
import { cliWorkspace, type CliWorkspace } from "../support/cliWorkspace";

const HOST = {
  capabilities: ["tool(first)", "tool(second)", "tool(fetch)", "retry"],
  tools: {
    first: { type: "command", command: ["node", "absent-first.js"] },
    second: { type: "command", command: ["node", "absent-second.js"] },
    fetch: { type: "command", command: ["node", "absent-fetch.js"] },
  },
};

const tool = (name: string, bind: string) => ({ op: "tool", name, args: { n: 1 }, bind });
const FINAL = { op: "final", value: { a: { ref: "var", name: "a" }, b: { ref: "var", name: "b" } } };

/** Two tool steps, then the final: each step on its own line, so a step's line is known. */
function twoTools(order: "first-second" | "second-first"): string {
  const [x, y] =
    order === "first-second" ? [tool("first", "a"), tool("second", "b")] : [tool("second", "b"), tool("first", "a")];
  return `{\n  "steps": [\n    ${JSON.stringify(x)},\n    ${JSON.stringify(y)},\n    ${JSON.stringify(FINAL)}\n  ]\n}\n`;
}

const RETRY_PLAN = JSON.stringify({
  steps: [
    {
      op: "retry",
      attempts: 3,
      plan: {
        steps: [
          { op: "tool", name: "fetch", args: { url: "u" }, bind: "p" },
          { op: "final", value: { ref: "var", name: "p" } },
        ],
      },
      bind: "page",
    },
    { op: "final", value: { ref: "var", name: "page" } },
  ],
});

const entry = (name: string, args: object, reply: object) => ({ request: { kind: "tool", tool: name, args }, reply });
const TOOLS_CASSETTE = JSON.stringify({
  version: 1,
  entries: [entry("first", { n: 1 }, { value: 1 }), entry("second", { n: 1 }, { value: 2 })],
});
/** The fetch fails `failures` times, then answers. */
const fetchCassette = (failures: number) =>
  JSON.stringify({
    version: 1,
    entries: [
      ...Array.from({ length: failures }, () => entry("fetch", { url: "u" }, { error: "timed out" })),
      entry("fetch", { url: "u" }, { value: "page" }),
    ],
  });

const testFile = (plan: string, cassette: string, name: string, extra: object = {}) =>
  JSON.stringify({
    plan,
    cassette,
    cases: [{ name, expect: { value: { equals: name === "retry" ? "page" : { a: 1, b: 2 } } } }],
    ...extra,
  });

function workspace(name: string): CliWorkspace {
  const ws = cliWorkspace(name);
  ws.write("rlmplan.host.json", JSON.stringify(HOST));
  return ws;
}

describe("rlm-plan test --bless and --baseline", () => {
  test("--bless writes the baseline beside the test file: exact, sorted, nothing of the machine or the time", () => {
    const ws = workspace("baseline-bless");
    ws.write("order.rlmplan.json", twoTools("first-second"));
    ws.write("order.cassette.json", TOOLS_CASSETTE);
    ws.write("order.rlmplan.test.json", testFile("order.rlmplan.json", "order.cassette.json", "both"));
    const blessed = ws.cli("test", "--bless", "--replay");
    assert.equal(blessed.code, 0, blessed.stdout + blessed.stderr);
    assert.match(blessed.stderr, /\nrlm-plan: blessed 1 case in order\.rlmplan\.baseline\.json\n/);
    const text = readFileSync(join(ws.dir, "order.rlmplan.baseline.json"), "utf8");
    const req = (name: string) =>
      JSON.parse(text).cases.both.steps.find((s: { operation: string }) => s.operation === `tool(${name})`)
        .requests[0] as string;
    const step = (path: string, name: string, bind: string, value: string, sha: string) => ({
      attempts: 1,
      bind,
      branches: null,
      calls: [{ count: 1, failed: 0, kind: "tool", model: null, name }],
      error: null,
      failed_attempts: 0,
      operation: `tool(${name})`,
      path,
      requests: [req(name)],
      status: "ok",
      value: { preview: value, sha256: sha },
    });
    const expected = {
      cases: {
        both: {
          capabilities: ["tool(first)", "tool(second)"],
          cost: { context_ops: 0, model_calls: 0, steps: 3, tool_calls: 2 },
          plan_sha256: JSON.parse(text).cases.both.plan_sha256,
          status: "ok",
          steps: [
            step("/steps/0", "first", "a", "1", "6b86b273ff34fce19d6b804eff5a3f5747ada4eaa22f1d49c01e52ddb7875b4b"),
            step("/steps/1", "second", "b", "2", "d4735e3a265e16eee03f59718b9b5d03019c07d8b6c51f90da3a666eec13ab35"),
            {
              attempts: 1,
              bind: null,
              branches: null,
              calls: [],
              error: null,
              failed_attempts: 0,
              operation: "final",
              path: "/steps/2",
              requests: [],
              status: "ok",
              value: {
                preview: '{"a":1,"b":2}',
                sha256: "43258cff783fe7036d8a43033f830adfc60ec037382473548ac742b888292777",
              },
            },
          ],
          value: { a: 1, b: 2 },
        },
      },
      type: "rlm-plan.baseline",
      version: 1,
    };
    assert.equal(text, `${JSON.stringify(expected, null, 2)}\n`);
    assert.match(req("first"), /^[0-9a-f]{64}$/);
    assert.notEqual(req("first"), req("second"));

    // Unchanged, from the cassette: passes.
    const again = ws.cli("test", "--baseline", "--replay");
    assert.equal(again.code, 0, again.stdout + again.stderr);
    assert.match(again.stdout, /^pass {2}order\.rlmplan\.test\.json#both /m);

    // Two tool steps swapped: the first step that differs, at its line in the plan, and the table.
    ws.write("order.rlmplan.json", twoTools("second-first"));
    const swapped = ws.cli("test", "--baseline", "--replay");
    assert.equal(swapped.code, 1, swapped.stdout + swapped.stderr);
    assert.match(
      swapped.stdout,
      /order\.rlmplan\.test\.json:1:\d+: baseline: the run differs from the blessed one: \/steps\/0 tool\(second\): operation, value, calls\n/,
    );
    assert.match(
      swapped.stdout,
      /\n {8}first divergence: order\.rlmplan\.json:3:5 \/steps\/0 tool\(second\): operation, value, calls\n/,
    );
    assert.match(swapped.stdout, /\n {8}STEP +OPERATION +CHANGE +WHAT +THE BASELINE +THIS RUN\n/);
    assert.match(
      swapped.stdout,
      /\n {8}\/steps\/0 +tool\(second\) +changed +operation +tool\(first\) -> a +tool\(second\) -> b\n/,
    );

    // The same failure in JUnit, GitHub and JSON.
    const junit = ws.cli("test", "--baseline", "--replay", "--format", "junit");
    assert.equal(junit.code, 1);
    assert.match(
      junit.stdout,
      /<failure message="baseline: the run differs from the blessed one: \/steps\/0 tool\(second\): operation, value, calls" type="baseline">/,
    );
    assert.match(
      junit.stdout,
      /first divergence: order\.rlmplan\.json:3:5 \/steps\/0 tool\(second\): operation, value, calls/,
    );
    const github = ws.cli("test", "--baseline", "--replay", "--format", "github");
    assert.equal(github.code, 1);
    const errors = github.stdout.split("\n").filter((line) => line.startsWith("::error "));
    assert.equal(errors.length, 2, github.stdout);
    assert.match(
      errors[0] ?? "",
      /^::error file=order\.rlmplan\.test\.json,line=1,col=\d+,title=rlm-plan test%3A order\.rlmplan\.test\.json#both::baseline: the run differs from the blessed one: \/steps\/0 tool\(second\): operation, value, calls%0Athe baseline/,
    );
    assert.equal(
      errors[1],
      "::error file=order.rlmplan.json,line=3,col=5,title=rlm-plan test --baseline%3A order.rlmplan.test.json#both::/steps/0 tool(second) differs from the baseline: operation, value, calls",
    );
    const json = ws.cli("test", "--baseline", "--replay", "--json");
    assert.equal(json.code, 1);
    const failure = JSON.parse(json.stdout).cases[0].failures[0];
    assert.equal(failure.assertion, "baseline");
    assert.equal(failure.diff.firstDivergence.pointer, "/steps/0");
    assert.deepEqual(failure.diff.firstDivergence.differs, ["operation", "value", "calls"]);
  });

  test("a cost beyond the test file's tolerance fails, naming the step; within it passes", () => {
    const ws = workspace("baseline-cost");
    ws.write("retry.rlmplan.json", RETRY_PLAN);
    ws.write("fetch.cassette.json", fetchCassette(1));
    const file = (tolerance: number) =>
      testFile("retry.rlmplan.json", "fetch.cassette.json", "retry", { baseline: { cost_tolerance: tolerance } });
    ws.write("retry.rlmplan.test.json", file(0.1));
    assert.equal(ws.cli("test", "--bless", "--replay").code, 0);
    // Two failures before the answer instead of one: tool calls 2 -> 3, steps 5 -> 6.
    ws.write("fetch.cassette.json", fetchCassette(2));
    const over = ws.cli("test", "--baseline", "--replay");
    assert.equal(over.code, 1, over.stdout + over.stderr);
    assert.match(
      over.stdout,
      /: baseline: the run differs from the blessed one: \/steps\/0\/plan\/steps\/0 tool\(fetch\): attempts, calls; cost beyond the tolerance of 0\.1: steps 5 -> 6, tool_calls 2 -> 3\n/,
    );
    ws.write("retry.rlmplan.test.json", file(0.5));
    const within = ws.cli("test", "--baseline", "--replay");
    assert.equal(within.code, 0, within.stdout + within.stderr);
  });

  test("a changed value fails a case that holds it exactly, not one that asserts it by contains", () => {
    const ws = workspace("baseline-value");
    ws.write("order.rlmplan.json", twoTools("first-second"));
    ws.write("order.cassette.json", TOOLS_CASSETTE);
    ws.write(
      "order.rlmplan.test.json",
      JSON.stringify({
        plan: "order.rlmplan.json",
        cassette: "order.cassette.json",
        cases: [{ name: "exact" }, { name: "loose", expect: { value: { contains: { a: 1 } } } }],
      }),
    );
    assert.equal(ws.cli("test", "--bless", "--replay").code, 0);
    ws.write(
      "order.cassette.json",
      JSON.stringify({
        version: 1,
        entries: [entry("first", { n: 1 }, { value: 1 }), entry("second", { n: 1 }, { value: 5 })],
      }),
    );
    const run = ws.cli("test", "--baseline", "--replay");
    assert.equal(run.code, 1, run.stdout + run.stderr);
    assert.match(
      run.stdout,
      /^FAIL {2}order\.rlmplan\.test\.json#exact .*\n.*: baseline: the run differs from the blessed one: \/steps\/1 tool\(second\): value; the final value changed\n/m,
    );
    assert.match(run.stdout, /^pass {2}order\.rlmplan\.test\.json#loose /m);
  });

  test("a case with no baseline fails under --baseline, told to bless; a bad baseline file is located; a hostile name stays one escaped line", () => {
    const ws = workspace("baseline-missing");
    ws.write("order.rlmplan.json", twoTools("first-second"));
    ws.write("order.cassette.json", TOOLS_CASSETTE);
    const hostile = "evil\n::error file=x::forged%0A\u001b[31m";
    ws.write("order.rlmplan.test.json", testFile("order.rlmplan.json", "order.cassette.json", "both"));
    const none = ws.cli("test", "--baseline", "--replay");
    assert.equal(none.code, 1);
    assert.match(
      none.stdout,
      /: baseline: there is no baseline file order\.rlmplan\.baseline\.json; run rlm-plan test --bless to record one\n/,
    );
    ws.write("order.rlmplan.baseline.json", '{"type":"rlm-plan.baseline","version":2,"cases":{}}');
    const bad = ws.cli("test", "--baseline", "--replay");
    assert.equal(bad.code, 1);
    assert.match(
      bad.stdout,
      /: baseline: order\.rlmplan\.baseline\.json:1:39: "version" must be 1, got the number 2\n/,
    );
    ws.write(
      "order.rlmplan.test.json",
      JSON.stringify({
        plan: "order.rlmplan.json",
        cassette: "order.cassette.json",
        cases: [{ name: "both" }, { name: hostile }],
      }),
    );
    assert.equal(ws.cli("test", "--bless", "--replay", "--filter", "#both").code, 0);
    const github = ws.cli("test", "--baseline", "--replay", "--format", "github");
    assert.equal(github.code, 1, github.stdout + github.stderr);
    const lines = github.stdout.split("\n");
    const errors = lines.filter((line) => line.startsWith("::"));
    assert.equal(errors.length, 1, github.stdout);
    assert.equal(
      errors[0],
      "::error file=order.rlmplan.test.json,line=1,col=88,title=rlm-plan test%3A order.rlmplan.test.json#evil%0A%3A%3Aerror file=x%3A%3Aforged%250A[31m::baseline: the case has no baseline in order.rlmplan.baseline.json; run rlm-plan test --bless to record one",
    );
    assert.ok(!github.stdout.includes("\u001b"), "no raw escape reaches the log");
  });

  test("--bless blesses no failing case, and says so", () => {
    const ws = workspace("baseline-failing");
    ws.write("order.rlmplan.json", twoTools("first-second"));
    ws.write("order.cassette.json", TOOLS_CASSETTE);
    ws.write(
      "order.rlmplan.test.json",
      JSON.stringify({
        plan: "order.rlmplan.json",
        cassette: "order.cassette.json",
        cases: [{ name: "wrong", expect: { value: { equals: 3 } } }],
      }),
    );
    const run = ws.cli("test", "--bless", "--replay");
    assert.equal(run.code, 1, run.stdout + run.stderr);
    assert.match(run.stderr, /\nrlm-plan: 1 failing case was not blessed: a baseline is a run that passes\n/);
    assert.ok(!existsSync(join(ws.dir, "order.rlmplan.baseline.json")), "no baseline file");
  });

  test("--bless and --baseline refuse what they cannot do", () => {
    const ws = workspace("baseline-usage");
    const both = ws.cli("test", "--bless", "--baseline");
    assert.equal(both.code, 2);
    assert.match(both.stderr, /--bless and --baseline cannot both be given/);
    const queued = ws.cli("test", "--bless", "--queue", "redis://127.0.0.1:1/q");
    assert.equal(queued.code, 2);
    assert.match(
      queued.stderr,
      /--bless reads each case's run from this machine's run journal: it cannot be given with --queue/,
    );
    const noJournal = ws.cli("test", "--baseline", "--no-journal");
    assert.equal(noJournal.code, 2);
    assert.match(
      noJournal.stderr,
      /--baseline reads each case's run from the run journal: it cannot be given with --no-journal/,
    );
  });
});
