// The Fleet page of `rlm-plan ui --queue URL` in headless Chromium, against a real redis-server
// and real `rlm-plan worker` processes: a job sent while no worker runs is listed waiting, with no
// worker; once two workers start, both are listed by name and the job (whose data no worker can
// run) is listed failed with its reason and how often it was tried; a schedule of the queue is
// listed with when it is next due; axe-core finds no serious violation. Says SKIPPED without Chromium or redis-server.

import assert from "node:assert/strict";
import { existsSync } from "node:fs";
import { after, before, describe, test } from "node:test";
import type { Queue } from "bullmq";
import { chromium, type Browser, type Page } from "playwright-core";
import { cliWorkspace, runCliAsync } from "../support/cliWorkspace";
import { redisMissing, startRedis, type RedisServer } from "../support/redisServer";
import { CHROMIUM, screenshotsDir, routeViolations, startUi, watchedPage, type UiProcess } from "../support/uiProcess";
import { startWorker, stopWorker, type WorkerProcess } from "../support/workerProcess";

const SHOTS = screenshotsDir();
const skip = (!existsSync(CHROMIUM) && `SKIPPED: no ${CHROMIUM}`) || redisMissing() || false;

describe("rlm-plan ui --queue: the Fleet page", { skip }, () => {
  const ws = cliWorkspace("ui-fleet");
  let redis: RedisServer;
  let browser: Browser;
  let ui: UiProcess;
  let queue: Queue;
  const workers: WorkerProcess[] = [];
  const complaints: string[] = [];

  before(async () => {
    ws.write("rlmplan.host.json", JSON.stringify({ capabilities: [] }));
    redis = await startRedis();
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    const { Queue } = require("bullmq") as typeof import("bullmq");
    queue = new Queue("fleet", { connection: { host: "127.0.0.1", port: redis.port }, prefix: "rlm-plan" });
    await queue.add("broken.rlmplan.json", { not: "a plan job" }, { jobId: "job-1" });
    // A schedule of the queue: due at 02:00, so none of it runs during the test.
    ws.write("nightly.rlmplan.json", '{"steps": [{"op": "final", "value": 1}]}');
    const added = await runCliAsync(ws.dir, [
      "schedule",
      "add",
      "nightly",
      "--cron",
      "0 2 * * *",
      "--plan",
      "nightly.rlmplan.json",
      "--queue",
      redis.url("fleet"),
    ]);
    assert.equal(added.code, 0, added.stderr);
    ui = await startUi(ws.dir, { ...process.env }, ["--queue", redis.url("fleet")]);
    browser = await chromium.launch({ executablePath: CHROMIUM, args: ["--no-sandbox"] });
  });

  after(async () => {
    await browser?.close();
    await ui?.stop();
    for (const worker of workers) await stopWorker(worker);
    await queue?.close();
    await redis?.stop();
  });

  const cells = (page: Page, caption: string) =>
    page.$$eval(
      "main table",
      (tables, wanted) =>
        tables
          .filter((t) => (t as HTMLTableElement).caption?.textContent?.startsWith(wanted as string))
          .flatMap((t) =>
            [...t.querySelectorAll("tbody tr")].map((tr) =>
              [...(tr as HTMLTableRowElement).cells].map((td) => td.textContent),
            ),
          ),
      caption,
    );

  test("a job sent while no worker runs is waiting; two workers start, take it, and it fails", async () => {
    const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
    const page = await watchedPage(context, complaints);
    await page.goto(ui.url);
    await page.waitForSelector('main[data-ready="runs"]');
    await page.click('nav a[href="#/fleet"]');
    await page.waitForSelector('main[data-ready="fleet"]');
    assert.equal(await page.textContent("#workers-h + p"), "No worker is connected to this queue.");
    const waiting = await cells(page, "Jobs waiting");
    assert.deepEqual(
      waiting.map((row) => [row[0], row[1], row[2], row[3]]),
      [["job-1", "waiting", "broken.rlmplan.json", "0"]],
    );
    assert.equal(await page.textContent("#waiting-approvals"), "No call waits for approval.");
    const [schedule] = await cells(page, "1 schedule");
    assert.deepEqual(schedule?.slice(0, 4), ["nightly", "0 2 * * *", "UTC", "nightly.rlmplan.json"]);
    assert.notEqual(schedule?.[4], "", "when it is next due");
    // The schedule's next iteration waits, delayed, beside the job sent.
    assert.deepEqual(await cells(page, "Jobs by state"), [["1", "0", "1", "0", "0", "0"]]);

    for (const name of ["w1", "w2"]) {
      const worker = await startWorker(ws.dir, name, ["--queue", redis.url("fleet"), "--no-journal"]);
      workers.push(worker);
      await worker.waitFor(/ready: queue/);
    }
    for (let i = 0; i < 100 && (await queue.getJobCounts("failed")).failed === 0; i++)
      await new Promise((resolve) => setTimeout(resolve, 100));
    await page.reload();
    await page.waitForSelector('main[data-ready="fleet"]');
    const listed = await cells(page, "2 workers");
    assert.deepEqual(
      listed.map((row) => [row[0], row[1]]),
      [
        ["w1", "ok"],
        ["w2", "ok"],
      ],
    );
    const failed = await cells(page, "Jobs waiting");
    assert.equal(failed.length, 1);
    assert.deepEqual(failed[0]?.slice(0, 4), ["job-1", "failed", "broken.rlmplan.json", "1"]);
    assert.notEqual(failed[0]?.[5], "", "the reason it failed");
    await page.screenshot({ path: `${SHOTS}/ui-fleet.png`, fullPage: true });
    await context.close();

    assert.deepEqual(await routeViolations(browser, ui, "fleet"), []);
    assert.deepEqual(complaints, []);
  });
});
