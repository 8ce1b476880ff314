// `rlm-plan run --from RUN --step PATH`: a new run forked from a recorded one. A command tool
// appends a line to a marker file per call, so the calls each run made are counted: the steps
// before PATH make none, PATH and what follows run for real with the bindings --set gives. The
// fork's parent and step are recorded and shown by `runs list` and `runs show`; a failed run
// forked at its failing step with a fixed binding succeeds; a changed plan is refused unless
// --allow-changed, and then everything from the first step that no longer matches runs.

import assert from "node:assert/strict";
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, test } from "node:test";
import { cliWorkspace, type CliWorkspace } from "../support/cliWorkspace";

// Appends "LABEL NOTE" to the marker file; fails when its note says "bad"; answers its label and note.
const MARK_TOOL = `
let input = "";
process.stdin.on("data", (c) => (input += c));
process.stdin.on("end", () => {
  const args = JSON.parse(input);
  const note = args.note === undefined ? "" : " " + JSON.stringify(args.note);
  require("fs").appendFileSync(MARKS, args.label + note + "\\n");
  if (args.note && args.note.note === "bad") {
    process.stderr.write("the note says bad");
    process.exit(1);
  }
  process.stdout.write(JSON.stringify({ label: args.label, note: args.note === undefined ? null : args.note }));
});
`;

const ref = (name: string) => ({ ref: "var", name });

const FIVE_STEPS = {
  steps: [
    { op: "tool", name: "mark", args: { label: "one" }, bind: "a" },
    { op: "tool", name: "mark", args: { label: "two" }, bind: "b" },
    { op: "tool", name: "mark", args: { label: "three", note: ref("b") }, bind: "c" },
    { op: "tool", name: "mark", args: { label: "four", note: ref("c") }, bind: "d" },
    { op: "final", value: { a: ref("a"), b: ref("b"), c: ref("c"), d: ref("d") } },
  ],
};

const FAILING = {
  steps: [
    { op: "tool", name: "mark", args: { label: "cfg", note: "bad" }, bind: "cfg" },
    { op: "tool", name: "mark", args: { label: "use", note: ref("cfg") }, bind: "used" },
    { op: "final", value: ref("used") },
  ],
};

type Workspace = CliWorkspace & { marks(): string[] };

function workspace(name: string, plan: object): Workspace {
  const ws = cliWorkspace(name);
  const marks = join(ws.dir, "marks.txt");
  ws.write("mark.js", `const MARKS = ${JSON.stringify(marks)};\n${MARK_TOOL}`);
  ws.write(
    "rlmplan.host.json",
    JSON.stringify({
      capabilities: ["tool(mark)"],
      budget: { max_steps: 20, max_tool_calls: 9 },
      tools: { mark: { type: "command", command: [process.execPath, "mark.js"], writes: ["."], timeoutMs: 30000 } },
    }),
  );
  ws.write("plan.rlmplan.json", JSON.stringify(plan, null, 2));
  return {
    ...ws,
    marks: () => (existsSync(marks) ? readFileSync(marks, "utf8").trim().split("\n") : []),
  };
}

function result(stdout: string): Record<string, unknown> {
  return JSON.parse(stdout.trim().split("\n").pop() as string) as Record<string, unknown>;
}

