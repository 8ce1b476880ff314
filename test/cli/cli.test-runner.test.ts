// `rlm-plan test` as CI uses it, through the built CLI on real files: --list totals equal the
// sum of the cases' estimates (and `rlm-plan estimate`'s figure), --max-cost refuses before any
// request reaches a real provider (a chat-completions server on 127.0.0.1 counts them), three
// shards merged equal one unsharded run, JUnit XML parses and holds every case, GitHub
// annotations sit at each failing case's line, --filter selects.

import assert from "node:assert/strict";
import { spawn } from "node:child_process";
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { after, before, describe, test } from "node:test";
import { XMLParser, XMLValidator } from "fast-xml-parser";
import { startChatServer, type ChatServer } from "../support/chatServer";
import { childOutput } from "../support/childOutput";
import { CLI, cliWorkspace, ROOT, runCli, runCliAsync } from "../support/cliWorkspace";

const FIXTURES = join(ROOT, "test", "fixtures", "plan-tests");

interface Report {
  selected: number;
  cases: { id: string; index: number; ok: boolean; duration_ms: number }[];
  summary: { total: number; passed: number; failed: number; duration_ms: number };
}

describe("rlm-plan test: listing and pricing", () => {
  test("--list: one line per case run, and a total equal to the sum of their estimates", () => {
    const run = runCli(FIXTURES, ["test", "tests", "--list"]);
    assert.equal(run.code, 0, run.stderr);
    const lines = run.stdout.trimEnd().split("\n");
    const total = lines.pop() as string;
    assert.equal(lines.length, 22);
    assert.equal(
      lines[0],
      "tests/label.rlmplan.test.json:10  tests/label.rlmplan.test.json#equals passes  3 steps, 1 model call, 1 tool call, 0 context ops",
    );
    const counter = (line: string, noun: string) => Number(new RegExp(`(\\d+) ${noun}`).exec(line)?.[1]);
    const sum = (noun: string) => lines.reduce((n, line) => n + counter(line, noun), 0);
    const estimate = JSON.parse(runCli(FIXTURES, ["estimate", "plans/label.rlmplan.json", "--json"]).stdout) as {
      estimate: { steps: number; model_calls: number; tool_calls: number };
    };
    assert.deepEqual(
      [sum("steps?"), sum("model calls?"), sum("tool calls?")],
      [22 * estimate.estimate.steps, 22 * estimate.estimate.model_calls, 22 * estimate.estimate.tool_calls],
    );
    assert.equal(
      total,
      "22 cases in 1 file; worst case 66 steps, 22 model calls, 22 tool calls, 0 context ops; live: 0 cases, 0 steps, 0 model calls, 0 tool calls, 0 context ops",
    );
  });

  test("--filter selects by id; --shard takes every N-th case", () => {
    const filtered = runCli(FIXTURES, ["test", "tests", "--list", "--filter", "passes"]);
    assert.deepEqual(
      filtered.stdout
        .trimEnd()
        .split("\n")
        .slice(0, -1)
        .map((line) => line.split("  ")[1]),
      ["equals", "contains", "schema", "error"].map((n) => `tests/label.rlmplan.test.json#${n} passes`),
    );
    const shard = runCli(FIXTURES, ["test", "tests", "--list", "--shard", "2/3"]);
    assert.match(shard.stdout, /\n7 cases in 1 file;/);
  });
});

describe("rlm-plan test --format html: its usage", () => {
  test("-o is for --format html, and test merge refuses html (its reports carry no runs)", () => {
    const o = runCli(FIXTURES, ["test", "tests", "--format", "junit", "-o", "x.html"]);
    assert.equal(o.code, 2);
    assert.equal(o.stderr, "rlm-plan: -o FILE is for --format html\nsee rlm-plan test --help\n");
    const merge = runCli(FIXTURES, ["test", "merge", "a.json", "--format", "html"]);
    assert.equal(merge.code, 2);
    assert.equal(
      merge.stderr,
      "rlm-plan: test merge writes text, json, junit or github: --format html is written by rlm-plan test itself\nsee rlm-plan test --help\n",
    );
  });
});

