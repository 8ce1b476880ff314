// One printer of run events (cli/src/runEventPrinter.ts): a retry plan whose first attempt fails
// prints the same lines from `run`, `runs show`, `propose --run`, `run --queue` and the worker's
// log of the job, failed attempt included, and `run --json` / `propose --run --json` carry the
// failed attempt in their result (`failed_attempts`) without --events.

import { strict as assert } from "node:assert";
import { rmSync } from "node:fs";
import { join } from "node:path";
import { test } from "node:test";
import { startChatServer } from "../support/chatServer";
import { cliWorkspace, jsonLines, runCliAsync } from "../support/cliWorkspace";
import { redisMissing, startRedis } from "../support/redisServer";
import { startWorker, stopWorker } from "../support/workerProcess";

const ws = cliWorkspace("failed-attempts");
const COUNTER = join(ws.dir, "calls.txt");
// Fails on its first call after the counter is removed, succeeds after.
const TOOL = `
const fs = require("node:fs");
process.stdin.resume();
process.stdin.on("end", () => {
  let n = 0;
  try { n = Number(fs.readFileSync(process.argv[2], "utf8")); } catch {}
  fs.writeFileSync(process.argv[2], String(n + 1));
  if (n === 0) { process.stderr.write("flaky: the first call fails\\n"); process.exit(1); }
  process.stdout.write(JSON.stringify("fetched"));
});
`;
const PLAN_TEXT = `{
  "steps": [
    {
      "op": "retry",
      "attempts": 3,
      "plan": {
        "steps": [
          { "op": "tool", "name": "flaky", "args": {}, "bind": "page" },
          { "op": "final", "value": { "ref": "var", "name": "page" } }
        ]
      },
      "bind": "page"
    },
    { "op": "final", "value": { "ref": "var", "name": "page" } }
  ]
}
`;
const tool = ws.write("flaky.js", TOOL);
ws.write("plan.rlmplan.json", PLAN_TEXT);

function profile(baseUrl = "http://127.0.0.1:9/v1"): void {
  ws.write(
    "rlmplan.host.json",
    JSON.stringify({
      capabilities: ["retry", "tool(flaky)", "model(local)"],
      // It counts its calls in the workspace: a path it declares it writes.
      tools: { flaky: { type: "command", command: [process.execPath, tool, COUNTER], writes: ["."] } },
      providers: { local: { type: "openai-chat", baseUrl, model: "m" } },
    }),
  );
}
profile();

const REASON = 'tool "flaky" failed: exited with status 1: flaky: the first call fails';
/** What `run` prints of the run's steps on stderr, durations as "N ms". */
const RUN_LINES = [
  `     retry attempt 1/3 failed at plan.rlmplan.json:8:11 [execute/tool_error]: ${REASON}; retrying`,
  "  1  tool(flaky)  -> page  ok N ms",
  "  2  final                 ok N ms",
  "  3  retry        -> page  ok N ms",
  "  4  final                 ok N ms",
];

/** The step lines of a text: transitions and failed attempts, durations as "N ms". */
function stepLines(text: string): string[] {
  return text
    .split("\n")
    .filter((line) => /^ +\d+ {2}\S/.test(line) || line.startsWith("     retry attempt "))
    .map((line) => line.replace(/ +\d+ ms( |$)/, " N ms$1"));
}

async function cli(args: string[]) {
  rmSync(COUNTER, { force: true });
  return runCliAsync(ws.dir, args);
}

test("run prints the failed attempt among the transitions; runs show prints the same lines", async () => {
  const run = await cli(["run", "plan.rlmplan.json"]);
  assert.equal(run.code, 0, run.stderr);
  assert.deepEqual(stepLines(run.stderr), RUN_LINES);
  const shown = ws.cli("runs", "show", "1");
  assert.equal(shown.code, 0, shown.stderr);
  const text = shown.stdout;
  const section = text.slice(text.indexOf("transitions:\n"), text.indexOf("\n\nvalue:"));
  assert.deepEqual(
    section
      .split("\n")
      .slice(1)
      // The same lines as run's, each transition ending with its step's path (what run --step takes).
      .map((line) => line.replace(/ +\d+ ms {2}steps\/\S+$/, " N ms")),
    RUN_LINES,
  );
});

