// The Tests page of `rlm-plan ui` in headless Chromium, with test runs made by the CLI: a test
// file run twice whose case "flips" calls a command tool that counts its calls (odd passes, even
// fails), a case that always passes (named `<script>…</script>`) and one that always fails (its
// expected value hostile). The journal keeps each case's verdict (`runs list --json`); the page
// lists the flaky case first with its verdicts newest first, each a link to its run; hostile
// names render as text; axe-core finds no serious violation. `rlm-plan test --format html` writes
// one page that opens from file:// with the network refused: each case's verdict, its failures'
// expected and actual, its run's graph and timeline. Says SKIPPED without Chromium.

import assert from "node:assert/strict";
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { after, before, describe, test } from "node:test";
import { chromium, type Browser, type Page } from "playwright-core";
import { cliWorkspace } from "../support/cliWorkspace";
import {
  CHROMIUM,
  routeViolations,
  screenshotsDir,
  seriousViolations,
  startUi,
  watchedPage as watched,
  type UiProcess,
} from "../support/uiProcess";

const SHOTS = screenshotsDir();

const HOSTILE_CASE = "<script>alert(1)</script>";
const HOSTILE_VALUE = "</script>javascript:alert(2)";

// Counts its calls in ./count: odd calls answer "odd", even ones "even".
const FLIP_TOOL = `
const fs = require("fs");
process.stdin.resume();
process.stdin.on("end", () => {
  const n = Number(fs.readFileSync("count", "utf8")) + 1;
  fs.writeFileSync("count", String(n));
  process.stdout.write(JSON.stringify({ parity: n % 2 === 1 ? "odd" : "even" }));
});
`;
const odd = { parity: "odd" };
const mocked = { tools: { flip: [{ value: odd }] } };
const TEST_FILE = {
  plan: "flip.rlmplan.json",
  cases: [
    { name: "flips", expect: { value: { equals: odd } } },
    { name: HOSTILE_CASE, mocks: mocked, expect: { value: { equals: odd } } },
    { name: "always fails", mocks: mocked, expect: { value: { equals: { parity: HOSTILE_VALUE } } } },
  ],
};

