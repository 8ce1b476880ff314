// `rlm-plan schedule` as a user meets it: the CLI as a real process, a real redis-server and real
// `rlm-plan worker` processes. A bad cron expression, zone or name is refused, located, before
// Redis is asked; add, list and remove print exactly what they did; and a schedule due every
// second, with its worker stopped for seconds and another started, runs each iteration once:
// the iterations missed while no worker ran collapse into the one that waited, none is run twice,
// and every run is journaled with origin schedule, labelled with the schedule's name. The issue's
// own case (every minute, over 3 minutes, a worker restarted between: exactly 3 runs) takes
// minutes and runs with RLM_PLAN_HOSTILE=1.

import assert from "node:assert/strict";
import { after, before, describe, test } from "node:test";
import { setTimeout as sleep } from "node:timers/promises";
import { cliWorkspace, runCli, runCliAsync, type CliWorkspace } from "../support/cliWorkspace";
import { redisMissing, startRedis, type RedisServer } from "../support/redisServer";
import { startWorker, stopWorker, type WorkerProcess } from "../support/workerProcess";

const PLAN = JSON.stringify({ steps: [{ op: "final", value: "tick" }] });

test("a bad cron expression, zone or name is refused with where it is wrong, before Redis is asked", () => {
  const ws = cliWorkspace("schedule-bad");
  ws.write("p.rlmplan.json", PLAN);
  // Port 9 has no Redis: a command that got that far would say "cannot reach Redis".
  const add = (...args: string[]) =>
    runCli(ws.dir, ["schedule", "add", ...args, "--plan", "p.rlmplan.json", "--queue", "redis://127.0.0.1:9/q"]);
  const refusals: [string[], string][] = [
    [
      ["nightly", "--cron", "0 61 * * *"],
      '--cron "0 61 * * *": field 2 (hour) "61" at column 3: Constraint error, got value 61 expected range 0-23',
    ],
    [
      ["nightly", "--cron", "*/5 * * * * 8"],
      '--cron "*/5 * * * * 8": field 6 (day-of-week) "8" at column 13: Constraint error, got value 8 expected range 0-7',
    ],
    [
      ["nightly", "--cron", "* * *"],
      '--cron "* * *": a cron expression has 5 fields (minute hour day-of-month month day-of-week) or 6 with a second first, for example "0 9 * * 1-5"; this has 3',
    ],
    [
      ["nightly", "--cron", "0 9 * * *", "--tz", "Mars/Base"],
      '--tz "Mars/Base" is not an IANA time zone (for example Europe/Paris, UTC)',
    ],
    [["a:b", "--cron", "0 9 * * *"], `the schedule name "a:b" must be 1 to 100 letters, digits, '_', '.' or '-'`],
  ];
  for (const [args, message] of refusals) {
    const run = add(...args);
    assert.deepEqual(
      [run.code, run.stdout, run.stderr],
      [2, "", `rlm-plan: ${message}\nsee rlm-plan schedule --help\n`],
    );
  }
});

test("a Redis that is not there is said in one line, exit 2, a password in the URL as ***", () => {
  const ws = cliWorkspace("schedule-no-redis");
  const list = runCli(ws.dir, ["schedule", "list", "--queue", "redis://ops:s3cret-pass@127.0.0.1:9/q"]);
  assert.deepEqual(
    [list.code, list.stdout, list.stderr],
    [2, "", "rlm-plan: cannot reach Redis at redis://ops:***@127.0.0.1:9/q: connect ECONNREFUSED 127.0.0.1:9\n"],
  );
});

/** The next UTC time a yearly schedule (month, day, hour) comes due, as `schedule` prints it. */
function nextYearly(month: number, day: number, hour: number): string {
  const now = new Date();
  let year = now.getUTCFullYear();
  if (Date.UTC(year, month - 1, day, hour) <= now.getTime()) year += 1;
  return `${year}-${String(month).padStart(2, "0")}-${String(day).padStart(2, "0")}T${String(hour).padStart(2, "0")}:00:00Z`;
}

