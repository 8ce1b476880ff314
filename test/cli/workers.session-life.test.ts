// A job a worker runs (a real `rlm-plan worker` on a real redis-server, the job sent by `run
// --queue`) is a run of the plan session like any other, so it gets what the session attaches
// without the worker asking: the worker's host profile's `telemetry.otlp` trace (spans at a real
// OTLP/HTTP receiver on 127.0.0.1), the worker's journal entry (the run's one record: the
// submitter names it and writes none of its own; the trace names it too), and the mask (the
// worker's provider key, echoed by the job's mocked model, is in no span and no output).

import assert from "node:assert/strict";
import { after, before, describe, test } from "node:test";
import { cliWorkspace, runCli, runCliAsync } from "../support/cliWorkspace";
import { redisMissing, startRedis, type RedisServer } from "../support/redisServer";
import { assertTraced, TRACED_ENV, TRACED_KEY, tracedWorkspace } from "../support/tracedRun";
import { startWorker, stopWorker, type WorkerProcess } from "../support/workerProcess";

describe("a worker's job: journal, trace and mask attached by the session", { skip: redisMissing() }, () => {
  let redis: RedisServer;
  let worker: WorkerProcess;
  const traced = tracedWorkspace("worker-life");
  const { ws } = traced;

  before(async () => {
    redis = await startRedis();
    worker = await startWorker(ws.dir, "tracer", ["--queue", redis.url("life")], TRACED_ENV);
  });
  after(async () => {
    if (worker) await stopWorker(worker);
    await redis?.stop();
  });

  test("the job is recorded once, in the worker's journal, and traced to its profile's receiver, the key masked", async () => {
    const queued = await runCliAsync(ws.dir, [
      "run",
      "traced.rlmplan.json",
      "--mocks",
      "traced.mocks.json",
      "--queue",
      redis.url("life"),
    ]);
    assert.equal(queued.code, 0, queued.stderr);
    assert.equal(queued.stdout, '"the key is ***"\n');
    assert.match(queued.stderr, /\nrlm-plan: recorded as run 1 in \.rlm-plan \(rlm-plan runs show 1\)\n$/);
    await assertTraced(traced.receiver(), "traced.rlmplan.json", 1);
    const listed = runCli(ws.dir, ["runs", "list", "--json"]);
    const runs = JSON.parse(listed.stdout) as { id: number; origin: string }[];
    assert.deepEqual(
      runs.map((r) => [r.id, r.origin]),
      [[1, "worker"]],
    );
    assert.equal((queued.stdout + queued.stderr + worker.log()).includes(TRACED_KEY), false);
  });
});

test("run --queue takes no --journal or --no-journal: the worker's journal is the record", () => {
  const ws = cliWorkspace("queue-journal");
  ws.write("p.rlmplan.json", JSON.stringify({ steps: [{ op: "final", value: 1 }] }));
  for (const option of [["--journal", "elsewhere"], ["--no-journal"]]) {
    const run = runCli(ws.dir, ["run", "p.rlmplan.json", "--queue", "redis://127.0.0.1:9/q", ...option]);
    assert.deepEqual(
      [run.code, run.stderr],
      [
        2,
        `rlm-plan: ${option[0]} cannot be given with --queue: the worker records the run in its own journal (rlm-plan worker --journal DIR or --no-journal), and the last line names it\nsee rlm-plan run --help\n`,
      ],
    );
  }
});
