// A worker's job whose run waits for approval (docs/workers.md, "Approvals"), with real `rlm-plan
// worker` processes on a real redis-server sharing one journal: the run stops before the held
// tool call and the job is handed back to the queue (the worker holds nothing); the worker is
// killed while the job waits; `runs approve` records the vote and leaves the run to the workers;
// another worker takes the job up, resumes the journal's run and makes the call exactly once;
// `run --queue` waited throughout and prints the value. A case of `test --queue` that gives its votes
// is voted and resumed on the worker (no waiting); one that gives none fails naming step and rule.

import assert from "node:assert/strict";
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { after, before, describe, test } from "node:test";
import { cliWorkspace, runCli, runCliAsync } from "../support/cliWorkspace";
import { redisMissing, startRedis, type RedisServer } from "../support/redisServer";
import { startWorker, stopWorker, type WorkerProcess } from "../support/workerProcess";

// A command tool that appends its arguments, one line a call, to marks.txt.
const MARK_TOOL = `
let input = "";
process.stdin.on("data", (c) => (input += c));
process.stdin.on("end", () => {
  require("fs").appendFileSync("marks.txt", JSON.stringify(JSON.parse(input)) + "\\n");
  process.stdout.write(JSON.stringify({ sent: true }));
});
`;

describe("a worker's job waiting for approval", { skip: redisMissing() }, () => {
  let redis: RedisServer;
  const workers: WorkerProcess[] = [];
  const ws = cliWorkspace("worker-approvals");
  ws.write("mark.js", MARK_TOOL);
  ws.write(
    "rlmplan.host.json",
    JSON.stringify({
      capabilities: ["tool(send)"],
      tools: { send: { type: "command", command: [process.execPath, "mark.js"], writes: ["."] } },
      approvals: [{ tool: "send", approvers: ["alice"], timeout: 600 }],
    }),
  );
  ws.write(
    "plan.rlmplan.json",
    JSON.stringify({
      steps: [
        { op: "tool", name: "send", args: { to: "ada" }, bind: "r" },
        { op: "final", value: { ref: "var", name: "r" } },
      ],
    }),
  );
  const marks = () => {
    const file = join(ws.dir, "marks.txt");
    return existsSync(file) ? readFileSync(file, "utf8") : "";
  };

  before(async () => {
    redis = await startRedis();
  });
  after(async () => {
    for (const worker of workers) await stopWorker(worker);
    await redis?.stop();
  });

  test("killed while its job waits; the approval resumes the job on another worker, the tool runs once", async () => {
    const queue = redis.url("approvals");
    const first = await startWorker(ws.dir, "first", ["--queue", queue]);
    workers.push(first);
    const submitted = runCliAsync(ws.dir, ["run", "plan.rlmplan.json", "--queue", queue]);
    await first.waitFor(
      /job \S+: waits for approval: handed back to the queue, looked at again every 2 s until the votes decide\n/,
    );
    assert.equal(marks(), "");
    // Handed back, not failed: the worker holds no job and counts none failed.
    assert.doesNotMatch(first.log(), /: (failed|done)/);
    first.child.kill("SIGKILL");
    await first.exited;

    const listed = JSON.parse(runCli(ws.dir, ["runs", "list", "--json"]).stdout) as { status: string }[];
    assert.deepEqual(
      listed.map((r) => r.status),
      ["waiting"],
    );
    const second = await startWorker(ws.dir, "second", ["--queue", queue]);
    workers.push(second);
    assert.equal(marks(), "");

    const approved = runCli(ws.dir, ["runs", "approve", "1", "--as", "alice", "--reason", "checked"]);
    assert.equal(approved.code, 0, approved.stderr);
    assert.match(
      approved.stderr,
      /rlm-plan: the quorum approved: run 1 is a worker's job; a worker of its queue goes on with it\n$/,
    );
    assert.equal(approved.stdout, "");

    const run = await submitted;
    assert.equal(run.code, 0, run.stderr);
    assert.equal(run.stdout, '{\n  "sent": true\n}\n');
    assert.match(
      run.stderr,
      /\nrlm-plan: the call of tool\(send\) at steps\/0 waits for approval \(0 of 1; action sha256 [0-9a-f]{12}\): approve with rlm-plan runs approve RUN --as NAME --reason TEXT against the worker's journal \(runs list --status waiting\); this waits until a worker goes on with the run\nrlm-plan: worker second goes on with the job: the votes decided\n/,
    );
    // The second worker took the job up silently until the vote, then resumed the journal's run.
    assert.doesNotMatch(second.log(), /waits for approval/);
    await second.waitFor(/job \S+: done \(ok, resumed journal run 1\)/);
    assert.equal(marks(), '{"to":"ada"}\n');
    const after = JSON.parse(runCli(ws.dir, ["runs", "list", "--json"]).stdout) as { status: string }[];
    assert.deepEqual(
      after.map((r) => r.status),
      ["ok"],
    );
  });

  test("test --queue: a case's votes are cast on the worker and its run resumed there; one without fails", async () => {
    const queue = redis.url("test-approvals");
    workers.push(await startWorker(ws.dir, "tester", ["--queue", queue]));
    ws.write(
      "plan.rlmplan.test.json",
      JSON.stringify({
        plan: "plan.rlmplan.json",
        cases: [
          {
            name: "approved",
            approvals: [{ vote: "approve", as: "alice", reason: "checked" }],
            expect: { value: { equals: { sent: true } }, approvals: [{ step: "/steps/0", requests: 1 }] },
          },
          { name: "undeclared" },
        ],
      }),
    );
    const before = marks();
    const run = await runCliAsync(ws.dir, ["test", "plan.rlmplan.test.json", "--queue", queue, "--jobs", "1"]);
    assert.equal(run.code, 1, run.stderr);
    assert.match(run.stdout, /^pass {2}plan\.rlmplan\.test\.json#approved {2}\(\d+ ms, tester\)\n/m);
    assert.match(
      run.stdout,
      /\n {6}plan\.rlmplan\.test\.json:1:\d+: the call of tool\(send\) at \/steps\/0 waits for approval \(approval rule 0, approvers: alice; 0 of 1\): the case gives no vote for it/,
    );
    // The approved case's call, once; the undeclared one's, never.
    assert.equal(marks(), `${before}{"to":"ada"}\n`);
  });
});