/** For a describe's tests: a workspace (a host profile granting nothing, tick.rlmplan.json) and a redis-server. */
function scheduleWorkspace(name: string): { ws: CliWorkspace; redis: () => RedisServer } {
  let redis: RedisServer | undefined;
  const ws = cliWorkspace(name);
  before(async () => {
    redis = await startRedis();
    ws.write("rlmplan.host.json", JSON.stringify({ capabilities: [] }));
    ws.write("tick.rlmplan.json", PLAN);
  });
  after(async () => {
    await redis?.stop();
  });
  return { ws, redis: () => redis as RedisServer };
}

/** `schedule add NAME --cron CRON` of tick.rlmplan.json on Q; it must succeed. */
async function addTick(ws: CliWorkspace, name: string, cron: string, q: string): Promise<void> {
  const added = await runCliAsync(ws.dir, [
    ...["schedule", "add", name, "--cron", cron, "--plan", "tick.rlmplan.json", "--queue", q],
  ]);
  assert.equal(added.code, 0, added.stderr);
}

/** The runs the workers journaled (in ./journal) with origin schedule: [origin, label, status], oldest last. */
function scheduledRuns(ws: CliWorkspace): string[][] {
  const listed = runCli(ws.dir, ["runs", "list", "--origin", "schedule", "--json", "--journal", "journal"]);
  return (JSON.parse(listed.stdout) as { origin: string; label: string; status: string }[]).map((r) => [
    r.origin,
    r.label,
    r.status,
  ]);
}