describe("rlm-plan test: a gate that tests nothing fails", () => {
  const NOTHING = "pass --allow-empty if that is expected";
  test('a --filter that matches no case: exit 1 and why, after the JUnit report (tests="0")', () => {
    const run = runCli(FIXTURES, ["test", "tests", "--filter", "refund", "--format", "junit", "--no-journal"]);
    assert.equal(run.code, 1, run.stderr);
    assert.match(run.stdout, /<testsuites name="rlm-plan test" tests="0" failures="0" errors="0" /);
    assert.equal(
      run.stderr.trimEnd().split("\n").pop(),
      `rlm-plan: --filter "refund" matches none of the 22 cases, so nothing was tested; ${NOTHING}`,
    );
    const allowed = runCli(FIXTURES, ["test", "tests", "--filter", "refund", "--allow-empty", "--no-journal"]);
    assert.equal(allowed.code, 0, allowed.stderr);
    assert.doesNotMatch(allowed.stderr, /allow-empty/);
  });

  test("a folder or a pattern with no test file: exit 1, naming it; --allow-empty accepts it", () => {
    const run = runCli(FIXTURES, ["test", "plans", "tests/*.nothing.json", "--no-journal"]);
    assert.equal(run.code, 1, run.stderr);
    assert.deepEqual(run.stderr.trimEnd().split("\n"), [
      "rlm-plan: plans: no *.rlmplan.test.json below it",
      "rlm-plan: tests/*.nothing.json: no test file matches this pattern",
      "rlm-plan: 0 cases in 0 files; worst case 0 steps, 0 model calls, 0 tool calls, 0 context ops; live: 0 cases, 0 steps, 0 model calls, 0 tool calls, 0 context ops",
      `rlm-plan: 2 paths named no test file, so what they were meant to test did not run; ${NOTHING}`,
    ]);
    // One empty path among good ones still fails the gate: the cases it was meant to hold did not run.
    const mixed = runCli(FIXTURES, ["test", "tests", "plans", "--filter", "equals passes", "--no-journal"]);
    assert.equal(mixed.code, 1, mixed.stderr);
    assert.match(mixed.stdout, /^1 passed, 0 failed \(1 case, /m);
    assert.match(mixed.stderr, /^rlm-plan: a path named no test file, so what it was meant to test did not run; /m);
    const allowed = runCli(FIXTURES, ["test", "plans", "--allow-empty", "--no-journal"]);
    assert.equal(allowed.code, 0, allowed.stderr);
  });
});

describe("rlm-plan test: a case's inputs", () => {
  test("a string for a text-file input is a text context, searched as the file's contents would be", () => {
    const ws = cliWorkspace("text-input");
    ws.write(
      "rlmplan.host.json",
      JSON.stringify({
        capabilities: ["context(search)"],
        inputs: { doc: { type: "text-file", path: "doc.txt" }, other: { type: "text-file", path: "missing.txt" } },
      }),
    );
    ws.write("doc.txt", "from the file\nrefund from the file\n");
    const search = (input: string) => ({
      steps: [
        {
          op: "context",
          handle: { ref: "input", name: input },
          action: { type: "search", pattern: "refund" },
          bind: "hits",
        },
        { op: "final", value: { ref: "var", name: "hits" } },
      ],
    });
    ws.write("find.rlmplan.json", JSON.stringify(search("doc")));
    ws.write("other.rlmplan.json", JSON.stringify(search("other")));
    const inline = "a line\nrefund, please\nrefund again\n";
    ws.write(
      "find.rlmplan.test.json",
      JSON.stringify({
        plan: "find.rlmplan.json",
        cases: [
          {
            name: "inline",
            inputs: { doc: inline },
            expect: {
              value: {
                equals: [
                  { index: 1, value: "refund, please" },
                  { index: 2, value: "refund again" },
                ],
              },
            },
          },
          { name: "the file", expect: { value: { equals: [{ index: 1, value: "refund from the file" }] } } },
        ],
      }),
    );
    // The profile's file is never read when the case gives the text (here it does not exist).
    ws.write(
      "other.rlmplan.test.json",
      JSON.stringify({
        plan: "other.rlmplan.json",
        cases: [
          { name: "inline", inputs: { other: inline }, expect: { value: { contains: [{ index: 1 }, { index: 2 }] } } },
        ],
      }),
    );
    const run = ws.cli("test", ".", "--no-journal", "--jobs", "1");
    assert.equal(run.code, 0, `${run.stdout}${run.stderr}`);
    assert.match(run.stdout, /^3 passed, 0 failed \(3 cases, /m);
  });
});

describe("rlm-plan test: --max-cost against a real provider", () => {
  let server: ChatServer;
  const ws = cliWorkspace("test-cost");
  before(async () => {
    server = await startChatServer([], { kind: "ok", text: "news" });
    ws.write(
      "rlmplan.host.json",
      JSON.stringify({
        capabilities: ["model(llm)"],
        providers: { llm: { type: "openai-chat", baseUrl: server.baseUrl, model: "m1", apiKeyEnv: "COST_TEST_KEY" } },
      }),
    );
    ws.write(
      "ask.rlmplan.json",
      JSON.stringify({
        steps: [
          { op: "model", provider: "llm", prompt: "one", bind: "a" },
          { op: "model", provider: "llm", prompt: "two", bind: "b" },
          { op: "final", value: { ref: "var", name: "b" } },
        ],
      }),
    );
    ws.write(
      "ask.rlmplan.test.json",
      JSON.stringify({
        plan: "ask.rlmplan.json",
        cases: [
          { name: "live one" },
          { name: "live two" },
          { name: "mocked", mocks: { providers: { llm: [{ value: "x", repeat: true }] } } },
        ],
      }),
    );
  });
  after(() => server.close());

  test("over the limit: refused with the live worst case, and no request reaches the provider", async () => {
    const run = await runCliAsync(ws.dir, ["test", "--max-cost", "3"], { COST_TEST_KEY: "sk-cost-test-000000" });
    assert.equal(run.code, 2);
    assert.equal(
      run.stderr,
      "rlm-plan: refused: the worst case of the 2 live cases is over --max-cost: 4 model calls (limit 3); nothing ran\n",
    );
    assert.equal(server.requests.length, 0);
    const counters = await runCliAsync(ws.dir, ["test", "--max-cost", "model_calls=10,steps=5"]);
    assert.equal(
      counters.stderr,
      "rlm-plan: refused: the worst case of the 2 live cases is over --max-cost: 6 steps (limit 5); nothing ran\n",
    );
    assert.equal(server.requests.length, 0);
  });

  test("within the limit: the live cases run and the provider answers them (the mocked one never asks it)", async () => {
    const run = await runCliAsync(ws.dir, ["test", "--max-cost", "4", "--jobs", "1"], {
      COST_TEST_KEY: "sk-cost-test-000000",
    });
    assert.equal(run.code, 0, run.stdout + run.stderr);
    assert.equal(server.requests.length, 4);
    assert.match(run.stdout, /3 passed, 0 failed \(3 cases, /);
  });
});

describe("rlm-plan test: reports", () => {
  const ws = cliWorkspace("test-reports");

  test("three shards merged equal one unsharded run", () => {
    const whole = runCli(FIXTURES, ["test", "tests", "--json"]);
    assert.equal(whole.code, 1);
    const files = [1, 2, 3].map((i) => {
      const shard = runCli(FIXTURES, ["test", "tests", "--json", "--shard", `${i}/3`]);
      const file = join(ws.dir, `shard-${i}.json`);
      writeFileSync(file, shard.stdout);
      return file;
    });
    const merged = runCli(FIXTURES, ["test", "merge", ...files, "--json"]);
    assert.equal(merged.code, 1, merged.stderr);
    const timeless = (text: string) => {
      const report = JSON.parse(text) as Report;
      return {
        ...report,
        cases: report.cases.map((c) => ({ ...c, duration_ms: 0 })),
        summary: { ...report.summary, duration_ms: 0 },
      };
    };
    assert.deepEqual(timeless(merged.stdout), timeless(whole.stdout));
    assert.equal(timeless(whole.stdout).cases.length, 22);

    const missing = runCli(FIXTURES, ["test", "merge", files[0] as string, files[2] as string, "--json"]);
    assert.equal(missing.code, 2);
    assert.equal(
      missing.stderr,
      "rlm-plan: warning: the reports hold 15 of the 22 cases selected (a shard missing?)\n",
    );
    const twice = runCli(FIXTURES, ["test", "merge", files[0] as string, files[0] as string]);
    assert.equal(twice.code, 2);
    assert.equal(
      twice.stderr,
      "rlm-plan: the case tests/label.rlmplan.test.json#equals passes is in more than one report\n",
    );
  });

  test("--format junit: well-formed XML with every case and each failure's message, expected and actual", () => {
    const run = runCli(FIXTURES, ["test", "tests", "--format", "junit"]);
    assert.equal(run.code, 1);
    assert.equal(XMLValidator.validate(run.stdout), true);
    const xml = new XMLParser({
      ignoreAttributes: false,
      attributeNamePrefix: "",
      isArray: (name) => name === "testcase",
    }).parse(run.stdout) as {
      testsuites: {
        tests: string;
        failures: string;
        testsuite: {
          name: string;
          tests: string;
          failures: string;
          testcase: {
            name: string;
            line: string;
            file: string;
            failure?: { message: string; type: string; "#text": string };
          }[];
        };
      };
    };
    const suites = xml.testsuites;
    assert.deepEqual([suites.tests, suites.failures], ["22", "11"]);
    const suite = suites.testsuite;
    assert.deepEqual([suite.name, suite.tests, suite.failures], ["tests/label.rlmplan.test.json", "22", "11"]);
    assert.deepEqual(suite.testcase.map((c) => c.name).slice(-5), [
      "repeated [1/2]",
      "repeated [2/2]",
      "rows:1",
      "rows:2",
      "rows:4",
    ]);
    const equals = suite.testcase.find((c) => c.name === "equals fails");
    assert.deepEqual(
      [equals?.line, equals?.failure?.type, equals?.failure?.message],
      ["11", "value", 'value: expected {"title":"X","label":"news"}, got {"label":"news","title":"T"}'],
    );
    assert.equal(
      equals?.failure?.["#text"],
      'tests/label.rlmplan.test.json:11:5: value: expected {"title":"X","label":"news"}, got {"label":"news","title":"T"}\nexpected: {"title":"X","label":"news"}\nactual: {"label":"news","title":"T"}',
    );
    const row = suite.testcase.find((c) => c.name === "rows:2");
    assert.deepEqual([row?.file, row?.line], ["tests/rows.jsonl", "2"]);
  });

  test("--format github: an annotation at each failing case's line, then the summary", () => {
    const run = runCli(FIXTURES, ["test", "tests", "--format", "github", "--filter", "fail"]);
    assert.equal(run.code, 1);
    const lines = run.stdout.trimEnd().split("\n");
    assert.equal(lines.length, 10);
    assert.equal(
      lines[0],
      '::error file=tests/label.rlmplan.test.json,line=11,col=5,title=rlm-plan test%3A tests/label.rlmplan.test.json#equals fails::value: expected {"title":"X","label":"news"}, got {"label":"news","title":"T"}',
    );
    assert.equal(
      lines[8],
      "::error file=tests/label.rlmplan.test.json,line=28,col=5,title=rlm-plan test%3A tests/label.rlmplan.test.json#costs fail::costs: 1 model call spent, at most 0 allowed%0Acosts: 1 tool call spent, at most 0 allowed%0Acosts: 3 steps spent, at most 2 allowed%0Acosts: 47 output bytes spent, at most 10 allowed",
    );
    assert.match(lines[9] as string, /^0 passed, 9 failed \(9 cases, /);
  });

  test("the examples' tests (mocks, a dataset and a cassette) pass as CI runs them: --replay --format junit", () => {
    const run = runCli(ROOT, ["test", "examples/workspace/tests", "--replay", "--format", "junit"]);
    assert.equal(run.code, 0, run.stdout + run.stderr);
    const xml = new XMLParser({ ignoreAttributes: false, attributeNamePrefix: "" }).parse(run.stdout) as {
      testsuites: { tests: string; failures: string; testsuite: { name: string; tests: string }[] };
    };
    assert.deepEqual(
      [xml.testsuites.tests, xml.testsuites.failures, xml.testsuites.testsuite.map((s) => [s.name, s.tests])],
      [
        "6",
        "0",
        [
          ["examples/workspace/tests/triage.rlmplan.test.json", "2"],
          ["examples/workspace/tests/word-summary.rlmplan.test.json", "4"],
        ],
      ],
    );
  });
});

describe("rlm-plan test: Ctrl-C", () => {
  const ws = cliWorkspace("test-cancel");

  test("cancels the running cases, runs no more, reports what ended and exits 130", async () => {
    ws.write("rlmplan.host.json", readFileSync(join(FIXTURES, "rlmplan.host.json"), "utf8"));
    ws.write("plans/label.rlmplan.json", readFileSync(join(FIXTURES, "plans", "label.rlmplan.json"), "utf8"));
    ws.write(
      "slow.rlmplan.test.json",
      JSON.stringify({
        plan: "plans/label.rlmplan.json",
        mocks: {
          tools: { fetch: [{ value: { title: "T" }, repeat: true, delayMs: 60000 }] },
          providers: { llm: [{ value: "x", repeat: true }] },
        },
        cases: [{ name: "a" }, { name: "b" }, { name: "c" }],
      }),
    );
    const child = spawn(process.execPath, [CLI, "test", "--jobs", "2"], {
      cwd: ws.dir,
      env: { ...process.env, NO_COLOR: "1" },
      stdio: ["ignore", "pipe", "pipe"],
    });
    const output = childOutput(child);
    // The header is written once every case is loaded and priced, just before they start.
    await new Promise<void>((started) =>
      child.stderr.on("data", (chunk: Buffer) => {
        if (chunk.toString().includes("3 cases in 1 file")) started();
      }),
    );
    child.kill("SIGINT");
    const run = await output;
    assert.equal(run.code, 130);
    // Both running cases end cancelled (in either order); the third never starts.
    const ended = run.stdout.split("\n").filter((line) => line.startsWith("FAIL"));
    assert.deepEqual(ended.map((line) => line.split("  ")[1]).sort(), [
      "slow.rlmplan.test.json#a",
      "slow.rlmplan.test.json#b",
    ]);
    assert.equal(run.stdout.match(/the run was cancelled \[execute\/cancelled\]/g)?.length, 4);
    assert.match(run.stdout, /\n0 passed, 2 failed \(2 cases, /);
    assert.match(run.stderr, /\nrlm-plan: the test run was cancelled; 1 case did not run\n$/);
  });
});
