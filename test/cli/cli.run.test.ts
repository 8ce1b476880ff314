// `rlm-plan run`, as a real child process: the example workspace, streamed transitions, --json
// lines, exit statuses, located host-profile errors, no secrets in output, and Ctrl-C killing
// a running tool.

import assert from "node:assert/strict";
import { spawn } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, describe, test } from "node:test";
import { runCommand } from "rlm-plan/run";
import { processState } from "@rlm-plan/core/host/processGroup";
import { childOutput } from "../support/childOutput";
import { CLI_RUN_MODULE, ROOT } from "../support/cliWorkspace";

const TOOLS = join(ROOT, "test", "fixtures", "tools");
// Until `run` is wired into cli/main.ts, a one-line program calls runCommand on this process.
const SCRIPT = `require(${JSON.stringify(CLI_RUN_MODULE)}).runCommand(process.argv.slice(1), process).then((code) => { process.exitCode = code; });`;

interface Run {
  readonly code: number | null;
  readonly stdout: string;
  /** stderr without its first line when that names the host profile (see `host`). */
  readonly stderr: string;
  /** The host profile the command said it used, or undefined. */
  readonly host?: string;
}

/**
 * Takes the "rlm-plan: host profile FILE" line off stderr, into `host`, and the run journal's
 * number off (the "recorded as run N" line, a JSON result's "run"): it depends on which tests
 * ran in the same workspace before (cli.runs.test.ts tests the journal).
 */
function withHost(given: { code: number | null; stdout: string; stderr: string }): Run {
  const run = {
    ...given,
    stdout: given.stdout.replace(/,"run":\d+\}$/gm, "}"),
    stderr: given.stderr.replace(/^rlm-plan: recorded as run \d+ in .*\n/m, ""),
  };
  const match = /^rlm-plan: host profile (.*)\n/.exec(run.stderr);
  return match ? { ...run, stderr: run.stderr.slice(match[0].length), host: match[1] } : run;
}

/** Runs the command in a child process; tests run side by side, so this never blocks. */
let flakyKeys = 0;
function rlmPlanRun(args: readonly string[], env: NodeJS.ProcessEnv = {}): Promise<Run> {
  // Each run its own flaky_fetch state (examples/workspace/state/): runs of it in parallel apart.
  const flaky = { FLAKY_KEY: `cli-run-${process.pid}-${++flakyKeys}` };
  const child = spawn(process.execPath, ["-e", SCRIPT, ...args], {
    cwd: ROOT,
    env: { ...process.env, NO_COLOR: "1", ...flaky, ...env },
    stdio: ["ignore", "pipe", "pipe"],
  });
  return childOutput(child).then(withHost);
}

/** Transition lines with their durations (which vary) replaced by "N ms". */
function lines(text: string): string[] {
  return text
    .split("\n")
    .filter((line) => line !== "")
    .map((line) => line.replace(/ +\d+ ms$/, " N ms"));
}

async function inProcess(args: readonly string[]): Promise<Run> {
  let stdout = "";
  let stderr = "";
  const code = await runCommand(args, {
    stdout: { write: (text: string) => (stdout += text) },
    stderr: { write: (text: string) => (stderr += text) },
    handleSignals: false,
  });
  return withHost({ code, stdout, stderr });
}

const dir = mkdtempSync(join(tmpdir(), "rlm-plan-cli-run-"));
after(() => rmSync(dir, { recursive: true, force: true }));

let workspaces = 0;
/** A workspace folder with a host profile and plan files; returns its folder. */
function workspace(profile: unknown, plans: Record<string, unknown>): string {
  const folder = join(dir, `w${++workspaces}`);
  mkdirSync(folder, { recursive: true });
  writeFileSync(
    join(folder, "rlmplan.host.json"),
    typeof profile === "string" ? profile : JSON.stringify(profile, null, 2),
  );
  for (const [name, plan] of Object.entries(plans)) {
    writeFileSync(join(folder, name), typeof plan === "string" ? plan : JSON.stringify(plan, null, 2));
  }
  return folder;
}

const NEEDLE = "examples/workspace/plans/needle-count.rlmplan.json";

