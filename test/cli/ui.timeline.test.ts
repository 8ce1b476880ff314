// A run's timeline in `rlm-plan ui` draws steps and calls on one clock: the journal's, from the
// run's recorded start. The journal times calls from when it began recording and the run's events
// from when the plan began executing (the host and the preflight come between); the recorder
// writes where the second clock starts on the first (details.clock_offset_ms), and the page puts
// each step at its event's time plus that offset and each call at its recorded time. Checked on a
// run held at its second step (running) and again once it ended: every bar at its exact offset
// (its label's figures and its place on the track), and the finished step's call inside the step.
// Says SKIPPED without Chromium.

import assert from "node:assert/strict";
import { existsSync, rmSync } from "node:fs";
import { after, before, describe, test } from "node:test";
import { chromium, type Browser, type Page } from "playwright-core";
import { cliWorkspace, runCliAsync } from "../support/cliWorkspace";
import { CHROMIUM, startUi, watchedPage as watched, type UiProcess } from "../support/uiProcess";

// Answers {said: text}; "wait" holds its step while the file ./hold exists.
const ECHO_TOOL = `
let input = "";
process.stdin.on("data", (c) => (input += c));
process.stdin.on("end", () => {
  const args = JSON.parse(input);
  const hold = require("path").join(process.cwd(), "hold");
  const timer = setInterval(() => {
    if (args.text === "wait" && require("fs").existsSync(hold)) return;
    clearInterval(timer);
    process.stdout.write(JSON.stringify({ said: args.text }));
  }, 20);
});
`;

interface Recorded {
  details: { clock_offset_ms?: number };
  events: { segment: number; event: { type: string; path?: unknown; elapsed_ms?: number } }[];
  calls: { path: unknown; elapsedMs: number; durationMs: number }[];
}

interface Viewed {
  run: { elapsedMs: number | null };
  steps: { pointer: string; startedMs: number | null; durationMs: number | null }[];
  calls: { step: string; startedMs: number; durationMs: number }[];
}

const pointerOf = (path: unknown) => `/${(path as (string | number)[]).join("/")}`;

