// `rlm-plan check`, run as the built CLI in a child process from the repository root.

import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, test } from "node:test";
import { splitCapabilities } from "rlm-plan/args";
import { styleFor } from "rlm-plan/output";
import { CLI, cliWorkspace, ROOT, runCli, type CliRun } from "../support/cliWorkspace";

const NOTE = "rlm-plan: no host profile (rlmplan.host.json) found: capabilities, tools and providers not checked\n";
/** What a static check says when a host profile applies: it started nothing, and what it left. */
const LEFT =
  "rlm-plan: static check, no program started; left to --preflight: MCP tool lists and argument schemas, programs, provider keys, input files\n";

/** The CLI run from the repository root (the example plans are named from there). */
const rlmPlan = (...args: string[]): CliRun => runCli(ROOT, args);

const { dir, write: planFile } = cliWorkspace("cli-check");

interface JsonProblem {
  severity: string;
  code: string;
  phase: string;
  kind: string;
  message: string;
  line: number;
  column: number;
  endLine: number;
  endColumn: number;
  offset: number;
  length: number;
  related: { message: string; line: number; column: number }[];
}
interface CheckJson {
  files: { file: string; ok: boolean; error?: string; problems: JsonProblem[]; steps: number | null }[];
}

const NEEDLE = `{
  "steps": [
    { "op": "context", "handle": { "ref": "input", "name": "haystack" }, "action": { "type": "search", "pattern": "needle" }, "bind": "hits" },
    { "op": "tool", "name": "count_items", "args": { "ref": "var", "name": "hits" }, "bind": "count" },
    { "op": "final", "value": { "ref": "var", "name": "count" } }
  ]
}
`;