describe("rlm-plan run: the example workspace", { concurrency: true }, () => {
  test("needle-count: the value on stdout, each transition on stderr, in order", async () => {
    const run = await rlmPlanRun([NEEDLE]);
    assert.equal(run.code, 0, run.stderr);
    assert.equal(run.stdout, "12\n");
    assert.equal(run.host, "examples/workspace/rlmplan.host.json");
    assert.deepEqual(lines(run.stderr), [
      "  1  context(search)    -> hits   ok N ms",
      "  2  tool(count_items)  -> count  ok N ms",
      "  3  final                        ok N ms",
      "rlm-plan: ok: 3 steps, 1 context op, 1 tool call, 0 model calls, 793 output bytes",
    ]);
  });

  test("--json: one line per transition, then the result", async () => {
    const run = await rlmPlanRun([NEEDLE, "--json"]);
    assert.equal(run.code, 0, run.stderr);
    assert.equal(run.stderr, "");
    const events = run.stdout
      .trimEnd()
      .split("\n")
      .map((line) => JSON.parse(line) as Record<string, unknown>);
    assert.deepEqual(
      events.map(({ elapsed_ms, duration_ms, ...rest }) => {
        if (rest.type === "transition") {
          assert.equal(typeof elapsed_ms, "number");
          assert.equal(typeof duration_ms, "number");
        }
        return rest;
      }),
      [
        {
          type: "transition",
          sequence: 1,
          operation: "context(search)",
          bind: "hits",
          status: "ok",
          remaining: { steps: 63, model_calls: 8, tool_calls: 8, context_ops: 31, output_bytes: 64747 },
        },
        {
          type: "transition",
          sequence: 2,
          operation: "tool(count_items)",
          bind: "count",
          status: "ok",
          remaining: { steps: 62, model_calls: 8, tool_calls: 7, context_ops: 31, output_bytes: 64745 },
        },
        {
          type: "transition",
          sequence: 3,
          operation: "final",
          bind: null,
          status: "ok",
          remaining: { steps: 61, model_calls: 8, tool_calls: 7, context_ops: 31, output_bytes: 64743 },
        },
        {
          type: "result",
          ok: true,
          value: 12,
          checkpoints: [],
          budget_remaining: { steps: 61, model_calls: 8, tool_calls: 7, context_ops: 31, output_bytes: 64743 },
          host_profile: "examples/workspace/rlmplan.host.json",
        },
      ],
    );
  });

  const EXPECTED: Record<string, unknown> = {
    "partition-map-reduce": {
      byte_count: 10097,
      chunk_sizes: [4, 4, 2],
      line_count: 300,
      tags: ["hay", "needle", "barn", "straw"],
    },
    parallel: { counts: [12, 3, 4], total: 19 },
    "retry-flaky": "the page at https://example.invalid/page, fetched on the second try",
    "nested-rlm": {
      first_records: [
        { id: 1, level: "info", message: "service started" },
        { id: 2, level: "info", message: "loaded 300 lines of hay" },
      ],
      needle_words: { texts: 12, words: 108 },
    },
  };
  for (const [name, value] of Object.entries(EXPECTED)) {
    test(`${name} runs offline to its value`, async () => {
      const run = await rlmPlanRun([`examples/workspace/plans/${name}.rlmplan.json`]);
      assert.equal(run.code, 0, run.stderr);
      assert.deepEqual(JSON.parse(run.stdout), value);
    });
  }

  test("retry-flaky: the failed attempt leaves its checkpoint, the second one succeeds", async () => {
    const run = await rlmPlanRun(["examples/workspace/plans/retry-flaky.rlmplan.json", "--json"]);
    assert.equal(run.code, 0, run.stderr);
    const events = run.stdout
      .trimEnd()
      .split("\n")
      .map((line) => JSON.parse(line) as { type: string; operation?: string; checkpoints?: string[] });
    assert.deepEqual(
      events.map((e) => e.operation ?? e.type),
      ["checkpoint", "checkpoint", "tool(flaky_fetch)", "final", "retry", "final", "result"],
    );
    assert.deepEqual(events[6]?.checkpoints, ["fetch attempt", "fetch attempt"]);
  });

  test("retry-flaky: a failed attempt is a line naming where and why it failed; --events streams it as JSON", async () => {
    const plan = "examples/workspace/plans/retry-flaky.rlmplan.json";
    const reason =
      'tool "flaky_fetch" failed: exited with status 1: flaky_fetch: simulated transient failure, try again';
    const text = await rlmPlanRun([plan]);
    assert.equal(text.code, 0, text.stderr);
    assert.deepEqual(lines(text.stderr), [
      "  1  checkpoint                  ok N ms",
      `     retry attempt 1/3 failed at ${plan}:12:11 [execute/tool_error]: ${reason}; retrying`,
      "  2  checkpoint                  ok N ms",
      "  3  tool(flaky_fetch)  -> page  ok N ms",
      "  4  final                       ok N ms",
      "  5  retry              -> page  ok N ms",
      "  6  final                       ok N ms",
      "rlm-plan: ok: 7 steps, 0 context ops, 2 tool calls, 0 model calls, 453 output bytes",
    ]);
    const json = await rlmPlanRun([plan, "--json", "--events"]);
    const events = json.stdout
      .trimEnd()
      .split("\n")
      .map((line) => JSON.parse(line) as { type: string; event?: { type: string; path: unknown; error?: unknown } })
      .flatMap((line) => (line.event && line.event.type.endsWith("_failed") ? [line.event] : []));
    const error = {
      phase: "execute",
      kind: "tool_error",
      message: reason,
      path: ["steps", 0, "plan", "steps", 1],
      range: { offset: 374, length: 167 },
    };
    assert.deepEqual(
      events.map((e) => [e.type, e.path, e.error]),
      [
        ["step_failed", ["steps", 0, "plan", "steps", 1], error],
        ["attempt_failed", ["steps", 0], error],
      ],
    );
  });

  test("--input replaces an input with a text file", async () => {
    const file = join(dir, "two-needles.txt");
    writeFileSync(file, "hay\nneedle\nhay\nneedle");
    const run = await rlmPlanRun([NEEDLE, "--input", `haystack=${file}`]);
    assert.equal(run.code, 0, run.stderr);
    assert.equal(run.stdout, "2\n");
  });
});