describe("rlm-plan ui: the timeline's one clock", { skip: !existsSync(CHROMIUM) && `SKIPPED: no ${CHROMIUM}` }, () => {
  const ws = cliWorkspace("ui-timeline");
  let browser: Browser;
  let ui: UiProcess;
  const complaints: string[] = [];

  before(async () => {
    ws.write("echo.js", ECHO_TOOL);
    ws.write(
      "rlmplan.host.json",
      JSON.stringify({
        capabilities: ["tool(echo)"],
        // Room for a loaded machine: the run waits for the test's checks at its second step.
        budget: { time_limit: 300 },
        tools: { echo: { type: "command", command: [process.execPath, "echo.js"], timeoutMs: 60000 } },
      }),
    );
    ws.write(
      "wait.rlmplan.json",
      JSON.stringify({
        steps: [
          { op: "tool", name: "echo", args: { text: "first" }, bind: "a" },
          { op: "tool", name: "echo", args: { text: "wait" }, bind: "b" },
          { op: "final", value: { ref: "var", name: "b" } },
        ],
      }),
    );
    ui = await startUi(ws.dir);
    browser = await chromium.launch({ executablePath: CHROMIUM, args: ["--no-sandbox"] });
  });

  after(async () => {
    await browser?.close();
    await ui?.stop();
  });

  /** The run as the journal holds it (`runs export`): its details, events and calls. */
  function recorded(): Recorded {
    const exported = ws.cli("runs", "export", "1");
    assert.equal(exported.code, 0, exported.stderr);
    return JSON.parse(exported.stdout) as Recorded;
  }

  /** Every bar of the page's timeline: its label, its figures and where it sits (percent of the track). */
  async function bars(page: Page): Promise<{ label: string; time: string; left: number; width: number }[]> {
    return page.$$eval(".timeline .lane", (lanes) =>
      lanes.map((lane) => {
        const bar = lane.querySelector(".bar") as HTMLElement;
        return {
          label: lane.querySelector(".lane-label")?.textContent ?? "",
          time: lane.querySelector(".lane-time")?.textContent ?? "",
          left: parseFloat(bar.style.marginLeft),
          width: parseFloat(bar.style.width),
        };
      }),
    );
  }

  const ms = (value: number) => (value >= 1000 ? `${(value / 1000).toFixed(1)} s` : `${Math.round(value)} ms`);

  /** The view and the page against the journal: each bar exactly where the one clock puts it. */
  async function check(page: Page, finished: boolean): Promise<void> {
    const journal = recorded();
    const offset = journal.details.clock_offset_ms;
    assert.equal(typeof offset, "number", "the recorder wrote where the run's clock starts");
    const view = (await page.evaluate(() => fetch("/api/runs/1").then((r) => r.json()))) as Viewed;
    const started = new Map<string, number>();
    for (const { event } of journal.events)
      if (event.type === "step_started") started.set(pointerOf(event.path), event.elapsed_ms as number);
    for (const step of view.steps.filter((s) => s.startedMs !== null))
      assert.equal(step.startedMs, (started.get(step.pointer) as number) + (offset as number), step.pointer);
    assert.deepEqual(
      view.calls.map((call) => [call.step, call.startedMs, call.durationMs]),
      journal.calls.map((call) => [pointerOf(call.path), call.elapsedMs, call.durationMs]),
    );
    // The first step ended: its call lies within it (1 ms of rounding each way).
    const first = view.steps.find((s) => s.pointer === "/steps/0");
    const call = view.calls.find((c) => c.step === "/steps/0");
    assert.ok(first?.startedMs !== null && first?.durationMs !== null && first && call);
    assert.ok(
      call.startedMs >= (first.startedMs as number) - 1,
      `call at ${call.startedMs}, step at ${first.startedMs}`,
    );
    assert.ok(
      call.startedMs + call.durationMs <= (first.startedMs as number) + (first.durationMs as number) + 1,
      `call ends at ${call.startedMs + call.durationMs}, step at ${(first.startedMs as number) + (first.durationMs as number)}`,
    );

    // The page: every bar's figures and place on its track, from the same numbers.
    const lanes = [
      ...view.steps
        .filter((s) => s.startedMs !== null)
        .flatMap((s) => [
          { start: s.startedMs as number, length: s.durationMs },
          ...view.calls.filter((c) => c.step === s.pointer).map((c) => ({ start: c.startedMs, length: c.durationMs })),
        ]),
    ];
    const end = Math.max(1, view.run.elapsedMs ?? 0, ...lanes.map((lane) => lane.start + (lane.length ?? 0)));
    const drawn = await bars(page);
    assert.equal(drawn.length, lanes.length);
    if (finished) assert.equal(drawn.length, 5);
    drawn.forEach((bar, i) => {
      const lane = lanes[i] as { start: number; length: number | null };
      assert.equal(bar.time, `${ms(lane.start)} +${lane.length === null ? "…" : ms(lane.length)}`, bar.label);
      // The browser keeps a percentage to 6 significant digits.
      const left = (lane.start / end) * 100;
      assert.equal(bar.left, Number(left.toPrecision(6)), `${bar.label}: ${bar.left}%, not ${left}%`);
    });
  }

  test("a running run's bars, then the finished run's, sit at the journal's times on one clock", async () => {
    const hold = ws.write("hold", "");
    const running = runCliAsync(ws.dir, ["run", "wait.rlmplan.json"]);
    after(() => rmSync(hold, { force: true }));
    const page = await watched(await browser.newContext(), complaints);
    await page.goto(ui.url);
    // Listed once its first step is recorded; then its page follows it.
    await page.waitForFunction(
      () => document.querySelector("#runs-list tbody tr td")?.textContent === "Run 1",
      undefined,
      {
        timeout: 30_000,
      },
    );
    await page.goto(`${ui.origin}/#/run/1`);
    // Held at its second step (the page redraws as the journal records it).
    await page.waitForFunction(
      () => document.querySelector('.graph g.step[data-id="steps/1"]')?.classList.contains("running"),
      undefined,
      { timeout: 30_000 },
    );
    assert.equal(await page.textContent("main h1"), "Run 1 running");
    await check(page, false);

    rmSync(hold, { force: true });
    assert.equal((await running).code, 0);
    await page.waitForFunction(() => document.querySelector("main h1")?.textContent === "Run 1 ok", undefined, {
      timeout: 30_000,
    });
    await check(page, true);
    assert.deepEqual(complaints, []);
    await page.close();
  });
});
