// `rlm-plan run --input-text / --input-json / --inputs`: input values on the command line beside
// --input NAME=PATH (still a file). A real CLI process each time: the values reach the plan as
// the core's rule makes them (a text a context, a value as given), every refusal is one exact
// line and exit 2, a resumed run gets the same values, a value equal to a key is masked, and
// `run --queue` sends the values in its job to a real worker (a real redis-server).

import assert from "node:assert/strict";
import { spawn } from "node:child_process";
import { existsSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { after, before, describe, test } from "node:test";
import { childOutput } from "../support/childOutput";
import { CLI, cliWorkspace, type CliWorkspace } from "../support/cliWorkspace";
import { redisMissing, startRedis, type RedisServer } from "../support/redisServer";
import { startWorker, stopWorker, type WorkerProcess } from "../support/workerProcess";

// Echoes its arguments; first marks that it started and waits while the file "block" exists.
const HOLD_TOOL = `
let input = "";
process.stdin.on("data", (c) => (input += c));
process.stdin.on("end", () => {
  require("fs").writeFileSync("started", "");
  const wait = () => (require("fs").existsSync("block") ? setTimeout(wait, 50) : process.stdout.write(input));
  wait();
});
`;

const KEY = "sk-inline-inputs-test-key-0123456789";

function workspace(name: string): CliWorkspace {
  const ws = cliWorkspace(name);
  ws.write("hold.js", HOLD_TOOL);
  ws.write("hay.txt", "one needle\nhay\n");
  ws.write(
    "rlmplan.host.json",
    JSON.stringify({
      capabilities: ["context(search)", "tool(hold)"],
      budget: { max_tool_calls: 3 },
      inputs: {
        haystack: { type: "text-file", path: "hay.txt" },
        limit: { type: "value", value: 2, schema: { type: "integer", minimum: 1 } },
      },
      // It marks its start in the workspace: a path it declares it writes (the sandbox keeps the rest read-only).
      tools: { hold: { type: "command", command: [process.execPath, "hold.js"], timeoutMs: 60000, writes: ["."] } },
      // Never called: its key variable is what the mask hides.
      providers: { m: { type: "openai-chat", baseUrl: "http://127.0.0.1:9/v1", model: "x", apiKeyEnv: "INLINE_KEY" } },
    }),
  );
  ws.write(
    "plan.rlmplan.json",
    JSON.stringify({
      steps: [
        {
          op: "context",
          handle: { ref: "input", name: "haystack" },
          action: { type: "search", pattern: "needle" },
          bind: "hits",
        },
        {
          op: "tool",
          name: "hold",
          args: {
            hits: { ref: "var", name: "hits" },
            limit: { ref: "input", name: "limit" },
            note: { ref: "input", name: "note" },
          },
          bind: "held",
        },
        { op: "final", value: { ref: "var", name: "held" } },
      ],
    }),
  );
  return ws;
}

function cli(ws: CliWorkspace, ...args: string[]) {
  const child = spawn(process.execPath, [CLI, ...args], {
    cwd: ws.dir,
    env: { ...process.env, NO_COLOR: "1", INLINE_KEY: KEY },
    stdio: ["ignore", "pipe", "pipe"],
  });
  return { child, output: childOutput(child) };
}

async function ran(ws: CliWorkspace, ...args: string[]) {
  return cli(ws, "run", "plan.rlmplan.json", ...args).output;
}

function value(stdout: string): unknown {
  return (JSON.parse(stdout.trim().split("\n").pop() as string) as { value: unknown }).value;
}

describe("rlm-plan run: input values on the command line", () => {
  const ws = workspace("inline-inputs");

  test("--input-text is a text (searched as a context), --input-json a value, over the profile's", async () => {
    const given = await ran(
      ws,
      "--json",
      "--input-text",
      "haystack=a needle\nno\nneedle two",
      "--input-json",
      "limit=5",
      "--input-json",
      'note={"k":[1,true]}',
    );
    assert.equal(given.code, 0, given.stderr);
    assert.deepEqual(value(given.stdout), {
      hits: [
        { index: 0, value: "a needle" },
        { index: 2, value: "needle two" },
      ],
      limit: 5,
      note: { k: [1, true] },
    });
  });

  test("--inputs FILE.json gives values; an option gives one over it; --input is still a file", async () => {
    ws.write("values.json", JSON.stringify({ haystack: "needle", limit: 3, note: "from the file" }));
    ws.write("other.txt", "needle\nneedle\n");
    const out = await ran(
      ws,
      "--json",
      "--inputs",
      "values.json",
      "--input-text",
      "note=from the option",
      "--no-journal",
    );
    assert.equal(out.code, 0, out.stderr);
    assert.deepEqual(value(out.stdout), {
      hits: [{ index: 0, value: "needle" }],
      limit: 3,
      note: "from the option",
    });
    const file = await ran(ws, "--json", "--input", "haystack=other.txt", "--input-text", "note=n", "--no-journal");
    assert.equal(file.code, 0, file.stderr);
    assert.deepEqual(value(file.stdout), {
      hits: [
        { index: 0, value: "needle" },
        { index: 1, value: "needle" },
      ],
      limit: 2,
      note: "n",
    });
  });

  const refusals: [string, string[], string][] = [
    [
      "an unknown name",
      ["--input-text", "haystak=x"],
      'rlm-plan: --input-text haystak: no input "haystak": the host profile does not declare it and the plan does not read it (inputs: haystack, limit, note)',
    ],
    [
      "bad JSON, with its column",
      ["--input-json", 'limit={"a":'],
      "rlm-plan: --input-json limit: not JSON at column 6 (invalid JSON: value expected)\nsee rlm-plan run --help",
    ],
    [
      "a value its schema refuses",
      ["--input-json", "limit=0"],
      'rlm-plan: --input-json limit: input "limit" does not match its schema: must be >= 1',
    ],
    [
      "a text given a number",
      ["--input-json", "haystack=3"],
      'rlm-plan: --input-json haystack: input "haystack" is a text: give a string, not a number',
    ],
    [
      "a name given twice",
      ["--input", "haystack=hay.txt", "--input-text", "haystack=x"],
      'rlm-plan: input "haystack" is given twice (--input and --input-text)\nsee rlm-plan run --help',
    ],
    [
      "an inputs file that is not JSON, at its line and column",
      ["--inputs", "broken.json"],
      "rlm-plan: broken.json:2:12: not JSON (invalid JSON: value expected): --inputs takes a JSON object of input name -> value\nsee rlm-plan run --help",
    ],
    [
      "an inputs file that is not an object",
      ["--inputs", "list.json"],
      "rlm-plan: list.json:1:1: --inputs takes a JSON object of input name -> value\nsee rlm-plan run --help",
    ],
    [
      "a missing inputs file",
      ["--inputs", "missing.json"],
      "rlm-plan: --inputs: cannot read missing.json: ENOENT: no such file or directory, open 'missing.json'\nsee rlm-plan run --help",
    ],
  ];
  for (const [what, args, message] of refusals) {
    test(`refused with exit 2: ${what}`, async () => {
      ws.write("broken.json", '{\n  "limit": }\n');
      ws.write("list.json", "[1]");
      const out = await ran(ws, "--input-text", "note=n", "--no-journal", ...args);
      assert.equal(out.code, 2, out.stderr);
      assert.equal(out.stdout, "");
      assert.equal(
        out.stderr
          .split("\n")
          .filter((l) => l !== "rlm-plan: host profile rlmplan.host.json")
          .join("\n")
          .trimEnd(),
        message,
      );
    });
  }

  test("a value equal to a key is masked in the output, in errors and in the journal", async () => {
    const out = await ran(ws, "--json", "--input-text", `note=${KEY}`);
    assert.equal(out.code, 0, out.stderr);
    assert.deepEqual((value(out.stdout) as { note: string }).note, "***");
    const refused = await ran(ws, "--input-text", "note=n", "--input-json", `limit="${KEY}"`);
    assert.equal(refused.code, 2);
    assert.ok(!`${refused.stdout}${refused.stderr}`.includes(KEY), refused.stderr);
    assert.ok(!`${out.stdout}${out.stderr}`.includes(KEY));
    for (const file of ["runs.sqlite", "runs.sqlite-wal"].map((f) => join(ws.dir, ".rlm-plan", f)))
      if (existsSync(file)) assert.ok(!readFileSync(file).includes(KEY), file);
  });
});

describe("rlm-plan run --resume with input values", () => {
  test("a run killed mid-way resumes with the values it was given", async () => {
    const ws = workspace("inline-inputs-resume");
    writeFileSync(join(ws.dir, "block"), "");
    const { child, output } = cli(
      ws,
      "run",
      "plan.rlmplan.json",
      "--json",
      "--input-text",
      "haystack=needle one\nneedle two",
      "--input-json",
      "limit=7",
      "--input-text",
      "note=kept",
    );
    for (let i = 0; i < 600 && !existsSync(join(ws.dir, "started")); i++) await new Promise((r) => setTimeout(r, 50));
    child.kill("SIGKILL");
    assert.equal((await output).code, null);
    rmSync(join(ws.dir, "block"));
    const resumed = await cli(ws, "run", "--resume", "1", "--json").output;
    assert.equal(resumed.code, 0, resumed.stderr);
    assert.deepEqual(value(resumed.stdout), {
      hits: [
        { index: 0, value: "needle one" },
        { index: 1, value: "needle two" },
      ],
      limit: 7,
      note: "kept",
    });
    const refused = await cli(ws, "run", "--resume", "1", "--input-json", "limit=8").output;
    assert.equal(refused.code, 2);
    assert.equal(
      refused.stderr,
      "rlm-plan: --resume runs with the options the run was recorded with; input values cannot be given\nsee rlm-plan run --help\n",
    );
  });
});

describe("rlm-plan run --queue with input values", { skip: redisMissing() }, () => {
  const ws = workspace("inline-inputs-queue");
  let redis: RedisServer;
  let worker: WorkerProcess;
  before(async () => {
    redis = await startRedis();
    worker = await startWorker(ws.dir, "solo", ["--queue", redis.url("inputs")]);
  });
  after(async () => {
    if (worker) await stopWorker(worker);
    await redis?.stop();
  });

  test("the values travel in the job; --input (a local file) is refused with what to use", async () => {
    const queued = await cli(
      ws,
      "run",
      "plan.rlmplan.json",
      "--json",
      "--queue",
      redis.url("inputs"),
      "--input-text",
      "haystack=no\nneedle",
      "--input-json",
      "limit=4",
      "--input-text",
      "note=queued",
    ).output;
    assert.equal(queued.code, 0, queued.stderr);
    assert.deepEqual(value(queued.stdout), { hits: [{ index: 1, value: "needle" }], limit: 4, note: "queued" });
    const file = await cli(
      ws,
      "run",
      "plan.rlmplan.json",
      "--queue",
      redis.url("inputs"),
      "--input",
      "haystack=hay.txt",
    ).output;
    assert.equal(file.code, 2);
    assert.equal(
      file.stderr,
      "rlm-plan: --input cannot be given with --queue: the worker runs the plan with its own host profile's inputs and telemetry (give values with --input-text, --input-json or --inputs: they travel in the job)\nsee rlm-plan run --help\n",
    );
  });
});