describe("rlm-plan run --from RUN --step PATH", () => {
  test("a fork at step 3 of a finished 5-step run makes no call for steps 1-2 and runs 3-5 with the edited binding", () => {
    const ws = workspace("fork", FIVE_STEPS);
    const first = ws.cli("run", "--json", "plan.rlmplan.json");
    assert.equal(first.code, 0, first.stderr);
    assert.equal(ws.marks().length, 4);
    const parent = result(first.stdout);

    const forked = ws.cli(
      "run",
      "--from",
      "1",
      "--step",
      "steps/2",
      "--set",
      'b={"label":"TWO","note":null}',
      "--json",
    );
    assert.equal(forked.code, 0, forked.stderr);
    // Steps 1-2 answered from the journal; 3 and 4 called the tool again, 3 with the edited b.
    assert.deepEqual(ws.marks().slice(4), [
      'three {"label":"TWO","note":null}',
      'four {"label":"three","note":{"label":"TWO","note":null}}',
    ]);
    const got = result(forked.stdout);
    assert.equal(got["run"], 2);
    assert.deepEqual(got["value"], {
      a: { label: "one", note: null },
      b: { label: "TWO", note: null },
      c: { label: "three", note: { label: "TWO", note: null } },
      d: { label: "four", note: { label: "three", note: { label: "TWO", note: null } } },
    });
    // The budget is spent as it was: the two answered calls count as the parent's did.
    assert.deepEqual(got["budget_remaining"], parent["budget_remaining"]);

    // The same step as a JSON Pointer and as the journal's JSON array, with nothing set: the recorded value.
    const pointer = ws.cli("run", "--from", "1", "--step", "/steps/3", "--json");
    assert.equal(pointer.code, 0, pointer.stderr);
    assert.deepEqual(ws.marks().slice(6), ['four {"label":"three","note":{"label":"two","note":null}}']);
    assert.deepEqual(result(pointer.stdout)["value"], parent["value"]);
    const array = ws.cli("run", "--from", "2", "--step", '["steps",3]', "--json");
    assert.equal(array.code, 0, array.stderr);
    assert.equal(ws.marks().length, 8);

    // The tree: runs list shows each fork's parent and step, runs show the parent and the children.
    const listed = ws.cli("runs", "list");
    assert.equal(listed.code, 0, listed.stderr);
    const from = listed.stdout
      .trim()
      .split("\n")
      .slice(1)
      .map((line) => line.replace(/^\s*(\d+)\s.*\s(cli.*)$/, "$1 $2"));
    assert.deepEqual(from, [
      "4 cli, fork of 2 at steps/3",
      "3 cli, fork of 1 at steps/3",
      "2 cli, fork of 1 at steps/2",
      "1 cli",
    ]);
    const json = JSON.parse(ws.cli("runs", "list", "--json").stdout) as { id: number; forkOf: unknown }[];
    assert.deepEqual(
      json.map((r) => [r.id, r.forkOf]),
      [
        [4, { run: 2, step: "steps/3" }],
        [3, { run: 1, step: "steps/3" }],
        [2, { run: 1, step: "steps/2" }],
        [1, null],
      ],
    );
    const shownParent = ws.cli("runs", "show", "1").stdout;
    assert.match(shownParent, /\nforks {9}run 2 at steps\/2, run 3 at steps\/3\n/);
    assert.doesNotMatch(shownParent, /\nparent /);
    const shownFork = ws.cli("runs", "show", "2").stdout;
    assert.match(shownFork, /\nparent {8}fork of 1 at steps\/2\nforks {9}run 4 at steps\/3\n/);
    // Each transition names its step as --step takes it.
    assert.match(shownFork, /\n +3 +tool\(mark\) +-> c +ok +\d+ ms {2}steps\/2\n/);
  });

  test("a failed run forked at its failing step with a fixed binding succeeds", () => {
    const ws = workspace("fork-failed", FAILING);
    const first = ws.cli("run", "--json", "plan.rlmplan.json");
    assert.equal(first.code, 1, first.stderr);
    assert.equal((result(first.stdout)["error"] as { kind: string }).kind, "tool_error");
    assert.deepEqual(ws.marks(), ['cfg "bad"', 'use {"label":"cfg","note":"bad"}']);

    const fixed = ws.cli(
      "run",
      "--from",
      "1",
      "--step",
      "steps/1",
      "--set",
      'cfg={"label":"cfg","note":"good"}',
      "--json",
    );
    assert.equal(fixed.code, 0, fixed.stderr);
    // The first step answered from the journal; the failing one ran again with the fixed binding.
    assert.deepEqual(ws.marks().slice(2), ['use {"label":"cfg","note":"good"}']);
    assert.deepEqual(result(fixed.stdout)["value"], { label: "use", note: { label: "cfg", note: "good" } });
  });

  test("a changed plan is refused without --allow-changed; with it, the first step that no longer matches runs and all after it", () => {
    const ws = workspace("fork-changed", FIVE_STEPS);
    assert.equal(ws.cli("run", "plan.rlmplan.json").code, 0);
    assert.equal(ws.marks().length, 4);
    const changed = { steps: [{ ...FIVE_STEPS.steps[0], args: { label: "ONE" } }, ...FIVE_STEPS.steps.slice(1)] };
    ws.write("plan.rlmplan.json", JSON.stringify(changed, null, 2));

    const refused = ws.cli("run", "--from", "1", "--step", "steps/3");
    assert.equal(refused.code, 1);
    assert.match(
      refused.stderr,
      /\nrlm-plan: cannot fork run 1: the plan .*plan\.rlmplan\.json changed since run 1 \(recorded sha256 [0-9a-f]{12}, now [0-9a-f]{12}\): pass --allow-changed to fork it anyway \(steps matched by path\)\n$/,
    );
    assert.equal(ws.marks().length, 4);

    const allowed = ws.cli("run", "--from", "1", "--step", "steps/3", "--allow-changed", "--json");
    assert.equal(allowed.code, 0, allowed.stderr);
    // Step 1's request differs: it runs, and so does every step after it, though step 2's matches.
    assert.deepEqual(ws.marks().slice(4), [
      "ONE",
      "two",
      'three {"label":"two","note":null}',
      'four {"label":"three","note":{"label":"two","note":null}}',
    ]);
  });

  test("a --set of a binding not in scope at the step is a usage error naming those in scope", () => {
    const ws = workspace("fork-unknown", FIVE_STEPS);
    assert.equal(ws.cli("run", "plan.rlmplan.json").code, 0);
    const unknown = ws.cli("run", "--from", "1", "--step", "steps/2", "--set", "c=1");
    assert.equal(unknown.code, 2);
    assert.match(
      unknown.stderr,
      /\nrlm-plan: cannot fork run 1: no binding "c" is in scope at steps\/2 \(in scope: a, b\)\n$/,
    );
    const noStep = ws.cli("run", "--from", "1", "--step", "steps/9");
    assert.equal(noStep.code, 2);
    assert.match(noStep.stderr, /\nrlm-plan: cannot fork run 1: there is no step at steps\/9 in this plan\n$/);
    // A test case's run answered from its test's mocks: a fork would call the real tool.
    ws.write(
      "plan.rlmplan.test.json",
      JSON.stringify({
        plan: "plan.rlmplan.json",
        cases: [{ name: "marks", mocks: { tools: { mark: Array(4).fill({ value: { label: "m", note: null } }) } } }],
      }),
    );
    const tested = ws.cli("test", "plan.rlmplan.test.json");
    assert.equal(tested.code, 0, tested.stderr + tested.stdout);
    const testRun = ws.cli("run", "--from", "2", "--step", "steps/2");
    assert.equal(testRun.code, 1);
    assert.match(
      testRun.stderr,
      /\nrlm-plan: cannot fork run 2: run 2 is the run of the test case plan\.rlmplan\.test\.json#marks: run its test again with rlm-plan test\n$/,
    );
    const noFrom = ws.cli("run", "--step", "steps/2");
    assert.equal(noFrom.code, 2);
    assert.match(noFrom.stderr, /--step needs --from RUN \(the recorded run to fork\)/);
    assert.equal(ws.marks().length, 4);
  });
});