test("run --json without --events: the failed attempt is in the result's failed_attempts", async () => {
  const run = await cli(["run", "plan.rlmplan.json", "--json"]);
  assert.equal(run.code, 0, run.stderr);
  const lines = jsonLines(run.stdout);
  assert.deepEqual(
    lines.map((line) => line["operation"] ?? line["type"]),
    ["tool(flaky)", "final", "retry", "final", "result"],
  );
  const result = lines[4] as { failed_attempts: Record<string, unknown>[] };
  assert.deepEqual(result.failed_attempts.map(timeless), [FAILED_ATTEMPT]);
  // The same event --events streams.
  const streamed = await cli(["run", "plan.rlmplan.json", "--json", "--events"]);
  const events = jsonLines<{ type: string; event?: Record<string, unknown> }>(streamed.stdout).flatMap((line) =>
    line.event?.["type"] === "attempt_failed" ? [timeless(line.event)] : [],
  );
  assert.deepEqual(events, [FAILED_ATTEMPT]);
});

test("propose --run prints the run's steps as run does; --json carries the failed attempt", async () => {
  const chat = await startChatServer([], { kind: "ok", text: PLAN_TEXT });
  try {
    profile(chat.baseUrl);
    const text = await cli(["propose", "fetch a page", "--provider", "local", "--run"]);
    assert.equal(text.code, 0, text.stderr);
    const after = text.stdout.slice(text.stdout.indexOf("\nrun:\n"));
    assert.deepEqual(
      stepLines(after),
      RUN_LINES.map((line) => line.replace("plan.rlmplan.json", "proposed plan")),
    );
    const json = await cli(["propose", "fetch a page", "--provider", "local", "--run", "--json"]);
    assert.equal(json.code, 0, json.stderr);
    const run = (JSON.parse(json.stdout) as { run: { failed_attempts: Record<string, unknown>[] } }).run;
    // Ranges are the proposed text's, which propose prints formatted: the rest is the same event.
    assert.deepEqual(run.failed_attempts.map(timeless).map(rangeless), [rangeless(FAILED_ATTEMPT)]);
  } finally {
    profile();
    await chat.close();
  }
});

test(
  "run --queue prints the lines run prints, and so does the worker's log of the job",
  { skip: redisMissing() },
  async () => {
    const redis = await startRedis();
    const worker = await startWorker(ws.dir, "w1", ["--queue", redis.url("events"), "--no-journal"]);
    try {
      const run = await cli(["run", "plan.rlmplan.json", "--queue", redis.url("events")]);
      assert.equal(run.code, 0, run.stderr);
      assert.deepEqual(stepLines(run.stderr), RUN_LINES);
      // The job's id is the submitter's (a uuid): its lines are those of the one job.
      await worker.waitFor(/: done \(ok\)/);
      const logged = worker
        .log()
        .split("\n")
        .flatMap((line) => /^rlm-plan worker: job [^ ]+: (.*)$/.exec(line)?.slice(1) ?? []);
      assert.deepEqual(stepLines(logged.join("\n")), RUN_LINES);
    } finally {
      await stopWorker(worker);
      await redis.stop();
    }
  },
);

/** The failed attempt's event, its timings aside. */
const FAILED_ATTEMPT = {
  type: "attempt_failed",
  path: ["steps", 0],
  operation: "retry",
  bind: "page",
  depth: 1,
  range: { offset: 19, length: 268 },
  attempt: 1,
  attempts: 3,
  retrying: true,
  remaining: { steps: 62, model_calls: 8, tool_calls: 15, context_ops: 32, output_bytes: 65536 },
  error: {
    phase: "execute",
    kind: "tool_error",
    message: REASON,
    path: ["steps", 0, "plan", "steps", 0],
    range: { offset: 108, length: 61 },
  },
};

function rangeless(event: Record<string, unknown>): Record<string, unknown> {
  const { range: _range, error, ...rest } = event;
  const { range: _errorRange, ...cause } = error as Record<string, unknown>;
  return { ...rest, error: cause };
}

function timeless(event: Record<string, unknown>): Record<string, unknown> {
  const { elapsed_ms: _elapsed, duration_ms: _duration, ...rest } = event;
  return rest;
}