describe("rlm-plan check: the examples", () => {
  // The example plans: examples/plans/ has no host profile (check notes it), the example
  // workspace's plans are checked against examples/workspace/rlmplan.host.json.
  const valid: [string, number][] = [
    ["examples/workspace/plans/needle-count.rlmplan.json", 3],
    ["examples/plans/partition-map-reduce.rlmplan.json", 5],
    ["examples/plans/parallel-summary.rlmplan.json", 10],
    ["examples/workspace/plans/retry-flaky.rlmplan.json", 5],
    ["examples/plans/nested-rlm.rlmplan.json", 8],
  ];
  for (const [file, steps] of valid) {
    test(`${file} is valid`, () => {
      const run = rlmPlan("check", file);
      assert.equal(run.stdout, `${file}: ok (${steps} steps)\n`);
      assert.equal(run.stderr, file.startsWith("examples/workspace/") ? LEFT : NOTE);
      assert.equal(run.code, 0);
    });
  }

  for (const [file, steps] of valid) {
    test(`${file}: the capabilities its "Needs:" comment lists are enough`, () => {
      const needs = /^\/\/ Needs: (.*)\.$/m.exec(readFileSync(join(ROOT, file), "utf8"))?.[1];
      assert.ok(needs, "the example says what it needs");
      const run = rlmPlan("check", "--capabilities", needs, file);
      assert.equal(run.stdout, `${file}: ok (${steps} steps)\n`);
      assert.equal(run.stderr, file.startsWith("examples/workspace/") ? LEFT : "");
      assert.equal(run.code, 0);
    });
  }

  test("broken.rlmplan.json: its three problems at their exact line:col", () => {
    const file = "examples/plans/broken.rlmplan.json";
    const run = rlmPlan("check", file);
    assert.deepEqual(run.stdout.split("\n"), [
      `${file}:14:13: error: unknown operation "contxt": use context, model, rlm, tool, parallel, retry, checkpoint or final [unknown_operator]`,
      `${file}:19:76: error: variable "hit" is not bound here: bind it in an earlier step of this plan or an enclosing one [unbound_variable]`,
      `${file}:20:94: error: "count" is already bound in this scope: choose another name [duplicate_binding]`,
      `${file}:19:93: note: "count" is first bound here`,
      `${file}: 3 errors`,
      "",
    ]);
    assert.equal(run.code, 1);
  });

  test("broken.rlmplan.json --json: codes, places and offsets that point at the tokens", () => {
    const file = "examples/plans/broken.rlmplan.json";
    const text = readFileSync(join(ROOT, file), "utf8");
    const run = rlmPlan("check", "--json", file);
    assert.equal(run.code, 1);
    const out = JSON.parse(run.stdout) as CheckJson;
    assert.equal(out.files.length, 1);
    const [report] = out.files;
    assert.ok(report);
    assert.equal(report.file, file);
    assert.equal(report.ok, false);
    assert.equal(report.steps, 4);
    const brief = report.problems.map((p) => [
      p.severity,
      p.code,
      p.phase,
      p.kind,
      p.line,
      p.column,
      p.endLine,
      p.endColumn,
    ]);
    assert.deepEqual(brief, [
      ["error", "unknown_operator", "normalize", "invalid_plan", 14, 13, 14, 21],
      ["error", "unbound_variable", "validate", "invalid_plan", 19, 76, 19, 81],
      ["error", "duplicate_binding", "validate", "invalid_plan", 20, 94, 20, 101],
    ]);
    const tokens = report.problems.map((p) => text.slice(p.offset, p.offset + p.length));
    assert.deepEqual(tokens, ['"contxt"', '"hit"', '"count"']);
    assert.deepEqual(report.problems[2]?.related, [
      {
        message: '"count" is first bound here',
        line: 19,
        column: 93,
        endLine: 19,
        endColumn: 100,
        offset: text.indexOf('"count" }'),
        length: 7,
      },
    ]);
  });

  test("several files at once: every file gets its summary, the worst status wins", () => {
    const run = rlmPlan("check", "examples/plans/nested-rlm.rlmplan.json", "examples/plans/broken.rlmplan.json");
    const lines = run.stdout.trimEnd().split("\n");
    assert.equal(lines[0], "examples/plans/nested-rlm.rlmplan.json: ok (8 steps)");
    assert.equal(lines[lines.length - 1], "examples/plans/broken.rlmplan.json: 3 errors");
    assert.equal(lines.length, 6);
    assert.equal(run.stderr, NOTE);
    assert.equal(run.code, 1);
  });
});

