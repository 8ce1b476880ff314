// The Approvals page of `rlm-plan ui` in headless Chromium, with a run made by the CLI that waits
// for approval (`run --as carol`, a rule holding every call of the marker tool for alice): the
// page lists the waiting step with its capability, masked arguments (hostile text shown as text)
// and the action's hash; a vote POSTed without the token, without an Origin or from another
// origin gets 403 and records nothing; approving from the page (name and reason from the form)
// records the vote as `runs approve` does and resumes the run, whose marker tool then runs
// exactly once; axe-core finds no serious violation. Says SKIPPED without Chromium.

import assert from "node:assert/strict";
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { after, before, describe, test } from "node:test";
import { chromium, type Browser } from "playwright-core";
import { cliWorkspace } from "../support/cliWorkspace";
import { CHROMIUM, screenshotsDir, routeViolations, startUi, watchedPage, type UiProcess } from "../support/uiProcess";

const SHOTS = screenshotsDir();

const HOSTILE = "</script><script>alert(1)</script>";
// Appends one line to ./marks per call: how many times the held call really ran.
const MARKER_TOOL = `
const fs = require("fs");
let input = "";
process.stdin.on("data", (c) => (input += c));
process.stdin.on("end", () => {
  fs.appendFileSync("marks", "marked\\n");
  process.stdout.write(JSON.stringify({ marked: JSON.parse(input).note }));
});
`;

