// `rlm-plan estimate`, run as the built CLI in a child process from the repository root.

import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, describe, test } from "node:test";
import { CLI, cliWorkspace, ROOT } from "../support/cliWorkspace";

interface Run {
  readonly code: number | null;
  readonly stdout: string;
  readonly stderr: string;
}

function rlmPlan(...args: string[]): Run {
  const result = spawnSync(process.execPath, [CLI, ...args], {
    cwd: ROOT,
    encoding: "utf8",
    env: { ...process.env, NO_COLOR: "1" },
  });
  return { code: result.status, stdout: result.stdout, stderr: result.stderr };
}

const dir = mkdtempSync(join(tmpdir(), "rlm-plan-cli-estimate-"));
after(() => rmSync(dir, { recursive: true, force: true }));

interface EstimateJson {
  file: string;
  ok: boolean;
  error?: string;
  estimate: Record<string, number> | null;
  budget: Record<string, number> | null;
  exceeded: { budget: string; field: string; estimated: number; limit: number }[];
  problems: { severity: string; code: string; line: number; column: number }[];
  silentCaps: { severity: string; code: string; line: number; column: number; message: string }[];
}

const DEFAULT_BUDGET = {
  max_steps: 64,
  max_depth: 4,
  max_parallel: 8,
  max_model_calls: 8,
  max_tool_calls: 16,
  max_context_ops: 32,
  max_output_bytes: 65536,
  time_limit: 10,
};

describe("rlm-plan estimate: the table", () => {
  test("needle-count within its host profile's budget; its count of a search listed as a silent cap", () => {
    const file = "examples/workspace/plans/needle-count.rlmplan.json";
    const run = rlmPlan("estimate", file);
    assert.equal(
      run.stdout,
      [
        `${file}:12:29: hint: count_items counts at most 32 items here: "hits" is a context search result, and a search stops at 32 hits without saying so (context.max_results in rlmplan.host.json) [silent_cap]`,
        `${file}:9:27: note: this search returns at most 32 hits`,
        `${file}: worst case / budget`,
        "  steps               3 / 64",
        "  depth               1 / 4",
        "  parallel width      0 / 8",
        "  model calls         0 / 8",
        "  tool calls          1 / 8",
        "  context operations  1 / 32",
        `${file}: within budget`,
        "",
      ].join("\n"),
    );
    assert.equal(run.stderr, "");
    assert.equal(run.code, 0);
  });

  test("retry multiplies its plan's steps and calls by its attempts", () => {
    const file = "examples/workspace/plans/retry-flaky.rlmplan.json";
    const run = rlmPlan("estimate", file);
    assert.deepEqual(run.stdout.split("\n").slice(1, 7), [
      "  steps               11 / 64",
      "  depth                2 / 4",
      "  parallel width       0 / 8",
      "  model calls          0 / 8",
      "  tool calls           3 / 8",
      "  context operations   0 / 32",
    ]);
    assert.equal(run.code, 0);
  });

  test("over budget: the rows are marked, the verdict names them, status 1", () => {
    const file = "examples/plans/nested-rlm.rlmplan.json";
    const run = rlmPlan("estimate", file, "--budget", '{"max_depth": 2, "max_steps": 100, "max_model_calls": 0}');
    assert.equal(
      run.stdout,
      [
        `${file}: worst case / budget`,
        "  steps               8 / 100",
        "  depth               3 / 2    over budget",
        "  parallel width      0 / 8",
        "  model calls         1 / 0    over budget",
        "  tool calls          0 / 16",
        "  context operations  2 / 32",
        `${file}: over budget (depth, model calls)`,
        "",
      ].join("\n"),
    );
    assert.equal(run.code, 1);
  });

  test("--budget default is the default budget", () => {
    const run = rlmPlan("estimate", "--budget", "default", "examples/plans/parallel-summary.rlmplan.json");
    assert.equal(run.stdout.split("\n")[3], "  parallel width       3 / 8");
    assert.equal(run.code, 0);
  });
});

