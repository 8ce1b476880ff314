// A test file's value schemas may come from a pull request: they compile with the core's bounded
// schema engine. A pattern that backtracking engines take exponential time on ("^(a+)+$" against
// forty a's and a "!": about 160 s on ajv's own RegExp, the event loop blocked, SIGTERM and the
// job's lock renewal deaf) is judged at once by `rlm-plan test`, locally and on a worker through
// `test --queue`; `uniqueItems` over thousands of objects is one pass, not every pair. Controls:
// the same schemas pass the values they should.

import assert from "node:assert/strict";
import { spawn } from "node:child_process";
import { after, before, describe, test } from "node:test";
import { childOutput, type ChildOutput } from "../support/childOutput";
import { CLI, cliWorkspace } from "../support/cliWorkspace";
import { redisMissing, startRedis, type RedisServer } from "../support/redisServer";
import { startWorker, stopWorker, type WorkerProcess } from "../support/workerProcess";

const ATTACK = `${"a".repeat(40)}!`;
const EVIL = { type: "string", pattern: "^(a+)+$" };
const FILE = "p.rlmplan.test.json";

interface Reported {
  id: string;
  ok: boolean;
  failures: { message: string }[];
}

const ws = cliWorkspace("hostile-schemas");
ws.write(
  "rlmplan.host.json",
  JSON.stringify({
    capabilities: [],
    budget: { max_output_bytes: 4_000_000 },
    inputs: { v: { type: "value", value: "aaa" } },
  }),
);
ws.write("p.rlmplan.json", JSON.stringify({ steps: [{ op: "final", value: { ref: "input", name: "v" } }] }));
// 6,000 distinct objects: ajv's pairwise uniqueItems makes 18 million deep comparisons of them.
const objects = Array.from({ length: 6000 }, (_, i) => ({ id: i, tags: ["x", String(i)] }));
ws.write(
  FILE,
  JSON.stringify({
    plan: "p.rlmplan.json",
    cases: [
      { name: "evil pattern", inputs: { v: ATTACK }, expect: { value: { schema: EVIL } } },
      { name: "pattern matches", inputs: { v: "aaaa" }, expect: { value: { schema: EVIL } } },
      { name: "unique objects", inputs: { v: objects }, expect: { value: { schema: { uniqueItems: true } } } },
      {
        name: "a repeated object",
        inputs: { v: [...objects, { tags: ["x", "17"], id: 17 }] },
        expect: { value: { schema: { uniqueItems: true } } },
      },
    ],
  }),
);

/** The CLI from the workspace; killed (SIGKILL: a blocked event loop is deaf to SIGTERM) after a minute. */
function cli(args: readonly string[]): Promise<ChildOutput> {
  const child = spawn(process.execPath, [CLI, ...args], {
    cwd: ws.dir,
    env: { ...process.env, NO_COLOR: "1" },
    stdio: ["ignore", "pipe", "pipe"],
    timeout: 60_000,
    killSignal: "SIGKILL",
  });
  return childOutput(child);
}

function judged(run: ChildOutput): [string, boolean, string[]][] {
  assert.equal(run.code, 1, `${run.stdout}\n${run.stderr}`);
  const report = JSON.parse(run.stdout) as { cases: Reported[] };
  return report.cases.map((c) => [c.id.slice(FILE.length + 1), c.ok, c.failures.map((f) => f.message)]);
}

const EXPECTED: [string, boolean, string[]][] = [
  [
    "evil pattern",
    false,
    [
      `value: expected a value the schema {"type":"string","pattern":"^(a+)+$"} accepts, got "${"a".repeat(40)}!": / must match pattern "^(a+)+$"`,
    ],
  ],
  ["pattern matches", true, []],
  ["unique objects", true, []],
  [
    "a repeated object",
    false,
    [
      // The value as the failure shows it: its JSON cut at 199 characters.
      `value: expected a value the schema {"uniqueItems":true} accepts, got ${JSON.stringify(Array.from({ length: 9 }, (_, id) => ({ id, tags: ["x", String(id)] }))).slice(0, 199)}…: / must NOT have duplicate items (items ## 17 and 6000 are identical)`,
    ],
  ],
];

describe("rlm-plan test: hostile value schemas", () => {
  test("locally: each case judged, the evil pattern a plain failure", async () => {
    assert.deepEqual(judged(await cli(["test", FILE, "--json", "--no-journal"])), EXPECTED);
  });

  describe("test --queue: on a worker", { skip: redisMissing() }, () => {
    let redis: RedisServer;
    let worker: WorkerProcess;
    before(async () => {
      redis = await startRedis();
      worker = await startWorker(ws.dir, "w1", ["--queue", redis.url("hostile")]);
    });
    after(async () => {
      if (worker) await stopWorker(worker);
      await redis?.stop();
    });

    test("the worker judges the same, and stays ready for the next job", async () => {
      assert.deepEqual(judged(await cli(["test", FILE, "--queue", redis.url("hostile"), "--json"])), EXPECTED);
      assert.equal(worker.child.exitCode, null, worker.log());
    });
  });
});
