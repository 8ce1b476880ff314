// Figures for the queue's workers (`npm run bench:workers`): a dataset of 300 live cases, each
// one model call that a chat-completions server on 127.0.0.1 answers after 200 ms, sent with
// `rlm-plan test --queue` to ONE worker, then to THREE (concurrency 1 each), on one real
// redis-server. The figure is the ratio of the two wall times (target: 3 workers at least 2.5x
// faster). Helpers (Redis, workers) are the tests' own, from their build (test/out/support).
// Nothing asserts.

import { spawn } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";

const CASES = 300;
const DELAY_MS = 200;
const SUPPORT = resolve(__dirname, "..", "..", "test", "out", "support");
const CLI = resolve(__dirname, "..", "..", "cli", "out", "main.js");

// The tests' helpers, loaded from their build (test/ is its own tsc project); their shapes here.
interface Redis {
  readonly port: number;
  url(queue: string): string;
  stop(): Promise<void>;
}
interface Worker {
  readonly name: string;
}
/* eslint-disable @typescript-eslint/no-require-imports */
const { startRedis } = require(join(SUPPORT, "redisServer.js")) as { startRedis(): Promise<Redis> };
const { startWorker, stopWorker } = require(join(SUPPORT, "workerProcess.js")) as {
  startWorker(cwd: string, name: string, args: readonly string[], env: NodeJS.ProcessEnv): Promise<Worker>;
  stopWorker(worker: Worker): Promise<void>;
};
/* eslint-enable @typescript-eslint/no-require-imports */

async function main(): Promise<void> {
  let calls = 0;
  const server = createServer((req, res) => {
    req.resume().on("end", () => {
      calls++;
      setTimeout(() => {
        res.writeHead(200, { "content-type": "application/json" });
        res.end(
          JSON.stringify({
            choices: [{ index: 0, message: { role: "assistant", content: "ok" }, finish_reason: "stop" }],
            model: "m",
          }),
        );
      }, DELAY_MS);
    });
  });
  await new Promise<void>((done) => server.listen(0, "127.0.0.1", done));
  const port = (server.address() as AddressInfo).port;
  const dir = mkdtempSync(join(tmpdir(), "rlm-plan-bench-workers-"));
  writeFileSync(
    join(dir, "rlmplan.host.json"),
    JSON.stringify({
      capabilities: ["model(llm)"],
      providers: {
        llm: { type: "openai-chat", baseUrl: `http://127.0.0.1:${port}/v1`, model: "m", apiKeyEnv: "BENCH_KEY" },
      },
    }),
  );
  writeFileSync(
    join(dir, "plan.rlmplan.json"),
    JSON.stringify({
      steps: [
        { op: "model", provider: "llm", prompt: { ref: "input", name: "q" }, bind: "a" },
        { op: "final", value: { ref: "var", name: "a" } },
      ],
    }),
  );
  writeFileSync(join(dir, "rows.jsonl"), Array.from({ length: CASES }, (_, i) => `{"q":"case ${i}"}\n`).join(""));
  writeFileSync(
    join(dir, "plan.rlmplan.test.json"),
    JSON.stringify({
      plan: "plan.rlmplan.json",
      dataset: { file: "rows.jsonl", expect: { value: { contains: { text: "ok" } } } },
    }),
  );
  const env = { BENCH_KEY: "bench-key-0123456789" };
  const redis = await startRedis();
  try {
    const timed = async (workers: number): Promise<number> => {
      const queue = `bench${workers}`;
      const fleet = [];
      for (let i = 0; i < workers; i++)
        fleet.push(await startWorker(dir, `w${i + 1}`, ["--queue", redis.url(queue), "--no-journal"], env));
      const before = calls;
      const started = performance.now();
      const code = await new Promise<number | null>((done) =>
        spawn(process.execPath, [CLI, "test", "--queue", redis.url(queue), "--json"], {
          cwd: dir,
          env: { ...process.env, ...env },
          stdio: ["ignore", "ignore", "inherit"],
        }).once("exit", done),
      );
      const ms = performance.now() - started;
      await Promise.all(fleet.map(stopWorker));
      console.log(
        `${workers} worker${workers === 1 ? "" : "s"}: ${(ms / 1000).toFixed(1)} s for ${CASES} cases (${calls - before} model calls, exit ${code})`,
      );
      return ms;
    };
    const one = await timed(1);
    const three = await timed(3);
    console.log(
      `3 workers vs 1: ${(one / three).toFixed(2)}x faster (target 2.5x); a case's model call takes ${DELAY_MS} ms`,
    );
  } finally {
    await redis.stop();
    server.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

void main();