describe("rlm-plan check: plan files", () => {
  test("comments and trailing commas are accepted", () => {
    const file = planFile(
      "comments.rlmplan.json",
      `/* a block
   comment */
{
  // a line comment
  "steps": [
    { "op": "final", "value": "done", }, // trailing comma
  ],
}
`,
    );
    const run = rlmPlan("check", file);
    assert.equal(run.stdout, `${file}: ok (1 step)\n`);
    assert.equal(run.code, 0);
  });

  test("a JSON syntax error is located", () => {
    const file = planFile("syntax.rlmplan.json", '{\n  "steps": [\n    {"op": "final" "value": 1}\n  ]\n}\n');
    const run = rlmPlan("check", file);
    assert.equal(run.stdout, `${file}:3:20: error: invalid JSON: comma expected [invalid_json]\n${file}: 1 error\n`);
    assert.equal(run.code, 1);
    const json = JSON.parse(rlmPlan("check", "--json", file).stdout) as CheckJson;
    const problem = json.files[0]?.problems[0];
    assert.deepEqual(
      problem && [problem.code, problem.phase, problem.line, problem.column, problem.offset, problem.length],
      ["invalid_json", "parse", 3, 20, 34, 7],
    );
  });

  test("an empty file is an error at 1:1", () => {
    const file = planFile("empty.rlmplan.json", "");
    const run = rlmPlan("check", file);
    assert.equal(run.stdout, `${file}:1:1: error: invalid JSON: value expected [invalid_json]\n${file}: 1 error\n`);
    assert.equal(run.code, 1);
  });

  test("an unreadable file: which and why on stderr, no stack trace, status 1; other files still checked", () => {
    const missing = join(dir, "no-such-plan.rlmplan.json");
    const good = planFile("good.rlmplan.json", NEEDLE);
    const run = rlmPlan("check", missing, good);
    assert.equal(run.stderr, `${NOTE}rlm-plan: cannot read ${missing}: no such file (ENOENT)\n`);
    assert.equal(run.stdout, `${good}: ok (3 steps)\n`);
    assert.equal(run.code, 1);
    const json = JSON.parse(rlmPlan("check", "--json", missing).stdout) as CheckJson;
    assert.deepEqual(json.files, [
      { file: missing, ok: false, error: "cannot read: no such file (ENOENT)", problems: [], steps: null },
    ]);
  });

  test("--budget makes the budget a gate: over it is an error, like run's refusal", () => {
    const file = planFile(
      "mixed.rlmplan.json",
      `{"steps": [
  {"op": "tool", "name": "count_items", "args": {"ref": "var", "name": "nothing"}, "bind": "n"},
  {"op": "final", "value": {"ref": "var", "name": "n"}}
]}
`,
    );
    const run = rlmPlan("check", "--budget", '{"max_tool_calls": 0}', file);
    assert.deepEqual(run.stdout.split("\n"), [
      `${file}:1:1: error: worst case tool calls 1 exceeds the budget's max_tool_calls of 0 [budget_exceeded]`,
      `${file}:2:72: error: variable "nothing" is not bound here: bind it in an earlier step of this plan or an enclosing one [unbound_variable]`,
      `${file}: 2 errors`,
      "",
    ]);
    assert.equal(run.code, 1);
  });

  test("with no host known, the default budget only warns, and warnings alone do not fail the check", () => {
    const tools = Array.from(
      { length: 17 },
      (_, i) => `{"op": "tool", "name": "count_items", "args": [], "bind": "n${i}"}`,
    );
    const file = planFile("over.rlmplan.json", `{"steps": [${tools.join(", ")}, {"op": "final", "value": 1}]}`);
    const run = rlmPlan("check", file);
    assert.deepEqual(run.stdout.split("\n"), [
      `${file}:1:1: warning: worst case tool calls 17 exceeds the budget's max_tool_calls of 16 [budget_exceeded]`,
      `${file}: ok (18 steps), 1 warning`,
      "",
    ]);
    assert.equal(run.code, 0);
  });
});