describe("rlm-plan ui: the Tests page", { skip: !existsSync(CHROMIUM) && `SKIPPED: no ${CHROMIUM}` }, () => {
  const ws = cliWorkspace("ui-tests");
  let browser: Browser;
  let ui: UiProcess;
  const complaints: string[] = [];

  before(async () => {
    ws.write("flip.js", FLIP_TOOL);
    ws.write("count", "0");
    ws.write(
      "rlmplan.host.json",
      JSON.stringify({
        capabilities: ["tool(flip)"],
        budget: { max_steps: 20, max_tool_calls: 9 },
        tools: {
          flip: { type: "command", command: [process.execPath, "flip.js"], writes: ["count"], timeoutMs: 30000 },
        },
      }),
    );
    ws.write(
      "flip.rlmplan.json",
      JSON.stringify({
        steps: [
          { op: "tool", name: "flip", args: {}, bind: "a" },
          { op: "final", value: { ref: "var", name: "a" } },
        ],
      }),
    );
    ws.write("flip.rlmplan.test.json", JSON.stringify(TEST_FILE, null, 2));
    // First run: flips passes (call 1, odd); second: it fails (call 2, even).
    assert.equal(ws.cli("test", "flip.rlmplan.test.json").code, 1);
    assert.equal(ws.cli("test", "flip.rlmplan.test.json").code, 1);
    ui = await startUi(ws.dir);
    browser = await chromium.launch({ executablePath: CHROMIUM, args: ["--no-sandbox"] });
  });

  after(async () => {
    await browser?.close();
    await ui?.stop();
  });

  const watchedPage = async (): Promise<Page> =>
    watched(await browser.newContext({ viewport: { width: 1280, height: 800 } }), complaints);

  test("the journal keeps each case's verdict on its run, apart from the run's status", () => {
    const listed = JSON.parse(ws.cli("runs", "list", "--json").stdout) as {
      id: number;
      label: string;
      status: string;
      verdict?: { ok: boolean; failures: { assertion: string; message: string; expected?: unknown }[] };
    }[];
    assert.deepEqual(
      listed.map((run) => [run.id, run.label, run.status, run.verdict?.ok]),
      [
        [6, "flip.rlmplan.test.json#always fails", "ok", false],
        [5, `flip.rlmplan.test.json#${HOSTILE_CASE}`, "ok", true],
        [4, "flip.rlmplan.test.json#flips", "ok", false],
        [3, "flip.rlmplan.test.json#always fails", "ok", false],
        [2, `flip.rlmplan.test.json#${HOSTILE_CASE}`, "ok", true],
        [1, "flip.rlmplan.test.json#flips", "ok", true],
      ],
    );
    assert.deepEqual(listed[2]?.verdict?.failures, [
      {
        assertion: "value",
        message: 'value: expected {"parity":"odd"}, got {"parity":"even"}',
        expected: { parity: "odd" },
        actual: { parity: "even" },
      },
    ]);
  });

  test("the Tests page lists the flaky case first, its verdicts newest first, hostile names as text", async () => {
    const page = await watchedPage();
    await page.goto(ui.url);
    await page.waitForSelector('main[data-ready="runs"]');
    await page.click(`nav a[href="#/tests"]`);
    await page.waitForSelector('main[data-ready="tests"]');
    assert.equal(
      await page.textContent("#tests-list caption"),
      "3 test cases, 1 flaky (passed and failed at the same plan)",
    );
    const rows = await page.$$eval("#tests-list tbody tr", (trs) =>
      trs.map((tr) => {
        const cells = [...(tr as HTMLTableRowElement).cells];
        const runs = [...cells[4]!.querySelectorAll("a")].map((a) => `${a.getAttribute("href")} ${a.textContent}`);
        return [cells[0]!.textContent, cells[1]!.textContent, cells[2]!.textContent, runs.join(", ")];
      }),
    );
    assert.deepEqual(rows, [
      ["flip.rlmplan.test.json#flips", "flip.rlmplan.json", "flaky", "#/run/4 fail, #/run/1 pass"],
      [`flip.rlmplan.test.json#${HOSTILE_CASE}`, "flip.rlmplan.json", "pass", "#/run/5 pass, #/run/2 pass"],
      ["flip.rlmplan.test.json#always fails", "flip.rlmplan.json", "fail", "#/run/6 fail, #/run/3 fail"],
    ]);
    assert.equal(await page.$$eval("main script", (found) => found.length), 0);
    await page.screenshot({ path: join(SHOTS, "ui-tests.png"), fullPage: true });

    await page.fill("input[name=q]", "always");
    await page.press("input[name=q]", "Enter");
    await page.waitForFunction(() => document.querySelectorAll("#tests-list tbody tr").length === 1);
    assert.equal(new URL(page.url()).hash, "#/tests?q=always");
    await page.click('#tests-list a[aria-label="Run 6: fail"]');
    await page.waitForSelector('main[data-ready="run"]');
    assert.equal(await page.textContent("h1"), "Run 6 ok");
    await page.close();
  });

  test("axe-core finds no serious or critical violation on the Tests page", async () => {
    assert.deepEqual(await routeViolations(browser, ui, "tests"), []);
  });

  test("rlm-plan test --format html writes one page that opens from file:// with the network refused", async () => {
    const out = join(ws.dir, "report.html");
    // The third run: flips passes again (call 3, odd).
    const made = ws.cli("test", "flip.rlmplan.test.json", "--format", "html", "-o", out);
    assert.equal(made.code, 1, made.stderr);
    assert.equal(made.stdout, "");
    assert.equal(made.stderr, `rlm-plan: wrote the test report to ${out}\n`);
    const html = readFileSync(out, "utf8");
    assert.doesNotMatch(html, /<script src|<link (?!rel="icon" href="data:,">)|https?:\/\/(?!www\.w3\.org\/2000\/svg)/);
    assert.ok(!html.includes(`<script>alert(1)`), "the hostile case name is escaped in the data block");

    const offline = await browser.newContext({ viewport: { width: 1280, height: 800 } });
    const asked: string[] = [];
    await offline.route("**/*", (route) => {
      if (route.request().url().startsWith("file:")) return route.continue();
      asked.push(route.request().url());
      return route.abort();
    });
    const page = await watched(offline, complaints);
    await page.goto(`file://${out}`);
    await page.waitForSelector('main[data-ready="tests"]');
    assert.equal(await page.textContent("main h1"), "Tests: 2 passed, 1 failed");
    const rows = await page.$$eval("main tbody tr", (trs) =>
      trs.map((tr) => [...(tr as HTMLTableRowElement).cells].slice(0, 2).map((td) => td.textContent)),
    );
    assert.deepEqual(rows, [
      ["flip.rlmplan.test.json#flips", "pass"],
      [`flip.rlmplan.test.json#${HOSTILE_CASE}`, "pass"],
      ["flip.rlmplan.test.json#always fails", "fail"],
    ]);
    await page.screenshot({ path: join(SHOTS, "ui-test-report.png"), fullPage: true });
    await page.click("text=flip.rlmplan.test.json#always fails");
    await page.waitForSelector('main[data-ready="case"]');
    assert.deepEqual(await page.$$eval("ol.failures pre", (pres) => pres.map((pre) => pre.textContent)), [
      JSON.stringify({ parity: HOSTILE_VALUE }, null, 2),
      JSON.stringify(odd, null, 2),
    ]);
    // The case's run, drawn as the run page draws it: the graph with its steps' states, the timeline.
    assert.equal(await page.textContent(".case-run h1"), "Run 9 ok");
    const states = await page.$$eval(".case-run .graph g.step", (steps) =>
      steps.map(
        (g) =>
          `${g.getAttribute("data-id")} ${["ok", "failed", "skipped"].filter((c) => g.classList.contains(c)).join()}`,
      ),
    );
    assert.deepEqual(states, ["steps/0 ok", "steps/1 ok"]);
    assert.equal(await page.$$eval(".case-run .timeline .lane", (lanes) => lanes.length), 3);
    assert.equal(await page.$$eval("main script, main [href^='javascript']", (found) => found.length), 0);
    await page.goBack();
    await page.waitForSelector('main[data-ready="tests"]');
    assert.deepEqual(asked, []);
    await offline.close();

    const audit = await browser.newContext({ bypassCSP: true });
    const report = await audit.newPage();
    await report.goto(`file://${out}#/case/2`);
    await report.waitForSelector('main[data-ready="case"]');
    assert.deepEqual(await seriousViolations(report), []);
    await audit.close();
    assert.deepEqual(complaints, []);
  });
});