describe("rlm-plan estimate: money", () => {
  // The example profile prices "local" at 0.15 (input) and 0.6 (output) per million tokens, with
  // maxTokens 256; the prompt is an input, bounded by max_output_bytes 65536 (+ 8 of template):
  // (65544 * 0.15 + 256 * 0.6) / 1e6 = 0.0099852 USD.
  const file = "examples/workspace/plans/word-summary.rlmplan.json";

  test("the worst case in money beside the call counts", () => {
    const run = rlmPlan("estimate", file);
    assert.equal(run.code, 0, run.stderr);
    const lines = run.stdout.split("\n");
    assert.deepEqual(lines.slice(-4), [
      "  context operations  0 / 32",
      "  cost                0.009985 USD",
      `${file}: within budget`,
      "",
    ]);
    const json = JSON.parse(rlmPlan("estimate", "--json", file).stdout) as { cost: unknown };
    assert.deepEqual(json.cost, { currency: "USD", worst_case: 0.0099852, max_cost: null, unpriced: [] });
  });

  test("over the host's max_cost, or unpriced under it, is over budget (exit 1)", () => {
    const ws = cliWorkspace("estimate-money");
    ws.write(
      "rlmplan.host.json",
      JSON.stringify({
        capabilities: ["model(a)", "model(b)"],
        budget: { max_cost: 0.0005 },
        providers: {
          a: {
            type: "openai-chat",
            baseUrl: "http://127.0.0.1:9/v1",
            model: "m",
            price: { input_per_mtok: 2, output_per_mtok: 10 },
            maxTokens: 100,
          },
          b: { type: "openai-chat", baseUrl: "http://127.0.0.1:9/v1", model: "m" },
        },
      }),
    );
    // (5 + 8) * 2 + 100 * 10 = 1026 per million: 0.001026 > 0.0005.
    ws.write(
      "a.rlmplan.json",
      JSON.stringify({
        steps: [
          { op: "model", provider: "a", prompt: "hello", bind: "r" },
          { op: "final", value: 1 },
        ],
      }),
    );
    ws.write(
      "b.rlmplan.json",
      JSON.stringify({
        steps: [
          { op: "model", provider: "b", prompt: "hello", bind: "r" },
          { op: "final", value: 1 },
        ],
      }),
    );
    const over = ws.cli("estimate", "a.rlmplan.json");
    assert.equal(over.code, 1);
    assert.deepEqual(over.stdout.split("\n").slice(-3), [
      "  cost                0.001026 USD / 0.0005 USD  over budget",
      "a.rlmplan.json: over budget (cost)",
      "",
    ]);
    const unpriced = ws.cli("estimate", "--json", "b.rlmplan.json");
    assert.equal(unpriced.code, 1);
    const json = JSON.parse(unpriced.stdout) as { cost: unknown; exceeded: unknown };
    assert.deepEqual(json.cost, {
      currency: "USD",
      worst_case: null,
      max_cost: 0.0005,
      unpriced: ['provider "b" has no price in the host profile'],
    });
    assert.deepEqual(json.exceeded, [{ budget: "cost", field: "max_cost", estimated: null, limit: 0.0005 }]);
  });
});