describe("rlm-plan check: a test file named is checked as a test file, not as a plan", () => {
  const FIXTURES = join(ROOT, "test", "fixtures", "plan-tests");
  test("its own errors and warnings, as rlm-plan test and the editor say them; exit 1 on an error", () => {
    const run = runCli(FIXTURES, ["check", "bad/bad2.rlmplan.test.json", "warn/label.rlmplan.test.json"]);
    assert.equal(run.code, 1, run.stderr);
    assert.equal(run.stderr, "");
    assert.deepEqual(run.stdout.trimEnd().split("\n"), [
      `bad/bad2.rlmplan.test.json:1:1: error: bad/rows.jsonl:2:1: line 2 must be a JSON object of the case's inputs ({"name": value, ...}) [invalid_test_file]`,
      "bad/bad2.rlmplan.test.json:1:1: error: bad/rows.jsonl:3:2: line 3 is not JSON: invalid JSON: invalid symbol [invalid_test_file]",
      "bad/bad2.rlmplan.test.json:4:56: error: the plan has no step /steps/7 [invalid_test_file]",
      "bad/bad2.rlmplan.test.json:4:92: error: the schema does not compile: schema is invalid: data/type must be equal to one of the allowed values, data/type must be array, data/type must match a schema in anyOf [invalid_test_file]",
      'bad/bad2.rlmplan.test.json:5:41: warning: the plan never reads input "extra" [test_file_warning]',
      "bad/bad2.rlmplan.test.json:5:91: error: the plan has no step /steps/9 [invalid_test_file]",
      "bad/bad2.rlmplan.test.json:5:124: error: the plan has no step /steps/8 [invalid_test_file]",
      'bad/bad2.rlmplan.test.json:6:15: error: a case named "a" is already case 1 [invalid_test_file]',
      "bad/bad2.rlmplan.test.json:6:51: error: the plan has no step /steps/0/plan/steps/0 [invalid_test_file]",
      "bad/bad2.rlmplan.test.json: 8 errors, 1 warning",
      'warn/label.rlmplan.test.json:1:1: warning: warn/rows.jsonl:1:1: the plan never reads input "lang" [test_file_warning]',
      'warn/label.rlmplan.test.json:4:84: warning: the mocks answer tool "search", which the plan never calls [test_file_warning]',
      'warn/label.rlmplan.test.json:5:75: warning: the mocks answer provider "other", which the plan never calls [test_file_warning]',
      'warn/label.rlmplan.test.json:7:95: warning: the plan never reads input "extra" [test_file_warning]',
      "warn/label.rlmplan.test.json: ok (test file), 4 warnings",
    ]);
    const good = runCli(FIXTURES, ["check", "tests/label.rlmplan.test.json", "--json"]);
    assert.equal(good.code, 0, good.stderr);
    assert.deepEqual(JSON.parse(good.stdout), {
      files: [{ file: "tests/label.rlmplan.test.json", kind: "test", ok: true, problems: [], steps: null }],
    });
  });
});

describe("rlm-plan check: keys the runtime ignores and model options", () => {
  test("an unknown key warns; a model option the provider refuses fails the gate (the run would fail)", () => {
    const file = planFile(
      "keys.rlmplan.json",
      '{"steps": [\n{"op": "model", "provider": "p", "prompt": "hi", "options": {"max_token": 9}, "bnd": "r", "bind": "r"},\n{"op": "final", "value": 1}]}',
    );
    const run = rlmPlan("check", "--capabilities", "model(p)", file);
    assert.equal(
      run.stdout,
      `${file}:2:62: error: model option "max_token" is not allowed (allowed: temperature, top_p, max_tokens, stop, seed, presence_penalty, frequency_penalty, response_format): the provider refuses it when this step runs; did you mean "max_tokens"? [unknown_model_option]\n` +
        `${file}:2:79: warning: a model step has no key "bnd", so the runtime ignores it: its keys are "op", "provider", "prompt", "options", "bind" [unknown_key]\n` +
        `${file}: 1 error, 1 warning\n`,
    );
    assert.equal(run.code, 1);
  });
});

describe("rlm-plan check --capabilities", () => {
  test("everything granted: no warnings and no host-profile note", () => {
    const file = planFile("granted.rlmplan.json", NEEDLE);
    const run = rlmPlan("check", "--capabilities", "context(search),tool(count_items)", file);
    assert.equal(run.stdout, `${file}: ok (3 steps)\n`);
    assert.equal(run.stderr, "");
    assert.equal(run.code, 0);
  });

  test("a capability not granted is an error at the tool's name (run refuses it)", () => {
    const file = planFile("denied.rlmplan.json", NEEDLE);
    const run = rlmPlan("check", "--capabilities=context(search), rlm", file);
    assert.equal(
      run.stdout,
      `${file}:4:29: error: this step needs the capability tool(count_items), which the host does not grant [capability_denied]\n` +
        `${file}: 1 error\n`,
    );
    assert.equal(run.code, 1);
    const json = JSON.parse(rlmPlan("check", "--json", "--capabilities", "context(search)", file).stdout) as CheckJson;
    const problem = json.files[0]?.problems[0];
    assert.deepEqual(problem && [problem.severity, problem.code, problem.kind, problem.line, problem.column], [
      "error",
      "capability_denied",
      "capability_denied",
      4,
      29,
    ]);
    assert.equal(json.files[0]?.ok, false);
  });

  test("an empty list grants nothing", () => {
    const file = planFile("none.rlmplan.json", NEEDLE);
    const run = rlmPlan("check", "--capabilities", "", file);
    assert.equal(run.stdout.split("\n").filter((line) => line.includes("[capability_denied]")).length, 2);
    assert.equal(run.code, 1);
  });

  test("commas inside parentheses belong to the term", () => {
    const file = planFile(
      "comma.rlmplan.json",
      '{"steps": [{"op": "tool", "name": "count,items", "args": 1, "bind": "n"}, {"op": "checkpoint", "label": "x"}, {"op": "final", "value": 1}]}',
    );
    for (const list of ["tool(count,items),checkpoint", "checkpoint, tool('count,items')"]) {
      const run = rlmPlan("check", "--capabilities", list, file);
      assert.equal(run.stdout, `${file}: ok (3 steps)\n`, list);
    }
    const run = rlmPlan("check", "--capabilities", "tool(count),checkpoint", file);
    assert.match(run.stdout, /capability tool\('count,items'\), which the host does not grant/);
  });
});

