// `rlm-plan run PLAN --step PATH --bindings JSON`: one step of a plan run alone, with the
// bindings it reads given. A command tool appends a line to a marker file per call, so the
// calls the step made are counted: a tool step makes exactly one, a sub-plan step its own and
// no other step's. Missing and unknown names are usage errors naming what is in scope, the
// host profile's budget holds, and the run is journaled with origin `step`.

import assert from "node:assert/strict";
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, test } from "node:test";
import { cliWorkspace, type CliWorkspace } from "../support/cliWorkspace";

// Appends "LABEL NOTE" to the marker file; answers its label and note.
const MARK_TOOL = `
let input = "";
process.stdin.on("data", (c) => (input += c));
process.stdin.on("end", () => {
  const args = JSON.parse(input);
  const note = args.note === undefined ? "" : " " + JSON.stringify(args.note);
  require("fs").appendFileSync(MARKS, args.label + note + "\\n");
  process.stdout.write(JSON.stringify({ label: args.label, note: args.note === undefined ? null : args.note }));
});
`;

const ref = (name: string) => ({ ref: "var", name });

const PLAN = {
  steps: [
    { op: "tool", name: "mark", args: { label: "one" }, bind: "a" },
    { op: "tool", name: "mark", args: { label: "two", note: ref("a") }, bind: "b" },
    {
      op: "rlm",
      plan: {
        steps: [
          { op: "tool", name: "mark", args: { label: "inner", note: ref("b") }, bind: "c" },
          { op: "tool", name: "mark", args: { label: "inner2", note: ref("a") }, bind: "d" },
          { op: "final", value: { c: ref("c"), d: ref("d") } },
        ],
      },
      bind: "sub",
    },
    { op: "final", value: ref("sub") },
  ],
};

type Workspace = CliWorkspace & { marks(): string[] };

function workspace(name: string, budget: object = {}): Workspace {
  const ws = cliWorkspace(name);
  const marks = join(ws.dir, "marks.txt");
  ws.write("mark.js", `const MARKS = ${JSON.stringify(marks)};\n${MARK_TOOL}`);
  ws.write(
    "rlmplan.host.json",
    JSON.stringify({
      capabilities: ["tool(mark)", "rlm"],
      budget: { max_steps: 20, max_tool_calls: 9, ...budget },
      tools: { mark: { type: "command", command: [process.execPath, "mark.js"], writes: ["."], timeoutMs: 30000 } },
    }),
  );
  ws.write("plan.rlmplan.json", JSON.stringify(PLAN, null, 2));
  return { ...ws, marks: () => (existsSync(marks) ? readFileSync(marks, "utf8").trim().split("\n") : []) };
}

function result(stdout: string): Record<string, unknown> {
  return JSON.parse(stdout.trim().split("\n").pop() as string) as Record<string, unknown>;
}