describe("rlm-plan estimate --json", () => {
  // The example workspace's host profile sets max_tool_calls 8 and time_limit 30; examples/plans/
  // has no host profile, so the default budget applies there.
  const WORKSPACE_BUDGET = { ...DEFAULT_BUDGET, max_tool_calls: 8, time_limit: 30 };
  const expected: [string, Record<string, number>][] = [
    [
      "examples/workspace/plans/needle-count.rlmplan.json",
      { steps: 3, depth: 1, parallel_width: 0, model_calls: 0, tool_calls: 1, context_ops: 1 },
    ],
    [
      "examples/plans/partition-map-reduce.rlmplan.json",
      { steps: 5, depth: 1, parallel_width: 0, model_calls: 0, tool_calls: 0, context_ops: 4 },
    ],
    [
      "examples/plans/parallel-summary.rlmplan.json",
      { steps: 10, depth: 2, parallel_width: 3, model_calls: 4, tool_calls: 1, context_ops: 0 },
    ],
    [
      "examples/workspace/plans/retry-flaky.rlmplan.json",
      { steps: 11, depth: 2, parallel_width: 0, model_calls: 0, tool_calls: 3, context_ops: 0 },
    ],
    [
      "examples/plans/nested-rlm.rlmplan.json",
      { steps: 8, depth: 3, parallel_width: 0, model_calls: 1, tool_calls: 0, context_ops: 2 },
    ],
  ];
  for (const [file, estimate] of expected) {
    test(`${file}: the worst case and its budget`, () => {
      const run = rlmPlan("estimate", "--json", file);
      assert.deepEqual(JSON.parse(run.stdout), {
        file,
        ok: true,
        estimate,
        budget: file.startsWith("examples/workspace/") ? WORKSPACE_BUDGET : DEFAULT_BUDGET,
        exceeded: [],
        // Priced only under a host profile; these plans make no model call there.
        cost: file.startsWith("examples/workspace/")
          ? { currency: "USD", worst_case: 0, max_cost: null, unpriced: [] }
          : null,
        problems: [],
        silentCaps: JSON.parse(run.stdout).silentCaps,
      });
      assert.deepEqual(
        (JSON.parse(run.stdout) as EstimateJson).silentCaps.map((hint) => [hint.code, hint.line, hint.column]),
        file.endsWith("needle-count.rlmplan.json") ? [["silent_cap", 12, 29]] : [],
      );
      assert.equal(run.code, 0);
    });
  }

  test("exceeded figures come with their budget field, estimate and limit", () => {
    const file = "examples/plans/parallel-summary.rlmplan.json";
    const run = rlmPlan("estimate", "--json", "--budget", '{"max_parallel": 2, "max_model_calls": 3}', file);
    const out = JSON.parse(run.stdout) as EstimateJson;
    assert.equal(out.ok, false);
    assert.deepEqual(out.budget, { ...DEFAULT_BUDGET, max_parallel: 2, max_model_calls: 3 });
    assert.deepEqual(out.exceeded, [
      { budget: "parallel", field: "max_parallel", estimated: 3, limit: 2 },
      { budget: "model_calls", field: "max_model_calls", estimated: 4, limit: 3 },
    ]);
    assert.deepEqual(
      out.problems.map((p) => [p.severity, p.code]),
      [
        ["warning", "budget_exceeded"],
        ["warning", "budget_exceeded"],
      ],
    );
    assert.equal(run.code, 1);
  });

  test("a plan with errors: no estimate, the problems, status 1", () => {
    const run = rlmPlan("estimate", "--json", "examples/plans/broken.rlmplan.json");
    const out = JSON.parse(run.stdout) as EstimateJson;
    assert.equal(out.ok, false);
    assert.equal(out.estimate, null);
    assert.deepEqual(out.budget, DEFAULT_BUDGET);
    assert.deepEqual(
      out.problems.map((p) => [p.code, p.line, p.column]),
      [
        ["unknown_operator", 14, 13],
        ["unbound_variable", 19, 76],
        ["duplicate_binding", 20, 94],
      ],
    );
    assert.equal(run.code, 1);
  });
});

describe("rlm-plan estimate: worst cases beyond 2^53", () => {
  // Four nested retries around one tool step: 1e6 × 1000 × 123457 × 99999 attempts.
  let inner: unknown = {
    steps: [
      { op: "tool", name: "echo", args: 1, bind: "n" },
      { op: "final", value: 1 },
    ],
  };
  for (const [i, attempts] of [1000000, 1000, 123457, 99999].entries()) {
    inner = {
      steps: [
        { op: "retry", attempts, plan: inner, bind: `r${i}` },
        { op: "final", value: 1 },
      ],
    };
  }
  const file = join(dir, "bignum.rlmplan.json");
  writeFileSync(file, JSON.stringify(inner));

  test("--json prints the exact integers", () => {
    const run = rlmPlan("estimate", "--json", "--budget", '{"max_depth": 8}', file);
    assert.match(run.stdout, /"steps": 24691177801844439086,\n/);
    assert.match(run.stdout, /"tool_calls": 12345576543000000000,\n/);
    assert.match(run.stdout, /"estimated": 24691177801844439086,\n/);
    assert.equal(run.code, 1);
  });

  test("the table shows the exact figures", () => {
    const run = rlmPlan("estimate", "--budget", '{"max_depth": 8}', file);
    const lines = run.stdout.split("\n");
    assert.equal(lines[1], "  steps               24691177801844439086 / 64  over budget");
    assert.equal(lines[5], "  tool calls          12345576543000000000 / 16  over budget");
    assert.equal(run.code, 1);
  });
});

