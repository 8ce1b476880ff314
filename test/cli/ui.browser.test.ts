// `rlm-plan ui` and `runs export --format html` in headless Chromium, with runs made by the CLI
// (a passing run whose values carry <script>, </script> and javascript:, a failed run whose error
// does, a fork of it that passes): the token guards every request (none or a wrong one: 403); the
// Runs page lists the runs newest first, filters and searches them, and shows a new run live;
// a run's page draws the graph with each step's state and the timeline, the error at its
// FILE:LINE:COL; compare shows the step that differs; the keyboard reaches a run and a step's row;
// axe-core finds no serious or critical violation; no hostile text runs as script (no dialog, no
// console error, no CSP violation); the export opens from file:// with the network refused and
// draws the same graph. Screenshots of each page go to a temporary folder, or to docs/images/
// with UPDATE_SCREENSHOTS=1. Says SKIPPED without Chromium.

import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, describe, test } from "node:test";
import { chromium, type Browser, type BrowserContext, type Page } from "playwright-core";
import { analyzePlanText } from "@rlm-plan/core/analysis";
import { buildPlanGraph } from "@rlm-plan/core/graph";
import { layoutPlanGraph } from "@rlm-plan/core/graph/layout";
import { renderSvg } from "@rlm-plan/core/graph/render";
import { CLI, ROOT, cliWorkspace, runCliAsync } from "../support/cliWorkspace";
import { seriousViolations, startUi, watchedPage as watched, type UiProcess } from "../support/uiProcess";

const CHROMIUM = process.env.E2E_CHROMIUM ?? "/usr/bin/chromium";
const KEEP_SHOTS = process.env.UPDATE_SCREENSHOTS === "1";
const SHOTS = KEEP_SHOTS ? join(ROOT, "docs", "images") : mkdtempSync(join(tmpdir(), "rlm-plan-ui-shots-"));
after(() => {
  if (!KEEP_SHOTS) rmSync(SHOTS, { recursive: true, force: true });
});
const HOSTILE = `<script>alert(1)</script>`;
/** A key in the viewer's environment (not the runs'): what the journal holds, the pages show masked. */
const SECRET = "sk-uitest-Viewer0Secret9";
const HOSTILE_ERROR = `</script><script>alert(2)</script> javascript:alert(3)`;

// Answers {said: text}; fails (its stderr the hostile error) when given a reply that said "bad".
const ECHO_TOOL = `
let input = "";
process.stdin.on("data", (c) => (input += c));
process.stdin.on("end", () => {
  const args = JSON.parse(input);
  if (args.text === "wait") {
    // Holds its step while the hold file exists: a run the page watches as it goes.
    const hold = require("path").join(process.cwd(), "hold");
    const timer = setInterval(() => {
      if (require("fs").existsSync(hold)) return;
      clearInterval(timer);
      process.stdout.write(JSON.stringify({ said: "waited" }));
    }, 50);
    return;
  }
  if (typeof args.text === "object" && JSON.stringify(args.text).includes("bad")) {
    process.stderr.write(${JSON.stringify(HOSTILE_ERROR)});
    process.exit(1);
  }
  process.stdout.write(JSON.stringify({ said: args.text }));
});
`;

const ref = (name: string) => ({ ref: "var", name });
const OK_PLAN = {
  steps: [
    { op: "tool", name: "echo", args: { text: HOSTILE }, bind: "a" },
    { op: "tool", name: "echo", args: { text: `javascript:alert(4) ${SECRET}` }, bind: "b" },
    { op: "final", value: { a: ref("a"), b: ref("b") } },
  ],
};
const WAITING_PLAN = {
  steps: [
    { op: "tool", name: "echo", args: { text: "first" }, bind: "a" },
    { op: "tool", name: "echo", args: { text: "wait" }, bind: "b" },
    { op: "final", value: ref("b") },
  ],
};
const FAILING_PLAN = {
  steps: [
    { op: "tool", name: "echo", args: { text: "bad" }, bind: "a" },
    { op: "tool", name: "echo", args: { text: ref("a") }, bind: "b" },
    { op: "final", value: ref("b") },
  ],
};