describe("capability lists and colors (the modules behind the flags)", () => {
  test("splitCapabilities splits on commas outside parentheses and quotes", () => {
    assert.deepEqual(splitCapabilities("context(search),tool(count_items), rlm"), [
      "context(search)",
      "tool(count_items)",
      "rlm",
    ]);
    assert.deepEqual(splitCapabilities("tool(a,b),tool('c,d'),,checkpoint"), [
      "tool(a,b)",
      "tool('c,d')",
      "checkpoint",
    ]);
    assert.deepEqual(splitCapabilities(" "), []);
  });

  test("colors only on a terminal and without NO_COLOR", () => {
    assert.equal(styleFor({ isTTY: true }, {}).red("x"), "\u001b[31mx\u001b[39m");
    assert.equal(styleFor({ isTTY: true }, { NO_COLOR: "" }).red("x"), "\u001b[31mx\u001b[39m");
    assert.equal(styleFor({ isTTY: true }, { NO_COLOR: "1" }).red("x"), "x");
    assert.equal(styleFor({ isTTY: false }, {}).red("x"), "x");
    assert.equal(styleFor({}, {}).bold("x"), "x");
  });
});

describe("rlm-plan check --json", () => {
  test("one JSON object with every file, on stdout only", () => {
    const good = planFile("json-good.rlmplan.json", NEEDLE);
    const run = rlmPlan("check", "--json", good, "examples/plans/broken.rlmplan.json");
    const out = JSON.parse(run.stdout) as CheckJson;
    assert.deepEqual(
      out.files.map((f) => [f.file, f.ok, f.steps, f.problems.map((p) => p.code)]),
      [
        [good, true, 3, []],
        ["examples/plans/broken.rlmplan.json", false, 4, ["unknown_operator", "unbound_variable", "duplicate_binding"]],
      ],
    );
    assert.deepEqual(Object.keys(out.files[1]?.problems[0] ?? {}), [
      "severity",
      "code",
      "phase",
      "kind",
      "message",
      "line",
      "column",
      "endLine",
      "endColumn",
      "offset",
      "length",
      "related",
    ]);
    assert.equal(run.stderr, NOTE);
    assert.equal(run.code, 1);
  });
});

