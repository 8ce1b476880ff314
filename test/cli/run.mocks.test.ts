// Dry runs with mocks: the mocks file is checked against its schema with located errors;
// answers are consumed in order, matched on arguments or prompt text, fail with the kind asked
// for, and run out with a clear error; the example workspace's mocked plan runs in CI through
// the real CLI (no key, no tool program) and every output says it was mocked.

import assert from "node:assert/strict";
import { spawn } from "node:child_process";
import { childOutput } from "../support/childOutput";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, describe, test } from "node:test";
import { runPlan } from "@rlm-plan/core/run/startRun";
import { contains, mockProvider, mockTool, parseMocks } from "@rlm-plan/core/host";
import { CLI, ROOT } from "../support/cliWorkspace";

const PLAN = join("examples", "workspace", "mocks", "triage.rlmplan.json");
const MOCKS = join("examples", "workspace", "mocks", "triage.mocks.json");

describe("mocks file", () => {
  test("every problem located at file:line:col", () => {
    const text = `{
  "tools": {
    "t": [{ "value": 1, "error": { "message": "x" } }],
    "u": [{ "valu": 1 }]
  },
  "providerz": {}
}`;
    const result = parseMocks(text, "m.mocks.json");
    assert.ok(!result.ok);
    assert.deepEqual(
      result.errors.map((e) => `${e.line}:${e.column} ${e.message}`),
      [
        '3:11 item 1 of tool "t" must match exactly one schema in oneOf',
        '4:11 item 1 of tool "u" is missing "value"',
        '4:11 item 1 of tool "u" is missing "error"',
        '4:11 item 1 of tool "u" must match exactly one schema in oneOf',
        '4:13 unknown key "valu" in item 1 of tool "u": did you mean "value"? (the keys are match, value, error, delayMs, repeat)',
        '6:3 unknown key "providerz" in the mocks file: did you mean "providers"? (the keys are $schema, description, tools, providers)',
      ],
    );
  });

  test("a tool's answers: in order, matched on arguments, failures, used up", async () => {
    const tool = mockTool("fetch", [
      { match: { url: "b" }, value: "B" },
      { value: "first" },
      { error: { message: "down" } },
      { error: { kind: "timeout", message: "slow" } },
    ]);
    const signal = new AbortController().signal;
    const call = async (args: unknown) => {
      try {
        return await tool(args as never, { signal, tool: "fetch" });
      } catch (error) {
        return `error: ${(error as Error).message}`;
      }
    };
    assert.deepEqual(
      [await call({ url: "a" }), await call({ url: "b", extra: 1 }), await call({}), await call({}), await call({})],
      [
        "first",
        "B",
        "error: down",
        "error: timed out (mocked): slow",
        'error: the mock for tool "fetch" has no answer for call 5: all its answers are used up',
      ],
    );
  });

  test("a provider's answer matched on prompt text; repeat answers every later call", async () => {
    const provider = mockProvider("p", [
      { match: "Summarize", value: "short" },
      { value: "any", repeat: true },
    ]);
    const ask = (content: string) =>
      provider.complete(
        { messages: [{ role: "user", content }], options: Object.create(null) },
        { signal: new AbortController().signal, provider: "p" },
      );
    assert.deepEqual(
      [await ask("Hello"), await ask("Summarize this"), await ask("Hello"), await ask("Summarize")],
      ["any", "short", "any", "any"],
    );
  });

  test("contains: listed keys recursively, arrays item by item, other values equal", () => {
    assert.equal(contains({ a: { b: 1, c: 2 }, d: 3 }, { a: { b: 1 } }), true);
    assert.equal(contains({ a: [1, 2] }, { a: [1] }), false);
    assert.equal(contains("x", "x"), true);
    assert.equal(contains({ a: 1 }, { b: undefined as never }), false);
  });

  test("a not_json answer fails the step as a tool returning something that is not JSON", async () => {
    const outcome = await runPlan(
      {
        kind: "value",
        value: {
          steps: [
            { op: "tool", name: "t", args: 1, bind: "x" },
            { op: "final", value: 1 },
          ],
        },
      },
      { capabilities: ["tool(t)"] },
      { tools: new Map([["t", mockTool("t", [{ error: { kind: "not_json", message: "n/a" } }])]]) },
    );
    assert.ok(!outcome.ok);
    assert.deepEqual([outcome.error.kind, outcome.error.exception], ["tool_error", "result is not JSON"]);
  });
});

function cli(
  args: string[],
  env: NodeJS.ProcessEnv = {},
): Promise<{ code: number | null; stdout: string; stderr: string }> {
  const childEnv: NodeJS.ProcessEnv = { ...process.env, NO_COLOR: "1", ...env };
  delete childEnv.LOCAL_API_KEY;
  const child = spawn(process.execPath, [CLI, ...args], {
    cwd: ROOT,
    env: childEnv,
    stdio: ["ignore", "pipe", "pipe"],
  });
  // The run journal's last line ("recorded as run N") is cli.runs.test.ts's to test.
  return childOutput(child).then((run) => ({
    ...run,
    stderr: run.stderr.replace(/^rlm-plan: recorded as run \d+ in .*\n/m, ""),
  }));
}