describe("rlm-plan run PLAN --step PATH --bindings JSON", () => {
  test("a tool step runs alone with the bindings given: exactly one call, its value printed, journaled as origin step", () => {
    const ws = workspace("step-tool");
    const ran = ws.cli("run", "plan.rlmplan.json", "--step", "steps/1", "--bindings", '{"a":{"label":"A"}}');
    assert.equal(ran.code, 0, ran.stderr);
    assert.deepEqual(ws.marks(), ['two {"label":"A"}']);
    assert.deepEqual(JSON.parse(ran.stdout), { label: "two", note: { label: "A" } });
    const lines = ran.stderr.trim().split("\n");
    assert.match(lines[1] as string, /^ {2}1 {2}tool\(mark\) {2}-> b {4}ok +\d+ ms$/);
    assert.equal(lines[2], "rlm-plan: ok: 1 step, 0 context ops, 1 tool call, 0 model calls, 36 output bytes");
    assert.equal(lines[3], "rlm-plan: recorded as run 1 in .rlm-plan (rlm-plan runs show 1)");

    // The journal lists it as a step run, by its path; --origin step finds it.
    const listed = ws.cli("runs", "list", "--origin", "step", "--json");
    assert.equal(listed.code, 0, listed.stderr);
    const runs = JSON.parse(listed.stdout) as { id: number; origin: string; label: string; status: string }[];
    assert.deepEqual(
      runs.map((r) => [r.id, r.origin, r.label, r.status]),
      [[1, "step", "steps/1", "ok"]],
    );
    assert.match(ws.cli("runs", "list").stdout, /\sstep steps\/1\n$/);

    // Forked or resumed as a run of the plan it would run the whole plan: refused, saying how to run it again.
    const forked = ws.cli("run", "--from", "1", "--step", "steps/1");
    assert.equal(forked.code, 1);
    assert.equal(
      forked.stderr,
      "rlm-plan: cannot fork: run 1 ran one step alone (steps/1): run it again with rlm-plan run PLAN --step steps/1 --bindings JSON\n",
    );
    assert.deepEqual(ws.marks(), ['two {"label":"A"}']);

    // The same from a bindings file, as JSON: the result line carries the value and what is left.
    ws.write("b.json", '{"a": 7}');
    const json = ws.cli("run", "plan.rlmplan.json", "--step", "/steps/1", "--bindings", "@b.json", "--json");
    assert.equal(json.code, 0, json.stderr);
    assert.deepEqual(ws.marks(), ['two {"label":"A"}', "two 7"]);
    const got = result(json.stdout);
    assert.deepEqual(got["value"], { label: "two", note: 7 });
    assert.equal((got["budget_remaining"] as Record<string, number>)["tool_calls"], 8);
    assert.equal(got["run"], 2);
  });

  test("a sub-plan step runs its whole sub-plan and nothing before it", () => {
    const ws = workspace("step-sub");
    const ran = ws.cli("run", "plan.rlmplan.json", "--step", "steps/2", "--bindings", '{"a":1,"b":2}', "--no-journal");
    assert.equal(ran.code, 0, ran.stderr);
    assert.deepEqual(ws.marks(), ["inner 2", "inner2 1"]);
    assert.deepEqual(JSON.parse(ran.stdout), { c: { label: "inner", note: 2 }, d: { label: "inner2", note: 1 } });
    assert.match(ran.stderr, /\nrlm-plan: ok: 4 steps, 0 context ops, 2 tool calls, 0 model calls, \d+ output bytes\n/);
  });

  test("with --mocks a model step answers from the mocks: the provider needs no key, and the plan's tool is not preflighted", () => {
    const ws = cliWorkspace("step-mocked");
    ws.write(
      "rlmplan.host.json",
      JSON.stringify({
        capabilities: ["tool(absent)", "model(local)"],
        tools: { absent: { type: "command", command: ["no-such-program-here"] } },
        providers: {
          local: {
            type: "openai-chat",
            baseUrl: "http://127.0.0.1:9/v1",
            model: "m",
            apiKeyEnv: "STEP_TEST_KEY_UNSET",
          },
        },
      }),
    );
    ws.write(
      "plan.rlmplan.json",
      JSON.stringify({
        steps: [
          { op: "tool", name: "absent", args: {}, bind: "question" },
          { op: "model", provider: "local", prompt: ref("question"), bind: "answer" },
          { op: "final", value: ref("answer") },
        ],
      }),
    );
    ws.write(
      "m.mocks.json",
      JSON.stringify({ providers: { local: [{ match: "frozen water", value: { text: "ice" } }] } }),
    );
    const ran = ws.cli(
      "run",
      "plan.rlmplan.json",
      "--step",
      "steps/1",
      "--bindings",
      '{"question":"What is frozen water?"}',
      "--mocks",
      "m.mocks.json",
      "--no-journal",
    );
    assert.equal(ran.code, 0, ran.stderr);
    assert.deepEqual(JSON.parse(ran.stdout), { text: "ice" });
    assert.match(
      ran.stderr,
      /\nrlm-plan: ok \(mocked\): 1 step, 0 context ops, 0 tool calls, 1 model call, \d+ output bytes\n/,
    );
  });

  test("a binding the step reads and is not given is a usage error naming the names in scope and the missing one", () => {
    const ws = workspace("step-missing");
    const ran = ws.cli("run", "plan.rlmplan.json", "--step", "steps/2", "--bindings", '{"b":2}');
    assert.equal(ran.code, 2);
    assert.equal(
      ran.stderr,
      'rlm-plan: host profile rlmplan.host.json\nrlm-plan: cannot run the step: the step at steps/2 reads "a", which is not given (in scope: a, b; the step reads: b, a)\nsee rlm-plan run --help\n',
    );
    assert.deepEqual(ws.marks(), []);
    assert.equal(existsSync(join(ws.dir, ".rlm-plan")), false);

    const extra = ws.cli("run", "plan.rlmplan.json", "--step", "steps/1", "--bindings", '{"a":1,"sub":2}');
    assert.equal(extra.code, 2);
    assert.match(
      extra.stderr,
      /\nrlm-plan: cannot run the step: no binding "sub" is in scope at steps\/1 \(in scope: a\)\n/,
    );
    const nowhere = ws.cli("run", "plan.rlmplan.json", "--step", "steps/9", "--bindings", "{}");
    assert.equal(nowhere.code, 2);
    assert.match(nowhere.stderr, /\nrlm-plan: cannot run the step: there is no step at steps\/9 in this plan\n/);
    const notObject = ws.cli("run", "plan.rlmplan.json", "--step", "steps/1", "--bindings", "[1]");
    assert.equal(notObject.code, 2);
    assert.match(notObject.stderr, /^rlm-plan: --bindings takes a JSON object of binding name -> value/);
    const noStep = ws.cli("run", "plan.rlmplan.json", "--step", "steps/1");
    assert.equal(noStep.code, 2);
    assert.match(
      noStep.stderr,
      /^rlm-plan: --step needs --from RUN \(the recorded run to fork\) or --bindings JSON \(to run that step alone\)\n/,
    );
    assert.deepEqual(ws.marks(), []);
  });

  test("the host profile's budget applies to the step: a reply over its output bytes is refused", () => {
    const ws = workspace("step-budget", { max_output_bytes: 100 });
    const long = "x".repeat(150);
    const ran = ws.cli(
      "run",
      "plan.rlmplan.json",
      "--step",
      "steps/1",
      "--bindings",
      JSON.stringify({ a: long }),
      "--json",
    );
    assert.equal(ran.code, 1, ran.stderr);
    assert.deepEqual(ws.marks(), [`two ${JSON.stringify(long)}`]);
    const got = result(ran.stdout);
    assert.equal(got["ok"], false);
    assert.deepEqual(got["error"], {
      phase: "execute",
      kind: "budget_exhausted",
      budget: "output_bytes",
      requested: 175,
      remaining: 100,
      message: "a value of 175 bytes does not fit the 100 output bytes left",
      path: ["steps", 1],
    });
    assert.deepEqual(got["budget_remaining"], {
      steps: 19,
      model_calls: 8,
      tool_calls: 8,
      context_ops: 32,
      output_bytes: 100,
    });
  });
});

