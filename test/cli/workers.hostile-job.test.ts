// What a worker does with jobs it must not run, and what a submitter sees: a real redis-server,
// a real `rlm-plan worker`, jobs put on the queue raw with BullMQ. A malformed or hostile payload
// (not an object, a capability field, nesting 1,500 deep, an old format, bad mocks) is failed at
// once with a message, never retried, and the worker goes on; a plan that asks for a tool the
// worker's profile does not grant is refused at its check, once, the refusal a typed value of
// the job's result. `run --queue` prints what a local run prints and names the worker's journal
// entry, the run's one record (nothing is written twice). A Redis password is never printed.

import assert from "node:assert/strict";
import { after, before, describe, test } from "node:test";
import type { Queue } from "bullmq";
import { cliWorkspace, runCli, runCliAsync } from "../support/cliWorkspace";
import { redisMissing, startRedis, type RedisServer } from "../support/redisServer";
import { startWorker, stopWorker, type WorkerProcess } from "../support/workerProcess";

const skip = redisMissing();

describe("rlm-plan worker: hostile jobs and run --queue", { skip }, () => {
  let redis: RedisServer;
  let worker: WorkerProcess;
  let queue: Queue;
  const ws = cliWorkspace("worker-hostile");

  before(async () => {
    redis = await startRedis();
    ws.write(
      "rlmplan.host.json",
      JSON.stringify({
        capabilities: ["model(llm)"],
        providers: {
          llm: { type: "openai-chat", baseUrl: "http://127.0.0.1:9/v1", model: "m1", apiKeyEnv: "HOSTILE_KEY" },
        },
      }),
    );
    ws.write(
      "ask.rlmplan.json",
      JSON.stringify({
        steps: [
          { op: "model", provider: "llm", prompt: "hello", bind: "a" },
          { op: "final", value: { ref: "var", name: "a" } },
        ],
      }),
    );
    ws.write("ask.mocks.json", JSON.stringify({ providers: { llm: [{ value: { greeting: "hi" } }] } }));
    worker = await startWorker(ws.dir, "solo", ["--queue", redis.url("hostile"), "--concurrency", "2"], {
      HOSTILE_KEY: "k",
    });
    const { Queue } = await import("bullmq");
    queue = new Queue("hostile", { connection: { host: "127.0.0.1", port: redis.port }, prefix: "rlm-plan" });
  });
  after(async () => {
    await queue?.close();
    if (worker) await stopWorker(worker);
    await redis?.stop();
  });

  /** Adds a raw job and resolves to how it ended. */
  async function ending(data: unknown): Promise<{ failedReason?: string; attemptsMade: number; returnvalue: unknown }> {
    const job = await queue.add("run", data, { attempts: 3 });
    for (;;) {
      const now = await queue.getJob(job.id as string);
      if (now?.finishedOn !== undefined) {
        await new Promise((resolve) => setTimeout(resolve, 300)); // a retry would show by now
        const last = await queue.getJob(job.id as string);
        return {
          failedReason: last?.failedReason,
          attemptsMade: last?.attemptsMade ?? 0,
          returnvalue: last?.returnvalue,
        };
      }
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  }

  const plan = { name: "p.rlmplan.json", text: '{"steps":[{"op":"final","value":1}]}' };
  let deep: unknown = 1;
  for (let i = 0; i < 1500; i++) deep = [deep];
  const cases: [string, unknown, RegExp][] = [
    ["a text, not an object", "rm -rf /", /^malformed job: the job's data is not a JSON object$/],
    [
      "a capability asked for",
      { v: 2, kind: "run", plan, capabilities: ["tool(shell)"] },
      /^malformed job: unknown field "capabilities": a job names a plan and what it is given .*; capabilities, tools and providers come from the worker's host profile$/,
    ],
    [
      "a host profile named",
      { v: 2, kind: "run", plan, hostProfile: "/etc/passwd" },
      /^malformed job: unknown field "hostProfile"/,
    ],
    [
      "nesting 1,500 deep",
      { v: 2, kind: "run", plan, inputs: { deep } },
      /^malformed job: the job's data nests deeper than 1000 levels$/,
    ],
    [
      "an old format",
      { v: 0, kind: "run", plan },
      /^malformed job: "v" must be 2 \(this worker reads jobs of format 2\)/,
    ],
    [
      "__proto__ as a key",
      JSON.parse('{"__proto__": {"polluted": true}, "v": 2}') as unknown,
      /^malformed job: unknown field "__proto__"/,
    ],
    ["mocks that are not mocks", { v: 2, kind: "run", plan, mocks: { tools: 7 } }, /^malformed job: the job's mocks: /],
  ];
  for (const [what, data, reason] of cases)
    test(`refused at once, never retried: ${what}`, async () => {
      const end = await ending(data);
      assert.match(end.failedReason ?? "", reason);
      assert.equal(end.attemptsMade, 1);
      assert.equal(worker.child.exitCode, null, worker.log());
    });

  test("a tool the worker's profile does not grant: refused at its check once, as a typed value of the result", async () => {
    const end = await ending({
      v: 2,
      kind: "run",
      plan: {
        name: "x.rlmplan.json",
        text: '{"steps":[{"op":"tool","name":"shell","args":{},"bind":"a"},{"op":"final","value":1}]}',
      },
    });
    assert.equal(end.failedReason, undefined);
    assert.equal(end.attemptsMade, 1);
    const result = (typeof end.returnvalue === "string" ? JSON.parse(end.returnvalue) : end.returnvalue) as {
      kind: string;
      worker: string;
      report: { stage: string; outcome: { ok: boolean; error: { phase: string; kind: string } } };
    };
    assert.deepEqual(
      [result.kind, result.worker, result.report.stage, result.report.outcome.ok, result.report.outcome.error.phase],
      ["refused", "solo", "check", false, "validate"],
    );
    await worker.waitFor(/job \S+: refused: the plan failed its check on this worker \(validate\//);
  });

  test("the worker still runs jobs after them: run --queue prints what a local run prints, and is recorded here", async () => {
    const local = runCli(ws.dir, ["run", "ask.rlmplan.json", "--mocks", "ask.mocks.json", "--no-journal"]);
    const queued = await runCliAsync(
      ws.dir,
      ["run", "ask.rlmplan.json", "--mocks", "ask.mocks.json", "--queue", redis.url("hostile")],
      {
        HOSTILE_KEY: "k",
      },
    );
    assert.equal(queued.code, 0, queued.stderr);
    assert.equal(queued.stdout, local.stdout);
    assert.equal(queued.stdout, '{\n  "greeting": "hi"\n}\n');
    const lines = queued.stderr.split("\n");
    assert.equal(
      lines[0],
      `rlm-plan: sending the plan to ${redis.url("hostile")}: a worker runs it under its host profile`,
    );
    assert.ok(lines.includes("rlm-plan: worker solo runs the job"), queued.stderr);
    assert.match(queued.stderr, /\n {2}1 {2}model\(llm\) {2}-> a {2}ok +\d+ ms\n {2}2 {2}final +ok +\d+ ms\n/);
    assert.match(
      queued.stderr,
      /\nrlm-plan: ok \(mocked\): 2 steps, 0 context ops, 0 tool calls, 1 model call, \d+ output bytes\n/,
    );
    const recorded = /recorded as run (\d+) in \.rlm-plan/.exec(queued.stderr)?.[1];
    assert.ok(recorded, queued.stderr);
    const shown = runCli(ws.dir, ["runs", "show", recorded, "--json"]);
    assert.equal(shown.code, 0, shown.stderr);
    const run = JSON.parse(shown.stdout) as { status: string; origin: string; events: { event: { type: string } }[] };
    // The worker's entry (its journal is this workspace's): one record, not a second one here.
    assert.deepEqual([run.status, run.origin], ["ok", "worker"]);
    const listed = runCli(ws.dir, ["runs", "list", "--json"]);
    const runs = JSON.parse(listed.stdout) as { origin: string }[];
    assert.equal(runs.filter((r) => r.origin === "cli").length, 0, listed.stdout);
    assert.deepEqual(
      run.events.map((e) => e.event.type),
      ["step_started", "transition", "step_finished", "step_started", "transition", "step_finished"],
    );
    assert.match(worker.log(), /job \S+: refused: malformed job: unknown field "capabilities"/);
  });

  test("a Redis password is never printed: the worker says *** and Redis's own refusal", () => {
    const password = "hunter2-correct-horse-battery";
    const run = runCli(ws.dir, ["worker", "--queue", `redis://alice:${password}@127.0.0.1:${redis.port}/hostile`]);
    assert.equal(run.code, 2);
    assert.equal(
      run.stderr,
      `rlm-plan worker: cannot reach Redis at redis://alice:***@127.0.0.1:${redis.port}/hostile: WRONGPASS invalid username-password pair or user is disabled.\n`,
    );
    assert.ok(!`${run.stdout}${run.stderr}`.includes(password));
    const usage = runCli(ws.dir, ["worker", "--queue", "http://127.0.0.1/q"]);
    assert.equal(usage.code, 2);
    assert.match(usage.stderr, /^rlm-plan: --queue needs a redis:\/\/ or rediss:\/\/ URL, not http:\/\/;/);
  });
});
