// Workers that cannot be wedged (issue 33, item 6), each against a real redis-server or a real
// socket on 127.0.0.1: a job whose stored data is not JSON is failed at once, naming the job; a
// Redis port that accepts and never answers gives `worker`, `run --queue` and `test --queue` a
// clear error well within 10 s; SIGTERM ends a worker whose Redis is gone; a submitter whose job
// vanished (Redis restarted empty) fails naming the job; the password comes from
// RLM_PLAN_REDIS_PASSWORD or --redis-password-file and is never printed. The controls: a benign
// job on the same worker still runs, and the right password connects.

import assert from "node:assert/strict";
import { spawn } from "node:child_process";
import { readFileSync } from "node:fs";
import { createServer, type Server, type Socket } from "node:net";
import type { AddressInfo } from "node:net";
import { after, before, describe, test } from "node:test";
import type { Queue } from "bullmq";
import { childOutput, type ChildOutput } from "../support/childOutput";
import { CLI, cliWorkspace, runCliAsync } from "../support/cliWorkspace";
import { redisMissing, startRedis, type RedisServer } from "../support/redisServer";
import { startWorker, stopWorker, type WorkerProcess } from "../support/workerProcess";

const skip = redisMissing();

const ws = cliWorkspace("worker-wedge");
ws.write("rlmplan.host.json", JSON.stringify({ capabilities: [], journal: { enabled: false } }));
ws.write("one.rlmplan.json", JSON.stringify({ steps: [{ op: "final", value: 1 }] }));
ws.write(
  "tests/one.rlmplan.test.json",
  JSON.stringify({ plan: "../one.rlmplan.json", cases: [{ name: "one", expect: { value: { equals: 1 } } }] }),
);