describe("a test file's case with step and bindings", () => {
  test("runs only that step: its value is asserted, a pass and a fail told as any case's", () => {
    const ws = workspace("step-case");
    ws.write(
      "plan.rlmplan.test.json",
      JSON.stringify(
        {
          plan: "plan.rlmplan.json",
          cases: [
            {
              name: "two",
              step: "/steps/1",
              bindings: { a: 5 },
              expect: { value: { equals: { label: "two", note: 5 } }, costs: { maxToolCalls: 1 } },
            },
            { name: "sub", step: "/steps/2", bindings: { a: 1, b: 2 }, expect: { value: { equals: { c: 0 } } } },
          ],
        },
        null,
        2,
      ),
    );
    const ran = ws.cli("test", "plan.rlmplan.test.json", "--format", "json", "--jobs", "1");
    assert.equal(ran.code, 1, ran.stderr);
    // Three calls: the tool step's one, the sub-plan's two; no step before either ran.
    assert.deepEqual(ws.marks(), ["two 5", "inner 2", "inner2 1"]);
    const report = JSON.parse(ran.stdout) as {
      cases: { name: string; ok: boolean; failures: { message: string }[] }[];
    };
    assert.deepEqual(
      report.cases.map((c) => [c.name, c.ok, c.failures.map((f) => f.message)]),
      [
        ["two", true, []],
        [
          "sub",
          false,
          ['value: expected {"c":0}, got {"c":{"label":"inner","note":2},"d":{"label":"inner2","note":1}}'],
        ],
      ],
    );
  });

  test("a step case is priced at its step's worst case, and not sent to workers, which run whole plans", () => {
    const ws = workspace("step-case-queue");
    ws.write(
      "plan.rlmplan.test.json",
      JSON.stringify({ plan: "plan.rlmplan.json", cases: [{ name: "two", step: "/steps/1", bindings: { a: 5 } }] }),
    );
    const ran = ws.cli("test", "plan.rlmplan.test.json", "--queue", "redis://127.0.0.1:9/cases");
    assert.equal(ran.code, 2);
    // Priced at the step's own worst case (the whole plan's is 7 steps, 4 tool calls).
    assert.equal(
      ran.stderr,
      "rlm-plan: 1 case in 1 file; worst case 1 step, 0 model calls, 1 tool call, 0 context ops; live: 1 case, 1 step, 0 model calls, 1 tool call, 0 context ops\n" +
        'rlm-plan: plan.rlmplan.test.json#two runs one step ("step"): a worker runs whole plans, so it cannot run with --queue; nothing ran\n',
    );
  });

  test("a step's bindings that miss a name it reads, or name one not in scope, are located problems; nothing runs", () => {
    const ws = workspace("step-case-bad");
    ws.write(
      "bad.rlmplan.test.json",
      [
        "{",
        '  "plan": "plan.rlmplan.json",',
        '  "cases": [',
        '    { "name": "missing", "step": "/steps/2", "bindings": { "b": 5 } },',
        '    { "name": "extra", "step": "/steps/1", "bindings": { "a": 5, "zz": 1 } },',
        '    { "name": "none", "step": "/steps/7" }',
        "  ]",
        "}",
      ].join("\n"),
    );
    const ran = ws.cli("test", "bad.rlmplan.test.json");
    assert.equal(ran.code, 2);
    assert.deepEqual(ran.stderr.trim().split("\n").slice(-4), [
      'bad.rlmplan.test.json:4:58: error: the step at steps/2 reads "a", which is not given (in scope: a, b; the step reads: b, a)',
      'bad.rlmplan.test.json:5:72: error: no binding "zz" is in scope at steps/1 (in scope: a)',
      "bad.rlmplan.test.json:6:31: error: there is no step at steps/7 in this plan",
      "rlm-plan: 3 problems in the test files; nothing ran",
    ]);
    assert.deepEqual(ws.marks(), []);
  });
});