describe("rlm-plan ui: the Approvals page", { skip: !existsSync(CHROMIUM) && `SKIPPED: no ${CHROMIUM}` }, () => {
  const ws = cliWorkspace("ui-approvals");
  let browser: Browser;
  let ui: UiProcess;
  let cookie = "";
  const complaints: string[] = [];
  const marks = () => (existsSync(join(ws.dir, "marks")) ? readFileSync(join(ws.dir, "marks"), "utf8") : "");

  before(async () => {
    ws.write("marker.js", MARKER_TOOL);
    ws.write(
      "rlmplan.host.json",
      JSON.stringify({
        capabilities: ["tool(marker)"],
        sandbox: "off",
        tools: { marker: { type: "command", command: [process.execPath, "marker.js"], timeoutMs: 30000 } },
        approvals: [{ tool: "marker", approvers: ["alice"], quorum: 1, timeout: 3600, requester_may_approve: false }],
      }),
    );
    ws.write(
      "mark.rlmplan.json",
      JSON.stringify({
        steps: [
          { op: "tool", name: "marker", args: { note: HOSTILE }, bind: "m" },
          { op: "final", value: { ref: "var", name: "m" } },
        ],
      }),
    );
    const waiting = ws.cli("run", "mark.rlmplan.json", "--as", "carol");
    assert.equal(waiting.code, 3, waiting.stderr);
    assert.equal(marks(), "", "the held call did not run");
    ui = await startUi(ws.dir);
    const first = await fetch(ui.url, { redirect: "manual" });
    cookie = (first.headers.get("set-cookie") ?? "").split(";")[0] as string;
    browser = await chromium.launch({ executablePath: CHROMIUM, args: ["--no-sandbox"] });
  });

  after(async () => {
    await browser?.close();
    await ui?.stop();
  });

  test("a vote without the token, without an Origin, or from another origin gets 403 and records nothing", async () => {
    const body = JSON.stringify({ run: 1, decision: "approve", approver: "alice", reason: "forged" });
    const post = (headers: Record<string, string>) =>
      fetch(`${ui.origin}/api/approvals/vote`, {
        method: "POST",
        headers: { "Content-Type": "application/json", ...headers },
        body,
      });
    const answers = [
      await post({ Origin: ui.origin }),
      await post({ Origin: ui.origin, cookie: "rlm_plan_ui=wrong" }),
      await post({ cookie }),
      await post({ cookie, Origin: "http://evil.example" }),
      await post({ cookie, Origin: ui.origin.replace("127.0.0.1", "127.0.0.2") }),
    ];
    assert.deepEqual(
      answers.map((a) => a.status),
      [403, 403, 403, 403, 403],
    );
    // As a form (no JSON) from the page's origin: refused too, and a GET is no vote.
    const form = await post({ cookie, Origin: ui.origin, "Content-Type": "application/x-www-form-urlencoded" });
    assert.equal(form.status, 415);
    const get = await fetch(`${ui.origin}/api/approvals/vote`, { headers: { cookie } });
    assert.equal(get.status, 405);
    const shown = ws.cli("runs", "show", "1");
    assert.doesNotMatch(shown.stdout, /forged|approved by/);
    assert.equal(JSON.parse(ws.cli("runs", "list", "--json").stdout)[0].status, "waiting");
  });

  test("a run's graph marks the step the recorded host profile's approval rule holds", async () => {
    const view = (await (await fetch(`${ui.origin}/api/runs/1`, { headers: { cookie } })).json()) as {
      graphSvg: string;
    };
    const badges = [...view.graphSvg.matchAll(/<g class="approval-badge" role="img" aria-label="([^"]*)"/g)];
    assert.deepEqual(
      badges.map((badge) => badge[1]),
      ["needs approval (rule 0: 1 of alice), at worst 1 time"],
    );
    assert.equal([...view.graphSvg.matchAll(/class="[^"]*needs-approval/g)].length, 1);
  });

  test("the page lists the waiting step; approving there resumes the run, whose held call runs once", async () => {
    const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
    const page = await watchedPage(context, complaints);
    await page.goto(ui.url);
    await page.waitForSelector('main[data-ready="runs"]');
    await page.click('nav a[href="#/approvals"]');
    await page.waitForSelector('main[data-ready="approvals"]');
    assert.equal(await page.textContent("section.approval h2"), "Run 1 waits at steps/0");
    const facts = await page.$$eval("section.approval dd", (dds) => dds.map((dd) => dd.textContent));
    assert.equal(facts[2], "tool(marker) at steps/0");
    assert.equal(facts[3], JSON.stringify({ arguments: { note: HOSTILE }, kind: "tool", tool: "marker" }));
    assert.match(facts[4] ?? "", /^sha256 [0-9a-f]{64}$/);
    assert.match(ws.cli("runs", "show", "1").stdout, new RegExp((facts[4] ?? "").replace("sha256 ", "")));
    assert.equal(facts[5], "1 of alice; approved so far: none");
    assert.equal(await page.$$eval("main script", (found) => found.length), 0);
    await page.screenshot({ path: join(SHOTS, "ui-approvals.png"), fullPage: true });
    assert.deepEqual(await routeViolations(browser, ui, "approvals"), []);

    // The reason is required: the browser does not send the form without it.
    await page.fill("input[name=approver]", "alice");
    await page.click("button[value=approve]");
    assert.equal(await page.textContent("#vote-said"), "");
    await page.fill("textarea[name=reason]", "checked the note");
    await page.click("button[value=approve]");
    await page.waitForFunction(() => (document.querySelector("#vote-said")?.textContent ?? "") !== "");
    assert.equal(
      await page.textContent("#vote-said"),
      `alice approved tool(marker) at steps/0 of run 1 (action ${facts[4]}). the quorum approved: resuming run 1`,
    );
    // The resumed run (another process) ends; its held call ran exactly once.
    for (let i = 0; i < 200 && JSON.parse(ws.cli("runs", "list", "--json").stdout)[0].status !== "ok"; i++)
      await new Promise((resolve) => setTimeout(resolve, 100));
    assert.equal(JSON.parse(ws.cli("runs", "list", "--json").stdout)[0].status, "ok");
    assert.equal(marks(), "marked\n");
    assert.match(ws.cli("runs", "show", "1").stdout, /approved by alice \(request #1\): checked the note/);
    await page.goto(`${ui.origin}/#/runs`);
    await page.goto(`${ui.origin}/#/approvals`);
    await page.waitForSelector('main[data-ready="approvals"]');
    assert.equal(await page.textContent("#approvals-list"), "No run waits for approval.");
    await context.close();
    assert.deepEqual(complaints, []);
  });
});