/** Polls `read` every 50 ms until it gives something. */
async function until<T>(read: () => Promise<T | undefined>): Promise<T> {
  for (;;) {
    const value = await read();
    if (value !== undefined) return value;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

describe("a job whose stored data is not JSON", { skip }, () => {
  let redis: RedisServer;
  let worker: WorkerProcess;
  let queue: Queue;

  before(async () => {
    redis = await startRedis();
    worker = await startWorker(ws.dir, "w1", ["--queue", redis.url("raw")]);
    const { Queue } = await import("bullmq");
    queue = new Queue("raw", { connection: { host: "127.0.0.1", port: redis.port }, prefix: "rlm-plan" });
  });
  after(async () => {
    await queue?.close();
    if (worker) await stopWorker(worker);
    await redis?.stop();
  });

  test("is failed at once, never retried, naming the job; the next job runs", { timeout: 20_000 }, async () => {
    // Delayed, so no worker takes it before its data is spoilt; promoted once it is.
    const job = await queue.add("run", { v: 2 }, { attempts: 3, delay: 3_600_000 });
    const id = job.id as string;
    const { Redis } = await import("ioredis");
    const client = new Redis({ host: "127.0.0.1", port: redis.port });
    const key = `rlm-plan:raw:${id}`;
    try {
      await client.hset(key, "data", "{not json");
      await job.promote();
      // Read raw: BullMQ's own getJob would throw on the data, as the worker's fetch did.
      await until(async () => ((await client.hget(key, "finishedOn")) !== null ? true : undefined));
      await new Promise((resolve) => setTimeout(resolve, 300)); // a retry would show by now
      const fields = await client.hgetall(key);
      assert.equal(await queue.getJobState(id), "failed");
      assert.deepEqual([fields["ats"], fields["atm"]], ["1", "1"], "started once, made once");
      assert.match(
        fields["failedReason"] ?? "",
        new RegExp(`^malformed job: job ${id}'s stored data is not JSON \\(.+\\)$`),
      );
    } finally {
      client.disconnect();
    }
    await worker.waitFor(new RegExp(`job ${id}: refused: malformed job: job ${id}'s stored data is not JSON`));
    const next = await queue.add("run", {
      v: 2,
      kind: "run",
      plan: { name: "n", text: '{"steps":[{"op":"final","value":7}]}' },
    });
    const done = await until(async () => {
      const now = await queue.getJob(next.id as string);
      return now?.finishedOn !== undefined ? now : undefined;
    });
    assert.equal((done.returnvalue as { report: { outcome: { value: unknown } } }).report.outcome.value, 7);
  });
});

describe("a Redis port that accepts and never answers", { skip, concurrency: true }, () => {
  let silent: Server;
  let port = 0;
  const sockets: Socket[] = [];
  before(async () => {
    silent = createServer((socket) => {
      sockets.push(socket);
      socket.on("data", () => undefined).on("error", () => undefined);
    });
    await new Promise<void>((resolve) => silent.listen(0, "127.0.0.1", resolve));
    port = (silent.address() as AddressInfo).port;
  });
  after(async () => {
    for (const socket of sockets) socket.destroy();
    await new Promise((resolve) => silent.close(resolve));
  });

  const said = (where: string) =>
    `cannot ${where} redis://127.0.0.1:${port}/q: no answer within 5 s: something accepts connections at 127.0.0.1:${port} but does not answer as Redis`;

  // Before the fix each of these waited forever; the test's own timeout is the bound.
  test("worker: exit 2 with a clear error", { timeout: 30_000 }, async () => {
    const run = await runCliAsync(ws.dir, ["worker", "--queue", `redis://127.0.0.1:${port}/q`]);
    assert.equal(run.code, 2, run.stderr);
    assert.equal(run.stderr, `rlm-plan worker: ${said("reach Redis at")}\n`);
    assert.ok(sockets.length > 0, "it did connect");
  });

  test("run --queue: exit 2 with a clear error", { timeout: 30_000 }, async () => {
    const run = await runCliAsync(ws.dir, ["run", "one.rlmplan.json", "--queue", `redis://127.0.0.1:${port}/q`]);
    assert.equal(run.code, 2, run.stderr);
    assert.equal(run.stderr.split("\n").at(-2), `rlm-plan: ${said("use the queue")}`);
  });

  test("test --queue: exit 2 with a clear error", { timeout: 30_000 }, async () => {
    const run = await runCliAsync(ws.dir, ["test", "tests", "--queue", `redis://127.0.0.1:${port}/q`]);
    assert.equal(run.code, 2, run.stderr);
    assert.equal(run.stderr.split("\n").at(-2), `rlm-plan: ${said("use the queue")}`);
  });
});

describe("Redis that goes away under a worker or a submitter", { skip, concurrency: true }, () => {
  test("SIGTERM with Redis frozen: the worker stops without it, says so, exit 1", { timeout: 30_000 }, async () => {
    const redis = await startRedis();
    try {
      const worker = await startWorker(ws.dir, "frozen-w", ["--queue", redis.url("frozen")]);
      redis.freeze();
      worker.child.kill("SIGTERM");
      assert.equal(await worker.exited, 1, worker.log());
      assert.match(
        worker.log(),
        /\nrlm-plan worker: Redis at redis:\/\/127\.0\.0\.1:\d+\/frozen did not answer within 5 s: stopped without it \(a job whose end it did not store goes to another worker after --lock-ms\)\nrlm-plan worker: stopped\n$/,
      );
    } finally {
      await redis.stop();
    }
  });

  test("SIGTERM with Redis gone (killed): the worker exits", { timeout: 30_000 }, async () => {
    const redis = await startRedis();
    const worker = await startWorker(ws.dir, "gone-w", ["--queue", redis.url("gone")]);
    await redis.stop();
    worker.child.kill("SIGTERM");
    const code = await worker.exited;
    assert.ok(code === 0 || code === 1, `exit ${code}: ${worker.log()}`);
    assert.match(worker.log(), /\nrlm-plan worker: stopped\n$/);
  });

  test("SIGTERM to a worker whose stderr reader is gone: it exits all the same", { timeout: 30_000 }, async () => {
    const redis = await startRedis();
    try {
      const worker = await startWorker(ws.dir, "mute-w", ["--queue", redis.url("mute")]);
      worker.child.stderr.destroy(); // `rlm-plan worker ... 2>&1 | head -3`, once head has gone
      worker.child.kill("SIGTERM");
      assert.equal(await worker.exited, 0);
    } finally {
      await redis.stop();
    }
  });

  test(
    "run --queue whose job vanished (Redis restarted empty) fails within 10 s, naming the job",
    { timeout: 30_000 },
    async () => {
      const redis = await startRedis();
      const { Queue } = await import("bullmq");
      const queue = new Queue("vanish", { connection: { host: "127.0.0.1", port: redis.port }, prefix: "rlm-plan" });
      queue.on("error", () => undefined);
      try {
        const child = spawn(process.execPath, [CLI, "run", "one.rlmplan.json", "--queue", redis.url("vanish")], {
          cwd: ws.dir,
          env: { ...process.env, NO_COLOR: "1" },
          stdio: ["ignore", "pipe", "pipe"],
        });
        const output: Promise<ChildOutput> = childOutput(child);
        // No worker listens: the job waits in Redis until Redis loses it.
        await until(async () => ((await queue.getWaitingCount()) === 1 ? true : undefined));
        const [job] = await queue.getWaiting();
        await redis.restartEmpty();
        const restarted = performance.now();
        const run = await output;
        const noticedMs = performance.now() - restarted;
        assert.equal(run.code, 1, run.stderr);
        assert.equal(
          run.stderr.split("\n").at(-2),
          `rlm-plan: job ${job?.id} vanished from the queue: Redis no longer has it (restarted empty, or flushed), so no worker will end it`,
        );
        assert.ok(noticedMs < 10_000, `noticed after ${Math.round(noticedMs)} ms`);
      } finally {
        await queue.close();
        await redis.stop();
      }
    },
  );
});

describe("the Redis password from RLM_PLAN_REDIS_PASSWORD or --redis-password-file", { skip }, () => {
  const PASSWORD = "wedge-redis-pass-7f3c9a";
  let redis: RedisServer;
  let worker: WorkerProcess;
  before(async () => {
    redis = await startRedis({ requirepass: PASSWORD });
    worker = await startWorker(ws.dir, "env-w", ["--queue", redis.url("secret")], {
      RLM_PLAN_REDIS_PASSWORD: PASSWORD,
    });
  });
  after(async () => {
    if (worker) await stopWorker(worker);
    await redis?.stop();
  });
  /** The CLI with `args` and the password's file (its first line; a newline after it). */
  const withPasswordFile = (...args: string[]) =>
    runCliAsync(ws.dir, [...args, "--redis-password-file", ws.write("redis-password.txt", `${PASSWORD}\n`)]);

  test("a worker from the environment, run --queue from a file: the job runs, the password is never printed", async () => {
    const run = await withPasswordFile("run", "one.rlmplan.json", "--queue", redis.url("secret"));
    assert.equal(run.code, 0, run.stderr);
    assert.equal(run.stdout, "1\n");
    assert.match(run.stderr, /\nrlm-plan: worker env-w runs the job\n/);
    assert.ok(!`${run.stdout}${run.stderr}${worker.log()}`.includes(PASSWORD));
  });

  test("a wrong password from the environment: Redis's refusal, exit 2, nothing of it printed", async () => {
    const run = await runCliAsync(ws.dir, ["worker", "--queue", redis.url("secret")], {
      RLM_PLAN_REDIS_PASSWORD: "not-the-password-0042",
    });
    assert.equal(run.code, 2);
    assert.equal(
      run.stderr,
      `rlm-plan worker: cannot reach Redis at ${redis.url("secret")}: WRONGPASS invalid username-password pair or user is disabled.\n`,
    );
    assert.ok(!run.stderr.includes("not-the-password-0042"));
  });

  test("a password in the URL and in a file: refused, said without either", async () => {
    const run = await withPasswordFile(
      "test",
      "tests",
      "--queue",
      `redis://:${PASSWORD}@127.0.0.1:${redis.port}/secret`,
    );
    assert.equal(run.code, 2);
    assert.equal(
      run.stderr.split("\n").at(-2),
      `rlm-plan: redis://:***@127.0.0.1:${redis.port}/secret holds a password and --redis-password-file gives another: give it once`,
    );
    assert.ok(!run.stderr.includes(PASSWORD));
  });

  test("the URL form still works, and ps shows *** for it", async () => {
    const inUrl = await startWorker(ws.dir, "url-w", [
      "--queue",
      `redis://:${PASSWORD}@127.0.0.1:${redis.port}/secret`,
    ]);
    try {
      const commandLine = readFileSync(`/proc/${inUrl.child.pid}/cmdline`, "utf8").replace(/\0/g, " ");
      assert.ok(!commandLine.includes(PASSWORD), commandLine);
      assert.match(commandLine, new RegExp(`--queue redis://:\\*\\*\\*@127\\.0\\.0\\.1:${redis.port}/secret`));
      assert.ok(!inUrl.log().includes(PASSWORD));
    } finally {
      await stopWorker(inUrl);
    }
  });
});