describe("rlm-plan run --mocks: the example workspace's plan, as CI runs it", () => {
  test("without mocks it stops in preflight: the provider's key is not set", async () => {
    const run = await cli(["run", PLAN, "--json"]);
    assert.equal(run.code, 1);
    const result = JSON.parse(run.stdout.trim().split("\n").pop() as string) as Record<string, unknown>;
    assert.deepEqual((result.error as Record<string, unknown>).kind, "provider_key_missing");
    assert.equal(result.mocked, undefined);
  });

  test("with mocks: the value, and every JSON line marked mocked", async () => {
    const run = await cli(["run", PLAN, "--mocks", MOCKS, "--json"]);
    assert.equal(run.code, 0, run.stderr);
    const lines = run.stdout
      .trim()
      .split("\n")
      .map((line) => JSON.parse(line) as Record<string, unknown>);
    assert.deepEqual(
      lines.map((line) => [line.type, line.mocked, line.operation ?? null]),
      [
        ["transition", true, "tool(flaky_fetch)"],
        ["transition", true, "final"],
        ["transition", true, "retry"],
        ["transition", true, "checkpoint"],
        ["transition", true, "model(local)"],
        ["transition", true, "final"],
        ["result", true, null],
      ],
    );
    const result = lines[lines.length - 1] as Record<string, unknown>;
    assert.deepEqual(result.value, { title: "Example news", label: "news" });
    assert.deepEqual(result.checkpoints, ["fetched"]);
  });

  test("text output says mocked at the start and in the summary", async () => {
    const run = await cli(["run", PLAN, "--mocks", MOCKS]);
    assert.equal(run.code, 0, run.stderr);
    const err = run.stderr.split("\n");
    assert.equal(err[0], `rlm-plan: host profile ${join("examples", "workspace", "rlmplan.host.json")}`);
    assert.equal(err[1], `rlm-plan: mocked run: tools and providers in ${MOCKS} answer from it`);
    assert.match(err[err.length - 2] as string, /^rlm-plan: ok \(mocked\): 7 steps, /);
  });

  test("a failing mocked run names the failing step as file:line:col", async () => {
    const down = join("examples", "workspace", "mocks", "triage-down.mocks.json");
    const run = await cli(["run", PLAN, "--mocks", down]);
    assert.equal(run.code, 1);
    const lines = run.stderr.split("\n");
    assert.deepEqual(lines.slice(2, 5), [
      `     retry attempt 1/2 failed at ${PLAN}:12:11 [execute/tool_error]: tool "flaky_fetch" failed: connection reset by peer; retrying`,
      `     retry attempt 2/2 failed at ${PLAN}:12:11 [execute/tool_error]: tool "flaky_fetch" failed: timed out (mocked): no answer in 5 s; no attempts left`,
      `${PLAN}:12:11: run failed (mocked): tool "flaky_fetch" failed: timed out (mocked): no answer in 5 s [execute/tool_error]`,
    ]);
    const error = JSON.parse(lines.slice(5).join("\n")) as { path: unknown };
    assert.deepEqual(error.path, ["steps", 0, "plan", "steps", 0]);
  });

  test("a mocks file with a mistake: exit 2, located", async () => {
    const run = await cli(["run", PLAN, "--mocks", join("examples", "workspace", "mocks", "nope.mocks.json")]);
    assert.equal(run.code, 2);
    assert.match(run.stderr, /nope\.mocks\.json:1:1: cannot read the mocks file: no such file \(ENOENT\)/);
  });
});

describe("mocks that name no tool or provider: a warning with the nearest name", () => {
  const dir = mkdtempSync(join(tmpdir(), "rlm-plan-mock-names-"));
  after(() => rmSync(dir, { recursive: true, force: true }));
  // The example's mocks with the provider misspelt: the run would call the real `local`.
  const misspelt = join(dir, "locl.mocks.json");
  writeFileSync(
    misspelt,
    readFileSync(join(ROOT, MOCKS), "utf8")
      .replace('"local": [', '"locl": [')
      .replace('"flaky_fetch": [', '"flaky_fech": ['),
  );
  const at = (name: string) => {
    const lines = readFileSync(misspelt, "utf8").split("\n");
    const line = lines.findIndex((l) => l.includes(`"${name}"`));
    return `${misspelt}:${line + 1}:${(lines[line] ?? "").indexOf(`"${name}"`) + 1}`;
  };

  test("run: said before the run, located, then the run goes on as it would", async () => {
    const run = await cli(["run", PLAN, "--mocks", misspelt]);
    assert.deepEqual(run.stderr.split("\n").slice(0, 4), [
      `rlm-plan: host profile ${join("examples", "workspace", "rlmplan.host.json")}`,
      `${at("flaky_fech")}: warning: the plan calls no tool "flaky_fech" and the host registers none, so this mock is never used: did you mean "flaky_fetch"?`,
      `${at("locl")}: warning: the plan calls no provider "locl" and the host registers none, so this mock is never used: did you mean "local"?`,
      `rlm-plan: mocked run: tools and providers in ${misspelt} answer from it`,
    ]);
  });

  test("check FILE.mocks.json: the same warnings under the host profile in force (exit 0: warnings)", async () => {
    const run = await cli(["check", misspelt, "--host", join("examples", "workspace", "rlmplan.host.json")]);
    assert.equal(run.stderr, "");
    assert.equal(
      run.stdout,
      [
        `${at("flaky_fech")}: warning: the host registers no tool "flaky_fech", so this mock is never used: did you mean "flaky_fetch"? [unused_mock]`,
        `${at("locl")}: warning: the host registers no provider "locl", so this mock is never used: did you mean "local"? [unused_mock]`,
        `${misspelt}: ok (mocks file), 2 warnings`,
        "",
      ].join("\n"),
    );
    assert.equal(run.code, 0);
    const fine = await cli(["check", MOCKS]);
    assert.equal(fine.stdout, `${MOCKS}: ok (mocks file)\n`);
  });
});