describe("rlm-plan usage", () => {
  const usageLine = "usage: rlm-plan check PATH... [--host FILE] [--capabilities LIST] [--budget JSON|default]";

  const cases: [string, string[], string][] = [
    ["no command", [], "rlm-plan: missing command"],
    ["no files", ["check"], "rlm-plan: check needs at least one PATH"],
    ["an unknown flag", ["check", "--frobnicate", "a.json"], "rlm-plan: unknown option --frobnicate"],
    ["an unknown command", ["lint", "a.json"], 'rlm-plan: unknown command "lint"'],
    ["a flag without its value", ["check", "a.json", "--budget"], "rlm-plan: --budget needs a value"],
    ["a value for --json", ["check", "--json=yes", "a.json"], "rlm-plan: --json takes no value"],
    [
      "a budget that is not JSON",
      ["check", "--budget", "{max_steps: 3}", "a.json"],
      'rlm-plan: --budget: expected "default" or a JSON object: invalid JSON: invalid symbol at position 1',
    ],
    [
      "a budget with a duplicate key",
      ["check", "--budget", '{"max_steps": 1, "max_steps": 99}', "a.json"],
      'rlm-plan: --budget: expected "default" or a JSON object: duplicate key "max_steps": a JSON object may name a key only once at position 17',
    ],
    [
      "an unknown budget field",
      ["check", "--budget", '{"max_stepz": 3}', "a.json"],
      'rlm-plan: --budget: unknown budget field "max_stepz": use max_steps, max_depth, max_parallel, max_model_calls, max_tool_calls, max_context_ops, max_output_bytes, time_limit',
    ],
    [
      "a malformed capability",
      ["check", "--capabilities", "tool(a", "a.json"],
      'rlm-plan: --capabilities: "tool(a" is not a capability term: write context(ACTION), model(PROVIDER), tool(NAME), rlm, parallel, retry or checkpoint',
    ],
    [
      "an unknown capability after a good one, refused as a host profile refuses it",
      ["check", "--capabilities", "context(search),bogus", "a.json"],
      'rlm-plan: --capabilities: "bogus" is not a capability: write context(ACTION), model(PROVIDER), tool(NAME), rlm, parallel, retry or checkpoint',
    ],
    [
      "an unknown context action",
      ["check", "--capabilities", "context(serch)", "a.json"],
      'rlm-plan: --capabilities: "context(serch)" is not a context capability: the actions are search, slice, peek, partition, map, reduce',
    ],
  ];
  for (const [what, args, message] of cases) {
    test(`${what}: status 2, the message and where help is on stderr`, () => {
      const run = rlmPlan(...args);
      assert.equal(run.code, 2);
      assert.equal(run.stdout, "");
      // One line about the mistake, not the whole usage (issue 34.8); check's own help for check's.
      assert.equal(run.stderr, `${message}\nsee rlm-plan${args[0] === "check" ? " check" : ""} --help\n`);
    });
  }

  test("--help, -h and help print the help on stdout; check --help check's", () => {
    for (const args of [["--help"], ["-h"], ["help"]]) {
      const run = rlmPlan(...args);
      assert.equal(run.code, 0, args.join(" "));
      assert.equal(run.stderr, "");
      assert.match(
        run.stdout,
        /^rlm-plan: check, estimate, graph, run, runs, ui, propose, test, worker, schedule and lock: typed LLM plans/,
      );
      assert.ok(run.stdout.includes(usageLine));
    }
    const own = rlmPlan("check", "--help");
    assert.equal(own.code, 0);
    assert.ok(own.stdout.startsWith(usageLine), own.stdout);
    assert.ok(own.stdout.includes("--capabilities LIST"));
  });

  test("--version reads the package's version", () => {
    const manifest = JSON.parse(readFileSync(join(ROOT, "shared-runtime", "package.json"), "utf8")) as {
      version: string;
    };
    const run = rlmPlan("--version");
    assert.equal(run.stdout, `rlm-plan ${manifest.version}\n`);
    assert.equal(run.code, 0);
  });

  test("no color codes when stdout is not a terminal, even without NO_COLOR", () => {
    const env = { ...process.env };
    delete env.NO_COLOR;
    const result = spawnSync(process.execPath, [CLI, "check", "examples/plans/broken.rlmplan.json"], {
      cwd: ROOT,
      encoding: "utf8",
      env,
    });
    assert.equal(result.status, 1);
    assert.ok(!result.stdout.includes("\u001b["));
  });
});
