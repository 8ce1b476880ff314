// The queue's workers as a fleet: a real redis-server on 127.0.0.1, real `rlm-plan worker`
// processes, `rlm-plan test --queue` as the submitter, and a scripted chat-completions server
// that counts every model call. A 300-case mocked dataset comes back with every case exactly
// once; a worker SIGKILLed mid-job loses nothing (its jobs run again on the others, resumed from
// the shared journal: the model is not asked again for the steps that had completed); a worker
// sent SIGTERM finishes its job first and exits 0; a fleet ceiling of N model calls is never
// exceeded across three workers.

import assert from "node:assert/strict";
import { after, before, describe, test } from "node:test";
import { startChatServer, type Answer, type ChatServer, type RecordedRequest } from "../support/chatServer";
import { cliWorkspace, runCliAsync } from "../support/cliWorkspace";
import { redisMissing, startRedis, type RedisServer } from "../support/redisServer";
import { startWorker, stopWorker, type WorkerProcess } from "../support/workerProcess";

interface ReportedCase {
  id: string;
  index: number;
  ok: boolean;
  failures: { message: string }[];
  queued?: { worker: string; attempt: number; resumed?: number };
}
interface Report {
  cases: ReportedCase[];
  summary: { total: number; passed: number; failed: number };
}

const skip = redisMissing();
const LOCK = ["--lock-ms", "2000"];

/** The prompt text of a recorded chat request (its last message). */
function prompt(request: RecordedRequest): string {
  const body = request.body as { messages?: { content?: unknown }[] } | undefined;
  const last = body?.messages?.at(-1)?.content;
  return typeof last === "string" ? last : "";
}