describe("rlm-plan schedule on a real redis-server", { skip: redisMissing() }, () => {
  const { ws, redis } = scheduleWorkspace("schedules");

  test("add, list (text and JSON, soonest first) and remove say exactly what they did", async () => {
    const q = redis().url("listed");
    const cli = (...args: string[]) => runCliAsync(ws.dir, ["schedule", ...args, "--queue", q]);
    const july = nextYearly(7, 1, 12);
    const january = nextYearly(1, 1, 9);
    const added = await cli("add", "summer", "--cron", "0 12 1 7 *", "--plan", "tick.rlmplan.json");
    assert.deepEqual(
      [added.code, added.stdout, added.stderr],
      [
        0,
        `scheduled summer on ${q}: tick.rlmplan.json at "0 12 1 7 *" (UTC), next run ${july}\n`,
        `rlm-plan: no worker listens on ${q} yet: its runs wait for one (rlm-plan worker --queue URL)\n`,
      ],
    );
    const paris = await cli(
      "add",
      "new-year",
      "--cron",
      "0 10 1 1 *",
      "--tz",
      "Europe/Paris",
      "--plan",
      "tick.rlmplan.json",
      "--input-text",
      "who=ops",
    );
    assert.equal(paris.code, 0, paris.stderr);
    const soonerFirst = [
      ["summer", "0 12 1 7 *", "UTC", july],
      ["new-year", "0 10 1 1 *", "Europe/Paris", january],
    ].sort((a, b) => (a[3] as string).localeCompare(b[3] as string));
    const listed = await cli("list");
    assert.equal(
      listed.stdout,
      [
        "NAME      CRON        TZ            PLAN               NEXT RUN",
        ...soonerFirst.map(
          ([name, cron, tz, next]) =>
            `${name!.padEnd(8)}  ${cron!.padEnd(10)}  ${tz!.padEnd(12)}  tick.rlmplan.json  ${next}`,
        ),
        "",
      ].join("\n"),
    );
    const json = await cli("list", "--json");
    assert.deepEqual(JSON.parse(json.stdout), {
      queue: q,
      schedules: soonerFirst.map(([name, cron, tz, next]) => ({
        name,
        cron,
        tz,
        plan: "tick.rlmplan.json",
        next,
        iterations: 1,
      })),
    });
    const removed = await cli("remove", "summer");
    assert.deepEqual([removed.code, removed.stdout], [0, `removed schedule summer from ${q}\n`]);
    const again = await cli("remove", "summer");
    assert.deepEqual(
      [again.code, again.stdout, again.stderr],
      [1, "", `rlm-plan: ${q} has no schedule "summer" (rlm-plan schedule list)\n`],
    );
    assert.deepEqual((await cli("list", "--json")).stdout.match(/"name": "[^"]+"/g), ['"name": "new-year"']);
  });

  test("a schedule due every second, its worker down for seconds: missed iterations run once, none twice, all journaled", async () => {
    const q = redis().url("ticking");
    await addTick(ws, "tick", "* * * * * *", q);
    const workerArgs = ["--queue", q, "--journal", "journal", "--health-interval", "0"];
    const first = await startWorker(ws.dir, "first", workerArgs);
    await first.waitFor(/(done \(ok\)[^]*){3}/);
    first.child.kill("SIGTERM");
    assert.equal(await first.exited, 0, first.log());
    const downAt = Date.now();
    // Four iterations come due with no worker to take them.
    await sleep(4000);
    const backAt = Date.now();
    const second = await startWorker(ws.dir, "second", workerArgs);
    await second.waitFor(/(done \(ok\)[^]*){3}/);
    const removed = await runCliAsync(ws.dir, ["schedule", "remove", "tick", "--queue", q]);
    assert.equal(removed.code, 0, removed.stderr);
    second.child.kill("SIGTERM");
    assert.equal(await second.exited, 0, second.log());

    const due = (worker: WorkerProcess) =>
      [...worker.log().matchAll(/job repeat:tick:(\d+): attempt (\d+) started/g)].map((m) => {
        assert.equal(m[2], "1", worker.log());
        return Number(m[1]);
      });
    const [before, after] = [due(first), due(second)];
    const all = [...before, ...after];
    assert.equal(new Set(all).size, all.length, `an iteration ran twice: ${all.join(", ")}`);
    // Each iteration is a whole second, in order; the worker that came back ran the one that
    // waited (due while no worker ran) and then only iterations due after it started.
    assert.ok(
      all.every((ms, i) => ms % 1000 === 0 && (i === 0 || ms > all[i - 1]!)),
      all.join(", "),
    );
    const missedRun = after.filter((ms) => ms < backAt);
    assert.equal(missedRun.length, 1, `after: ${after.join(", ")}; back at ${backAt}`);
    assert.ok(missedRun[0]! <= downAt + 1000, `the waiting iteration ${missedRun[0]} was due before the first stopped`);
    assert.deepEqual(
      scheduledRuns(ws),
      all.map(() => ["schedule", "tick", "ok"]),
    );
  });
});

describe(
  "the issue's case: every minute, over 3 minutes, a worker restarted between",
  {
    skip:
      redisMissing() ?? (process.env["RLM_PLAN_HOSTILE"] === "1" ? undefined : "slow (3 minutes): RLM_PLAN_HOSTILE=1"),
  },
  () => {
    const { ws, redis } = scheduleWorkspace("schedules-minutes");

    test("exactly 3 runs, all journaled with origin schedule", async () => {
      const q = redis().url("minutes");
      await addTick(ws, "minutely", "* * * * *", q);
      const thirdDue = Math.ceil((Date.now() + 1) / 60_000) * 60_000 + 2 * 60_000;
      const workerArgs = ["--queue", q, "--journal", "journal", "--health-interval", "0"];
      const first = await startWorker(ws.dir, "first", workerArgs);
      await first.waitFor(/done \(ok\)/);
      first.child.kill("SIGTERM");
      assert.equal(await first.exited, 0, first.log());
      const second = await startWorker(ws.dir, "second", workerArgs);
      await sleep(thirdDue + 15_000 - Date.now());
      const removed = await runCliAsync(ws.dir, ["schedule", "remove", "minutely", "--queue", q]);
      assert.equal(removed.code, 0, removed.stderr);
      second.child.kill("SIGTERM");
      assert.equal(await second.exited, 0, second.log());
      assert.deepEqual(scheduledRuns(ws), [
        ["schedule", "minutely", "ok"],
        ["schedule", "minutely", "ok"],
        ["schedule", "minutely", "ok"],
      ]);
      await stopWorker(second);
    });
  },
);