describe("rlm-plan estimate: failures", () => {
  test("a plan with errors prints them as check does, and no table", () => {
    const file = "examples/plans/broken.rlmplan.json";
    const run = rlmPlan("estimate", file);
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

  test("a JSON syntax error is located", () => {
    const file = join(dir, "syntax.rlmplan.json");
    writeFileSync(file, '{"steps": [\n  {"op": "final", "value": [1, 2}\n]}\n');
    const run = rlmPlan("estimate", file);
    assert.equal(run.stdout.split("\n")[0], `${file}:2:33: error: invalid JSON: comma expected [invalid_json]`);
    assert.equal(run.code, 1);
  });

  test("an unreadable file: which and why on stderr, status 1", () => {
    const missing = join(dir, "missing.rlmplan.json");
    const run = rlmPlan("estimate", missing);
    assert.equal(run.stdout, "");
    assert.equal(run.stderr, `rlm-plan: cannot read ${missing}: no such file (ENOENT)\n`);
    assert.equal(run.code, 1);
    const json = rlmPlan("estimate", "--json", missing);
    assert.deepEqual(JSON.parse(json.stdout), {
      file: missing,
      ok: false,
      error: "cannot read: no such file (ENOENT)",
      estimate: null,
      budget: null,
      exceeded: [],
      cost: null,
      problems: [],
      silentCaps: [],
    });
    assert.equal(json.code, 1);
  });

  const usage: [string, string[], string][] = [
    ["no file", ["estimate"], "rlm-plan: estimate needs a FILE"],
    ["two files", ["estimate", "a.json", "b.json"], "rlm-plan: estimate takes one FILE"],
    [
      "--capabilities (check only)",
      ["estimate", "--capabilities", "rlm", "a.json"],
      "rlm-plan: unknown option --capabilities",
    ],
    [
      "an invalid budget value",
      ["estimate", "--budget", '{"max_steps": 0}', "a.json"],
      "rlm-plan: --budget: max_steps must be a positive integer, got the number 0",
    ],
  ];
  for (const [what, args, message] of usage) {
    test(`usage error, ${what}: status 2`, () => {
      const run = rlmPlan(...args);
      assert.equal(run.code, 2);
      assert.equal(run.stdout, "");
      assert.equal(run.stderr, `${message}\nsee rlm-plan estimate --help\n`);
    });
  }
});

describe("rlm-plan estimate: silent caps under a host profile", () => {
  const project = mkdtempSync(join(tmpdir(), "rlm-plan-cli-caps-"));
  after(() => rmSync(project, { recursive: true, force: true }));
  writeFileSync(
    join(project, "rlmplan.host.json"),
    JSON.stringify({
      capabilities: ["context(search)", "context(reduce)", "tool(tally)"],
      context: { max_results: 5 },
      inputs: { log: { type: "text", text: "a\nb" } },
      tools: { tally: { type: "builtin", builtin: "count_items" } },
    }),
  );
  const log = { ref: "input", name: "log" };
  const plan = (name: string, steps: unknown[]): string => {
    const file = join(project, name);
    writeFileSync(file, JSON.stringify({ steps }));
    return file;
  };
  const capped = plan("capped.rlmplan.json", [
    { op: "context", handle: log, action: { type: "search", pattern: "ERROR" }, bind: "errors" },
    { op: "tool", name: "tally", args: { ref: "var", name: "errors" }, bind: "n" },
    { op: "final", value: { ref: "var", name: "n" } },
  ]);
  const direct = plan("direct.rlmplan.json", [
    { op: "context", handle: log, action: { type: "reduce", reducer: "count" }, bind: "lines" },
    { op: "final", value: { ref: "var", name: "lines" } },
  ]);

  test("the host's max_results and its tool name for count_items, in text and --json", () => {
    const message =
      'tally counts at most 5 items here: "errors" is a context search result, and a search stops at 5 hits without saying so (context.max_results in rlmplan.host.json)';
    const run = rlmPlan("estimate", capped);
    assert.deepEqual(run.stdout.split("\n").slice(0, 3), [
      `${capped}:1:147: hint: ${message} [silent_cap]`,
      `${capped}:1:82: note: this search returns at most 5 hits`,
      `${capped}: worst case / budget`,
    ]);
    assert.equal(run.code, 0);
    const json = JSON.parse(rlmPlan("estimate", "--json", capped).stdout) as EstimateJson;
    assert.deepEqual(
      json.silentCaps.map(({ severity, code, line, column, message }) => ({ severity, code, line, column, message })),
      [{ severity: "hint", code: "silent_cap", line: 1, column: 147, message }],
    );
  });

  test("counting an input's lines directly: nothing listed", () => {
    const run = rlmPlan("estimate", direct);
    assert.equal(run.stdout.split("\n")[0], `${direct}: worst case / budget`);
    assert.deepEqual((JSON.parse(rlmPlan("estimate", "--json", direct).stdout) as EstimateJson).silentCaps, []);
  });

  test("check does not report silent caps: they are hints, not problems", () => {
    const run = rlmPlan("check", capped);
    assert.equal(run.stdout, `${capped}: ok (3 steps)\n`);
    assert.equal(run.code, 0);
  });
});