describe("rlm-plan run: failures and exit statuses", { concurrency: true }, () => {
  const profile = {
    capabilities: ["tool(count_items)"],
    inputs: { n: { type: "value", value: 5 } },
    tools: { count_items: { type: "builtin", builtin: "count_items" } },
  };

  test("an invalid plan: exit 1, located, with the structured error", async () => {
    const folder = workspace(profile, {
      "bad.rlmplan.json":
        '{"steps": [\n  {"op": "tool", "name": "count_items", "args": {"ref": "var", "name": "nope"}, "bind": "c"},\n  {"op": "final", "value": 1}\n]}',
    });
    const plan = join(folder, "bad.rlmplan.json");
    const run = await rlmPlanRun([plan]);
    assert.equal(run.code, 1);
    assert.equal(run.stdout, "");
    const [first, ...rest] = run.stderr.split("\n");
    assert.equal(
      first,
      `${plan}:2:72: invalid plan: variable "nope" is not bound here: bind it in an earlier step of this plan or an enclosing one [validate/invalid_plan]`,
    );
    assert.deepEqual(JSON.parse(rest.join("\n")), {
      phase: "validate",
      kind: "invalid_plan",
      message: 'variable "nope" is not bound here: bind it in an earlier step of this plan or an enclosing one',
      detail: "unbound_variable(nope)",
      reason: "unbound_variable",
      path: ["steps", 0, "args", "name"],
    });
  });

  test("a capability the host does not grant: exit 1", async () => {
    const folder = workspace(profile, {
      "p.rlmplan.json": {
        steps: [
          { op: "checkpoint", label: "x" },
          { op: "final", value: 1 },
        ],
      },
    });
    const run = await rlmPlanRun([join(folder, "p.rlmplan.json"), "--json"]);
    assert.equal(run.code, 1);
    const result = JSON.parse(run.stdout) as {
      type: string;
      ok: boolean;
      error: { kind: string };
      location: unknown;
      budget_remaining: unknown;
    };
    assert.equal(result.type, "result");
    assert.equal(result.ok, false);
    assert.equal(result.error.kind, "capability_denied");
    assert.deepEqual(result.location, { file: join(folder, "p.rlmplan.json"), line: 4, column: 13 });
    // One rule with the server: a run that never started keeps its whole budget (not zeros).
    assert.deepEqual(result.budget_remaining, {
      steps: 64,
      model_calls: 8,
      tool_calls: 16,
      context_ops: 32,
      output_bytes: 65536,
    });
  });

  test("every failed attempt: a line with its reason, the host's secrets masked, in text and in --events", async () => {
    const key = "sk-EventsSentinel-4f7a9c2e1b";
    const keyVar = "RLM_EVENTS_SENTINEL_VAR";
    const tool =
      "console.error('starting up\\nauth failed for ' + process.env.RLM_EVENTS_SENTINEL_VAR); process.exit(1)";
    const folder = workspace(
      {
        capabilities: ["retry", "tool(login)"],
        tools: { login: { type: "command", command: [process.execPath, "-e", tool], inheritEnv: [keyVar] } },
        // Only the provider's apiKeyEnv says this variable holds a key: the mask learns it there.
        providers: { p: { type: "openai-chat", baseUrl: "http://127.0.0.1:9/v1", model: "m", apiKeyEnv: keyVar } },
      },
      {
        "p.rlmplan.json": {
          steps: [
            {
              op: "retry",
              attempts: 2,
              plan: {
                steps: [
                  { op: "tool", name: "login", args: {}, bind: "s" },
                  { op: "final", value: 1 },
                ],
              },
              bind: "r",
            },
            { op: "final", value: 1 },
          ],
        },
      },
    );
    const plan = join(folder, "p.rlmplan.json");
    // The tool's last line of stderr, as the runtime quotes it, with the key masked.
    const reason = 'tool "login" failed: exited with status 1: auth failed for ***';
    const text = await rlmPlanRun([plan], { [keyVar]: key });
    assert.equal(text.code, 1);
    assert.deepEqual(lines(text.stderr).slice(0, 3), [
      `     retry attempt 1/2 failed at ${plan}:8:11 [execute/tool_error]: ${reason}; retrying`,
      `     retry attempt 2/2 failed at ${plan}:8:11 [execute/tool_error]: ${reason}; no attempts left`,
      `${plan}:8:11: run failed: ${reason} [execute/tool_error]`,
    ]);
    const json = await rlmPlanRun([plan, "--json", "--events"], { [keyVar]: key });
    const failures = json.stdout
      .trimEnd()
      .split("\n")
      .map((line) => JSON.parse(line) as { event?: { type: string; attempt?: number; error?: { message: string } } })
      .flatMap(({ event }) => (event?.error ? [`${event.type} ${event.attempt ?? "-"} ${event.error.message}`] : []));
    assert.deepEqual(failures, [
      `step_failed 1 ${reason}`,
      `attempt_failed 1 ${reason}`,
      `step_failed 2 ${reason}`,
      `attempt_failed 2 ${reason}`,
      `step_failed - ${reason}`,
    ]);
    for (const output of [text.stdout, text.stderr, json.stdout, json.stderr]) {
      assert.ok(!output.includes("4f7a9c2e1b"), output);
    }
  });

  test("an execution error: exit 1 with phase, kind and message", async () => {
    const folder = workspace(profile, {
      "p.rlmplan.json": {
        steps: [
          { op: "tool", name: "count_items", args: { ref: "input", name: "n" }, bind: "c" },
          { op: "final", value: 1 },
        ],
      },
    });
    const run = await rlmPlanRun([join(folder, "p.rlmplan.json")]);
    assert.equal(run.code, 1);
    const [first, ...rest] = run.stderr.split("\n");
    // The failing step, located in the plan file (line 3: the tool step of the written plan).
    assert.equal(
      first,
      `${join(folder, "p.rlmplan.json")}:3:5: run failed: tool "count_items" failed: count_items expects a list [execute/tool_error]`,
    );
    assert.deepEqual(JSON.parse(rest.join("\n")), {
      phase: "execute",
      kind: "tool_error",
      tool: "count_items",
      exception: "count_items expects a list",
      message: 'tool "count_items" failed: count_items expects a list',
      path: ["steps", 0],
    });
  });

  test("a bad host profile: exit 2, every problem at file:line:col", async () => {
    const text = [
      "{",
      '  "capabilities": ["rlm"],',
      '  "tools": {',
      '    "t": { "type": "command", "command": ["x"], "timeout": 5 }',
      "  },",
      '  "inputs": { "h": { "type": "text-file", "path": 3 } }',
      "}",
    ].join("\n");
    const folder = workspace(text, { "p.rlmplan.json": { steps: [{ op: "final", value: 1 }] } });
    const run = await rlmPlanRun([join(folder, "p.rlmplan.json")]);
    assert.equal(run.code, 2);
    assert.equal(run.stdout, "");
    const file = join(folder, "rlmplan.host.json");
    assert.equal(
      run.stderr,
      `${file}:4:49: unknown key "timeout" in tool "t": did you mean "timeoutMs"? (the keys are type, command, cwd, env, inheritEnv, writes, network, timeoutMs, maxStdoutBytes, maxStderrBytes, inputSchema, returns, description)\n` +
        `${file}:6:51: "path" of input "h" must be text, got the number 3\n`,
    );
  });

  test("--host names the profile; a relative path is shown as given", async () => {
    const run = await rlmPlanRun([NEEDLE, "--host", "test/fixtures/tools/README.md"]);
    assert.equal(run.code, 2);
    assert.match(run.stderr, /^test\/fixtures\/tools\/README\.md:1:1: invalid JSON: /);
  });

  test("a data file that cannot be read: refused by preflight at the plan's reference, the profile's place named", async () => {
    const folder = workspace(
      {
        capabilities: ["context(reduce)"],
        inputs: { h: { type: "text-file", path: "missing.txt" } },
      },
      {
        "p.rlmplan.json": { steps: [{ op: "final", value: 1 }] },
        "reads.rlmplan.json": {
          steps: [
            {
              op: "context",
              handle: { ref: "input", name: "h" },
              action: { type: "reduce", reducer: "count" },
              bind: "n",
            },
            { op: "final", value: { ref: "var", name: "n" } },
          ],
        },
      },
    );
    // A plan that never reads the input does not pay for it, even when its file is missing.
    const unused = await rlmPlanRun([join(folder, "p.rlmplan.json")]);
    assert.deepEqual([unused.code, unused.stdout], [0, "1\n"]);
    const run = await rlmPlanRun([join(folder, "reads.rlmplan.json")]);
    assert.equal(run.code, 1);
    const plan = join(folder, "reads.rlmplan.json");
    assert.equal(
      run.stderr.split("\n")[0],
      `${plan}:7:17: run failed: cannot read "missing.txt" for input "h": no such file (ENOENT) (declared at ${join(folder, "rlmplan.host.json")}:8:15) [preflight/input_unavailable]`,
    );
  });

  test("no host profile: exit 2", async () => {
    const folder = join(dir, "lonely");
    mkdirSync(folder);
    writeFileSync(join(folder, "p.rlmplan.json"), '{"steps": [{"op": "final", "value": 1}]}');
    const run = await rlmPlanRun([join(folder, "p.rlmplan.json")]);
    assert.equal(run.code, 2);
    assert.equal(
      run.stderr,
      `rlm-plan: no host profile: there is no rlmplan.host.json in the folder of ${join(folder, "p.rlmplan.json")} or any folder above it; create one or pass --host FILE\n`,
    );
  });

  test("no plan: exit 2", async () => {
    const run = await rlmPlanRun(["examples/workspace/plans/nope.rlmplan.json"]);
    assert.equal(run.code, 2);
    assert.equal(
      run.stderr,
      "rlm-plan: cannot read the plan examples/workspace/plans/nope.rlmplan.json: no such file (ENOENT)\n",
    );
  });

  // Argument mistakes need no child process: runCommand in this one, with captured streams.
  for (const [args, message] of [
    [[], "run needs a PLAN file"],
    [["a", "b"], "run takes one PLAN file"],
    [[NEEDLE, "--bogus"], "unknown option --bogus"],
    [[NEEDLE, "--input", "novalue"], "--input needs NAME=PATH, for example --input haystack=data/big.txt"],
    [[NEEDLE, "--host"], "--host needs a FILE"],
    [[NEEDLE, "--json=yes"], "--json takes no value"],
  ] as const) {
    test(`usage: ${message}`, async () => {
      const run = await inProcess(args);
      assert.equal(run.code, 2);
      assert.equal(run.stdout, "");
      assert.equal(run.stderr, `rlm-plan: ${message}\nsee rlm-plan run --help\n`);
    });
  }

  test("--help", async () => {
    const run = await inProcess(["--help"]);
    assert.equal(run.code, 0);
    assert.equal(run.stderr, "");
    assert.match(run.stdout, /^rlm-plan run: run a plan file against the workspace's host profile\n/);
  });
});

describe("rlm-plan run: secrets and cancellation", { concurrency: true }, () => {
  test("a provider's key never reaches the output", async () => {
    const secret = "sk-test-0123456789abcdef";
    const folder = workspace(
      {
        capabilities: ["model(local)"],
        inputs: { q: { type: "value", value: "hello" } },
        providers: {
          local: { type: "openai-chat", baseUrl: "http://127.0.0.1:9/v1", model: "m", apiKeyEnv: "RLM_TEST_KEY" },
        },
      },
      {
        "p.rlmplan.json": {
          steps: [
            { op: "model", provider: "local", prompt: { ref: "input", name: "q" }, bind: "a" },
            { op: "final", value: { ref: "var", name: "a" } },
          ],
        },
      },
    );
    for (const json of [false, true]) {
      const run = await rlmPlanRun([join(folder, "p.rlmplan.json"), ...(json ? ["--json"] : [])], {
        RLM_TEST_KEY: secret,
      });
      assert.equal(run.code, 1, run.stderr);
      assert.match(json ? run.stdout : run.stderr, /model_error/);
      assert.ok(!run.stdout.includes(secret) && !run.stderr.includes(secret), "the key was printed");
    }
  });

  test("Ctrl-C during a slow command tool: exit 130, the tool and its child are gone", async () => {
    const pidFile = join(dir, "sigint-pids.json");
    const folder = workspace(
      {
        capabilities: ["tool(slow)", "checkpoint"],
        inputs: { args: { type: "value", value: { pidFile } } },
        // Outside the sandbox: the test follows the tool's tree by the host pids it writes.
        sandbox: "off",
        tools: { slow: { type: "command", command: [process.execPath, join(TOOLS, "tree.js")], timeoutMs: 20000 } },
      },
      {
        "p.rlmplan.json": {
          steps: [
            { op: "checkpoint", label: "before" },
            { op: "tool", name: "slow", args: { ref: "input", name: "args" }, bind: "r" },
            { op: "final", value: { ref: "var", name: "r" } },
          ],
        },
      },
    );
    const child = spawn(process.execPath, ["-e", SCRIPT, join(folder, "p.rlmplan.json")], {
      cwd: ROOT,
      env: { ...process.env, NO_COLOR: "1" },
      stdio: ["ignore", "pipe", "pipe"],
    });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on("data", (chunk: Buffer) => (stderr += chunk.toString()));
    const exited = new Promise<number | null>((done) => child.on("close", (code) => done(code)));

    // A bound on a hang, not a speed check: the machine may be loaded.
    const deadline = Date.now() + 30000;
    while (!existsSync(pidFile)) {
      if (Date.now() > deadline) assert.fail(`the tool never started; stderr: ${stderr}`);
      await new Promise((r) => setTimeout(r, 10));
    }
    const pids = JSON.parse(readFileSync(pidFile, "utf8")) as { child: number; grandchild: number };
    assert.equal(processState(pids.grandchild), "running");
    child.kill("SIGINT");
    const code = await exited;

    // Cancelled, not ended by the tool's 20 s timeout: the status and the last lines say which.
    assert.equal(code, 130);
    assert.equal(stdout, "");
    assert.deepEqual(lines(stderr), [
      `rlm-plan: host profile ${join(folder, "rlmplan.host.json")}`,
      "  1  checkpoint        ok N ms",
      "rlm-plan: cancelling...",
      "rlm-plan: the run was cancelled",
      // Run from the repository's root, which would not find this journal: the command names it.
      `rlm-plan: recorded as run 1 in ${join(folder, ".rlm-plan")}; continue it with rlm-plan run --resume 1 --journal ${join(folder, ".rlm-plan")}`,
    ]);
    assert.notEqual(processState(pids.child), "running", "the tool is still running");
    assert.notEqual(processState(pids.grandchild), "running", "the tool's child is still running");
  });
});