describe("rlm-plan worker: a fleet of three on one Redis", { skip }, () => {
  let redis: RedisServer;
  let server: ChatServer;
  let release: () => void = () => undefined;
  let hold = new Promise<void>((resolve) => (release = resolve));
  const ws = cliWorkspace("workers");
  const workers: WorkerProcess[] = [];

  before(async () => {
    redis = await startRedis();
    const answer: Answer = {
      kind: "dynamic",
      answer: (request) =>
        prompt(request).startsWith("hold")
          ? { kind: "wait", until: hold, then: { kind: "ok", text: "two" } }
          : { kind: "ok", text: "one" },
    };
    server = await startChatServer([], answer);
    ws.write(
      "rlmplan.host.json",
      JSON.stringify({
        capabilities: ["model(llm)"],
        budget: { max_model_calls: 4 },
        currency: "EUR",
        providers: {
          llm: {
            type: "openai-chat",
            baseUrl: server.baseUrl,
            model: "m1",
            apiKeyEnv: "FLEET_TEST_KEY",
            // 0.1 a token, at most 10 out: the money ceiling's figures.
            price: { input_per_mtok: 100000, output_per_mtok: 100000 },
            maxTokens: 10,
          },
        },
      }),
    );
    ws.write(
      "plans/label.rlmplan.json",
      JSON.stringify({
        steps: [
          { op: "model", provider: "llm", prompt: { ref: "input", name: "q" }, bind: "a" },
          { op: "final", value: { ref: "var", name: "a" } },
        ],
      }),
    );
    ws.write(
      "plans/two-steps.rlmplan.json",
      JSON.stringify({
        steps: [
          { op: "model", provider: "llm", prompt: "first", bind: "a" },
          { op: "model", provider: "llm", prompt: { ref: "input", name: "q" }, bind: "b" },
          { op: "final", value: { ref: "var", name: "b" } },
        ],
      }),
    );
  });
  after(async () => {
    release();
    await Promise.all(workers.map(stopWorker));
    await server?.close();
    await redis?.stop();
  });

  const env = { FLEET_TEST_KEY: "fleet-test-key-0123456789" };
  const dataset = (file: string, rows: number, text: (i: number) => string) =>
    ws.write(file, Array.from({ length: rows }, (_, i) => `${JSON.stringify({ q: text(i) })}\n`).join(""));
  const submit = (queue: string, ...args: string[]) =>
    runCliAsync(ws.dir, ["test", ...args, "--queue", redis.url(queue), "--json"], env);

  test("300 mocked cases on three workers: every case exactly once, in case order", async () => {
    dataset("rows300.jsonl", 300, (i) => `question ${i}`);
    ws.write(
      "mocked.rlmplan.test.json",
      JSON.stringify({
        plan: "plans/label.rlmplan.json",
        mocks: { providers: { llm: [{ value: "answer", repeat: true }] } },
        dataset: { file: "rows300.jsonl", expect: { value: { equals: "answer" } } },
      }),
    );
    // The default lock (30 s): under a loaded machine a short one can expire and retry a job (still once in the report).
    for (const name of ["w1", "w2", "w3"])
      workers.push(await startWorker(ws.dir, name, ["--queue", redis.url("fleet"), "--concurrency", "4"], env));
    const run = await submit("fleet", "mocked.rlmplan.test.json");
    assert.equal(run.code, 0, run.stderr);
    const report = JSON.parse(run.stdout) as Report;
    assert.deepEqual(report.summary, { ...report.summary, total: 300, passed: 300, failed: 0 });
    assert.deepEqual(
      report.cases.map((c) => c.index),
      Array.from({ length: 300 }, (_, i) => i),
    );
    assert.equal(new Set(report.cases.map((c) => c.id)).size, 300);
    assert.deepEqual(new Set(report.cases.map((c) => c.queued?.attempt)), new Set([1]));
    const by = new Set(report.cases.map((c) => c.queued?.worker));
    assert.ok(
      [...by].every((w) => ["w1", "w2", "w3"].includes(w ?? "")),
      [...by].join(),
    );
    assert.equal(server.requests.length, 0, "mocked cases reach no provider");
  });

  test("a fleet ceiling of 7 model calls: 20 live cases, the model server is asked exactly 7 times", async () => {
    dataset("rows20.jsonl", 20, (i) => `ceiling ${i}`);
    ws.write(
      "live.rlmplan.test.json",
      JSON.stringify({
        plan: "plans/label.rlmplan.json",
        dataset: { file: "rows20.jsonl", expect: { value: { contains: { text: "one" } } } },
      }),
    );
    server.reset();
    const run = await submit("fleet", "live.rlmplan.test.json", "--ceiling", "model_calls=7");
    assert.equal(run.code, 1, run.stderr);
    const report = JSON.parse(run.stdout) as Report;
    assert.equal(server.requests.filter((r) => prompt(r).startsWith("ceiling")).length, 7);
    assert.deepEqual([report.summary.passed, report.summary.failed], [7, 13], JSON.stringify(report.cases.slice(0, 2)));
    const refused = report.cases.filter((c) => !c.ok);
    for (const c of refused)
      assert.match(
        c.failures.map((f) => f.message).join("\n"),
        /the fleet ceiling of 7 model calls for this test run is reached \(counted in Redis across every worker\); this call was not made/,
      );
    for (const w of workers) assert.equal(w.child.exitCode, null, `${w.name} still runs`);
  });

  test("a fleet ceiling in money: each live call holds its worst case, so the fleet never spends over it", async () => {
    // The profile prices llm at 0.1 a token with maxTokens 10: "money N" is 7 bytes + 8, so a call may cost
    // (15 + 10) * 0.1 = 2.5 and costs (11 + 7) * 0.1 = 1.8 (the chat server's usage). Under 10,
    // four or five calls fit, as holds and costs interleave; never a sixth (6 * 1.8 > 10).
    dataset("rows10.jsonl", 10, (i) => `money ${i}`);
    ws.write(
      "money.rlmplan.test.json",
      JSON.stringify({
        plan: "plans/label.rlmplan.json",
        dataset: { file: "rows10.jsonl", expect: { value: { contains: { text: "one" } } } },
      }),
    );
    server.reset();
    const run = await submit("fleet", "money.rlmplan.test.json", "--ceiling", "cost=10");
    assert.equal(run.code, 1, run.stderr);
    const report = JSON.parse(run.stdout) as Report;
    const made = server.requests.filter((r) => prompt(r).startsWith("money")).length;
    assert.ok(made >= 4 && made <= 5, `${made} calls made`);
    assert.deepEqual([report.summary.passed, report.summary.failed], [made, 10 - made]);
    for (const c of report.cases.filter((c) => !c.ok))
      assert.match(
        c.failures.map((f) => f.message).join("\n"),
        /the fleet ceiling of 10 in money for this test run would be crossed by this call's worst case of 2\.5 \(counted in Redis across every worker\); this call was not made/,
      );
  });

  test("SIGKILL of a worker mid-job loses no case (resumed from the shared journal); SIGTERM finishes its job first", async () => {
    await Promise.all(workers.splice(0).map(stopWorker));
    dataset("rows6.jsonl", 6, (i) => `hold ${i}`);
    ws.write(
      "held.rlmplan.test.json",
      JSON.stringify({
        plan: "plans/two-steps.rlmplan.json",
        dataset: { file: "rows6.jsonl", expect: { value: { contains: { text: "two" } } } },
      }),
    );
    server.reset();
    hold = new Promise<void>((resolve) => (release = resolve));
    const heldCount = () => server.requests.filter((r) => prompt(r).startsWith("hold")).length;
    const until = async (condition: () => boolean) => {
      while (!condition()) await new Promise((resolve) => setTimeout(resolve, 50));
    };

    const doomed = await startWorker(
      ws.dir,
      "doomed",
      ["--queue", redis.url("kill"), "--concurrency", "2", ...LOCK],
      env,
    );
    workers.push(doomed);
    const submitted = submit("kill", "held.rlmplan.test.json");
    await until(() => heldCount() === 2);
    doomed.child.kill("SIGKILL");
    await doomed.exited;

    const polite = await startWorker(ws.dir, "polite", ["--queue", redis.url("kill"), ...LOCK], env);
    const other = await startWorker(ws.dir, "other", ["--queue", redis.url("kill"), ...LOCK], env);
    workers.push(polite, other);
    // Each has one job held at its second step.
    await until(() => heldCount() === 4);
    await polite.waitFor(/attempt \d started/);
    polite.child.kill("SIGTERM");
    await polite.waitFor(/SIGTERM: taking no new job; finishing the 1 in flight/);
    release();
    assert.equal(await polite.exited, 0, polite.log());
    const run = await submitted;
    assert.equal(run.code, 0, `${run.stderr}\n${doomed.log()}\n${polite.log()}\n${other.log()}`);
    const report = JSON.parse(run.stdout) as Report;
    assert.deepEqual(
      report.cases.map((c) => [c.index, c.ok]),
      Array.from({ length: 6 }, (_, i) => [i, true]),
    );
    // The two jobs the dead worker held ran again elsewhere, as attempt 2, continuing its journal entries:
    const retried = report.cases.filter((c) => (c.queued?.attempt ?? 1) > 1);
    assert.equal(retried.length, 2, JSON.stringify(report.cases.map((c) => c.queued)));
    for (const c of retried) {
      assert.notEqual(c.queued?.worker, "doomed");
      assert.equal(typeof c.queued?.resumed, "number");
    }
    // ... so their first step's model call was answered from the journal, not asked again.
    assert.equal(server.requests.filter((r) => prompt(r) === "first").length, 6);
    // The polite worker finished the job it had, and took no other.
    const started = polite.log().match(/attempt \d started/g) ?? [];
    const done = polite.log().match(/: done \(passed/g) ?? [];
    assert.deepEqual([started.length, done.length], [1, 1], polite.log());
    assert.ok(report.cases.some((c) => c.queued?.worker === "polite"));
    assert.match(polite.log(), /rlm-plan worker: stopped\n/);
  });
});