describe("rlm-plan ui in Chromium", { skip: !existsSync(CHROMIUM) && `SKIPPED: no ${CHROMIUM}` }, () => {
  const ws = cliWorkspace("ui");
  let browser: Browser;
  let server: UiProcess;
  let url = "";
  let origin = "";
  let context: BrowserContext;
  /** What the pages said that they should not have: dialogs, console errors, CSP violations. */
  const complaints: string[] = [];

  before(async () => {
    ws.write("echo.js", ECHO_TOOL);
    ws.write(
      "rlmplan.host.json",
      JSON.stringify({
        capabilities: ["tool(echo)"],
        budget: { max_steps: 20, max_tool_calls: 9 },
        tools: { echo: { type: "command", command: [process.execPath, "echo.js"], timeoutMs: 30000 } },
      }),
    );
    ws.write("ok.rlmplan.json", JSON.stringify(OK_PLAN, null, 2));
    ws.write("fail.rlmplan.json", JSON.stringify(FAILING_PLAN, null, 2));
    ws.write("wait.rlmplan.json", JSON.stringify(WAITING_PLAN, null, 2));
    assert.equal(ws.cli("run", "ok.rlmplan.json").code, 0);
    assert.equal(ws.cli("run", "fail.rlmplan.json").code, 1);
    const fork = ws.cli("run", "--from", "2", "--step", "/steps/1", "--set", 'a={"said":"good"}');
    assert.equal(fork.code, 0, fork.stderr);
    server = await startUi(ws.dir, { ...process.env, VIEWER_API_KEY: SECRET });
    ({ url, origin } = server);
    browser = await chromium.launch({ executablePath: CHROMIUM, args: ["--no-sandbox"] });
    context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
  });

  after(async () => {
    await browser?.close();
    await server?.stop();
  });

  /** A page of the context that reports what it should never do. */
  const watchedPage = (into = context): Promise<Page> => watched(into, complaints);

  async function ready(page: Page, which: string): Promise<void> {
    await page.waitForSelector(`main[data-ready="${which}"]`);
  }

  test("without the token, or with a wrong one, every request gets 403; with it, a cookie and the page", async () => {
    for (const path of [
      "/",
      "/api/runs",
      "/api/runs/1",
      "/api/events",
      "/ui.js",
      "/?token=wrong",
      "/api/runs?token=",
    ]) {
      const response = await fetch(`${origin}${path}`, { redirect: "manual" });
      assert.equal(response.status, 403, path);
      await response.text();
    }
    const wrongCookie = await fetch(`${origin}/api/runs`, { headers: { cookie: "rlm_plan_ui=wrong" } });
    assert.equal(wrongCookie.status, 403);
    const first = await fetch(url, { redirect: "manual" });
    assert.equal(first.status, 303);
    assert.equal(first.headers.get("location"), "/");
    const cookie = first.headers.get("set-cookie") ?? "";
    assert.match(cookie, /^rlm_plan_ui=[A-Za-z0-9_-]{43}; HttpOnly; SameSite=Strict; Path=\/$/);
    const page = await fetch(`${origin}/`, { headers: { cookie: cookie.split(";")[0] as string } });
    assert.equal(page.status, 200);
    assert.equal(
      page.headers.get("content-security-policy"),
      "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; connect-src 'self'; frame-ancestors 'none'; base-uri 'none'; form-action 'self'",
    );
    assert.equal(page.headers.get("x-content-type-options"), "nosniff");
    assert.equal(page.headers.get("referrer-policy"), "no-referrer");
    assert.doesNotMatch(await page.text(), /<script>|<style>| style=/);
  });

  test("the Runs page lists the runs newest first, filters and searches them, and shows a new run live", async () => {
    const page = await watchedPage();
    await page.goto(url);
    await ready(page, "runs");
    assert.equal(new URL(page.url()).search, "", "the token left the address bar");
    const rows = () =>
      page.$$eval("#runs-list tbody tr", (trs) =>
        trs.map((tr) => [...(tr as HTMLTableRowElement).cells].map((td) => td.textContent)),
      );
    const listed = await rows();
    assert.deepEqual(
      listed.map((cells) => [cells[0], cells[1], cells[4], cells[5]]),
      [
        ["Run 3", "ok", join(ws.dir, "fail.rlmplan.json"), ""],
        ["Run 2", "failed", join(ws.dir, "fail.rlmplan.json"), "tool_error"],
        ["Run 1", "ok", join(ws.dir, "ok.rlmplan.json"), ""],
      ],
    );
    assert.equal(listed[0]?.[6], "cli, fork of run 2 at steps/1");
    await page.screenshot({ path: join(SHOTS, "ui-runs.png"), fullPage: true });

    await page.selectOption("select[name=status]", "failed");
    await page.click("form.filters button");
    await page.waitForFunction(() => document.querySelectorAll("#runs-list tbody tr").length === 1);
    assert.deepEqual(
      (await rows()).map((cells) => cells[0]),
      ["Run 2"],
    );
    await page.goto(`${origin}/#/runs?q=ok.rlmplan`);
    await page.waitForFunction(() => document.querySelectorAll("#runs-list tbody tr").length === 1);
    assert.deepEqual(
      (await rows()).map((cells) => cells[0]),
      ["Run 1"],
    );

    await page.goto(`${origin}/#/runs`);
    await page.waitForFunction(() => document.querySelectorAll("#runs-list tbody tr").length === 3);
    assert.equal(ws.cli("run", "ok.rlmplan.json").code, 0);
    await page.waitForFunction(() => document.querySelectorAll("#runs-list tbody tr").length === 4, undefined, {
      timeout: 10_000,
    });
    assert.deepEqual(
      (await rows()).map((cells) => cells[0]),
      ["Run 4", "Run 3", "Run 2", "Run 1"],
    );
    await page.close();
  });

  test("a run's page draws the graph with each step's state, the timeline, and the error at FILE:LINE:COL", async () => {
    const page = await watchedPage();
    await page.goto(`${origin}/#/run/2`);
    await ready(page, "run");
    assert.equal(await page.textContent("h1"), "Run 2 failed");
    const states = await page.$$eval(".graph g.step", (steps) =>
      steps.map((g) => [
        g.getAttribute("data-id"),
        ["ok", "failed", "skipped", "running", "cancelled"].filter((s) => g.classList.contains(s)).join(),
      ]),
    );
    assert.deepEqual(states, [
      ["steps/0", "ok"],
      ["steps/1", "failed"],
      ["steps/2", "skipped"],
    ]);
    // Each call's bar lies within its step's (the journal's clock and the events' aligned; 1 ms of rounding).
    const view = await page.evaluate(() => fetch("/api/runs/2").then((r) => r.json()));
    for (const call of view.calls as { step: string; startedMs: number; durationMs: number }[]) {
      const step = (view.steps as { pointer: string; startedMs: number; durationMs: number }[]).find(
        (s) => s.pointer === call.step,
      );
      assert.ok(step, call.step);
      assert.ok(call.startedMs >= step.startedMs - 1, `${call.step} starts within its step`);
      assert.ok(
        call.startedMs + call.durationMs <= step.startedMs + step.durationMs + 1,
        `${call.step} ends within its step`,
      );
    }
    const lanes = await page.$$eval(".timeline .lane-label", (labels) => labels.map((l) => l.textContent));
    assert.deepEqual(lanes, [
      "/steps/0 tool(echo) (ok)",
      "  tool echo: ok",
      "/steps/1 tool(echo) (failed)",
      "  tool echo: error",
    ]);
    const place = await page.$$eval("a.place", (links) => links.map((a) => a.textContent));
    const file = join(ws.dir, "fail.rlmplan.json");
    assert.deepEqual(place, [`${file}:3:5`, `${file}:11:5`, `${file}:22:5`]);
    const error = await page.textContent(".run-error");
    assert.match(
      error ?? "",
      /^Error \[execute\/tool_error\]: .*<\/script><script>alert\(2\)<\/script> javascript:alert\(3\)/,
    );
    await page.screenshot({ path: join(SHOTS, "ui-run.png"), fullPage: true });

    await page.goto(`${origin}/#/run/1`);
    await ready(page, "run");
    const value = (await page.textContent("pre.value")) ?? "";
    assert.match(value, /"said": "<script>alert\(1\)<\/script>"/);
    assert.match(value, /"said": "javascript:alert\(4\) \*\*\*"/);
    assert.ok(!(await page.content()).includes(SECRET), "the viewer's key is masked");
    assert.equal(await page.$$eval("main script, main [href^='javascript']", (found) => found.length), 0);
    assert.equal(await page.$$eval("script", (all) => all.length), 1, "only the page's own script");
    await page.close();
  });

  test("a running run's page shows its steps' states as they are recorded, without a reload", async () => {
    const hold = ws.write("hold", "");
    const running = runCliAsync(ws.dir, ["run", "wait.rlmplan.json"]);
    // Whatever fails here, the held step is let go, so no run is left waiting.
    after(() => rmSync(hold, { force: true }));
    const page = await watchedPage();
    // Run 5 (after the live run 4): listed once its first step is recorded.
    await page.goto(`${origin}/#/runs`);
    await page.waitForFunction(
      () => document.querySelector("#runs-list tbody tr td")?.textContent === "Run 5",
      undefined,
      {
        timeout: 15_000,
      },
    );
    await page.goto(`${origin}/#/run/5`);
    await ready(page, "run");
    const stateOf = (id: string) =>
      page.$eval(`.graph g.step[data-id="${id}"]`, (g) =>
        ["ok", "failed", "skipped", "running", "cancelled"].filter((s) => g.classList.contains(s)).join(),
      );
    await page.waitForFunction(
      () => document.querySelector('.graph g.step[data-id="steps/1"]')?.classList.contains("running"),
      undefined,
      {
        timeout: 15_000,
      },
    );
    assert.equal(await page.textContent("h1"), "Run 5 running");
    assert.equal(await stateOf("steps/0"), "ok");
    assert.equal(await stateOf("steps/2"), "", "a step not reached yet is not skipped");
    rmSync(hold, { force: true });
    await page.waitForFunction(() => document.querySelector("main h1")?.textContent === "Run 5 ok", undefined, {
      timeout: 15_000,
    });
    assert.deepEqual(
      [await stateOf("steps/0"), await stateOf("steps/1"), await stateOf("steps/2")],
      ["ok", "ok", "ok"],
    );
    assert.equal((await running).code, 0);
    await page.close();
  });

  test("compare shows the step that differs between the failed run and its fork", async () => {
    const page = await watchedPage();
    await page.goto(`${origin}/#/compare/2/3`);
    await page.waitForSelector("#compare .verdict");
    assert.equal(await page.textContent("#compare .verdict"), "2 of 3 steps differ (2 changed, 0 added, 0 removed).");
    const rows = await page.$$eval("#compare tbody tr", (trs) =>
      trs.map((tr) => [...(tr as HTMLTableRowElement).cells].slice(0, 3).map((td) => td.textContent)),
    );
    assert.deepEqual(rows[0], ["/steps/1", "changed", "status, error, value, calls"]);
    await page.screenshot({ path: join(SHOTS, "ui-compare.png"), fullPage: true });
    await page.close();
  });

  test("the keyboard reaches a run from the search box, and a graph step's row", async () => {
    const page = await watchedPage();
    await page.goto(`${origin}/#/runs`);
    await ready(page, "runs");
    await page.focus("a.skip");
    await page.keyboard.press("Enter");
    assert.equal(await page.evaluate(() => document.activeElement?.id), "main");
    assert.equal(new URL(page.url()).hash, "#/runs", "the skip link is no route");
    await page.focus("input[name=q]");
    await page.keyboard.type("fail.rlmplan");
    await page.keyboard.press("Enter");
    await page.waitForFunction(() => document.querySelectorAll("#runs-list tbody tr").length === 2);
    // From the search box: the other filters, the button, then the first run's link.
    for (let i = 0; i < 20; i++) {
      await page.keyboard.press("Tab");
      if (await page.evaluate(() => document.activeElement?.textContent === "Run 3")) break;
    }
    await page.keyboard.press("Enter");
    await ready(page, "run");
    assert.equal(await page.textContent("h1"), "Run 3 ok");
    await page.focus('.graph g.step[data-id="steps/1"]');
    await page.keyboard.press("Enter");
    assert.equal(await page.evaluate(() => document.activeElement?.id), "step-steps_1");
    await page.close();
  });

  test("axe-core finds no serious or critical violation on any page", async () => {
    // axe is injected as the test's script: the page's own policy admits no other.
    const audit = await browser.newContext({ bypassCSP: true });
    const page = await audit.newPage();
    await page.goto(url);
    for (const [route, which] of [
      ["#/runs", "runs"],
      ["#/run/2", "run"],
      ["#/compare/2/3", "compare"],
    ] as const) {
      await page.goto(`${origin}/${route}`);
      await ready(page, which);
      const violations = await seriousViolations(page);
      assert.deepEqual(violations, [], route);
    }
    await audit.close();
  });

  test("the HTML export opens from file:// with the network refused and draws the same graph", async () => {
    const out = join(ws.dir, "run-2.html");
    const exported = spawnSync(process.execPath, [CLI, "runs", "export", "2", "--format", "html", "-o", out], {
      cwd: ws.dir,
      encoding: "utf8",
      env: { ...process.env, VIEWER_API_KEY: SECRET },
    });
    assert.equal(exported.status, 0, exported.stderr);
    const html = readFileSync(out, "utf8");
    const withKey = spawnSync(process.execPath, [CLI, "runs", "export", "1", "--format", "html"], {
      cwd: ws.dir,
      encoding: "utf8",
      env: { ...process.env, VIEWER_API_KEY: SECRET },
    });
    assert.equal(withKey.status, 0, withKey.stderr);
    assert.ok(withKey.stdout.includes("javascript:alert(4) ***"));
    assert.ok(!withKey.stdout.includes(SECRET), "the key is masked in an export");
    assert.doesNotMatch(html, /<script src|<link (?!rel="icon" href="data:,">)|https?:\/\/(?!www\.w3\.org\/2000\/svg)/);
    const offline = await browser.newContext();
    const asked: string[] = [];
    await offline.route("**/*", (route) => {
      if (route.request().url().startsWith("file:")) return route.continue();
      asked.push(route.request().url());
      return route.abort();
    });
    const page = await watchedPage(offline);
    await page.goto(`file://${out}`);
    await ready(page, "run");
    const states = await page.$$eval(".graph g.step", (steps) =>
      steps.map((g) => `${g.getAttribute("data-id")} ${g.getAttribute("class")}`),
    );
    const served = await watchedPage();
    await served.goto(`${origin}/#/run/2`);
    await ready(served, "run");
    const servedStates = await served.$$eval(".graph g.step", (steps) =>
      steps.map((g) => `${g.getAttribute("data-id")} ${g.getAttribute("class")}`),
    );
    assert.deepEqual(states, servedStates);
    assert.equal(await page.textContent("h1"), "Run 2 failed");
    assert.equal(await page.$$eval(".timeline .lane", (lanes) => lanes.length), 4);
    await page.screenshot({ path: join(SHOTS, "ui-export.png"), fullPage: true });
    assert.deepEqual(asked, []);
    await offline.close();
    await served.close();
  });

  test("the renderer escapes a hostile label, and no page ran a script or broke its policy", async () => {
    const plan = JSON.stringify({
      steps: [
        { op: "tool", name: "x</text><script>alert(5)</script>", args: {}, bind: "javascript_x" },
        { op: "final", value: "v" },
      ],
    });
    const graph = buildPlanGraph(analyzePlanText(plan));
    const svg = renderSvg(graph, await layoutPlanGraph(graph));
    assert.doesNotMatch(svg, /<script/);
    assert.match(svg, /&lt;\/text&gt;&lt;script&gt;alert\(5\)&lt;\/script&gt;/);
    assert.deepEqual(complaints, []);
  });
});
