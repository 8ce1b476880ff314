// The plan graph's view in headless Chromium (the page graphPage.ts writes, dist/graphView.js
// inline, elkjs loaded when asked for, as in VS Code but without it): for flat plans of 100,
// 1,000 and 10,000 steps and a nested 10,000-step plan folded as Show Plan Graph folds it, the
// time from the graph message (posted inside the page, as VS Code delivers it) to the drawing,
// then the frames while panning (30 drags) and zooming (30 wheel turns): the interval between
// animation frames, median, 90th percentile and worst, against the same on the 100-step plan.
// Target (issue 22): pan and zoom under 50 ms a frame at 10,000.
//
//   npm run build && node scripts/bundle.mjs && node bench/out/graph-view.bench.js
//   GRAPH_VIEW_DIST=/work/main/dist node bench/out/graph-view.bench.js   (another build's view)
//   GRAPH_VIEW_ONLY="flat 10000" node bench/out/graph-view.bench.js      (one plan)
//   GRAPH_VIEW_TRACE=/tmp/zoom node bench/out/graph-view.bench.js        (keeps each zoom's trace, for DevTools)
//
// Each plan is also opened as the panel sets a page when the server's graph came first (the
// graph written into the page's HTML): from the page's start to its script, the graph read, drawn.
//
// Each zoom also prints where the page's main thread spent the gesture (a Chromium trace:
// script, style, layout, paint and the rest) and its longest task, the frame a user sees stall.

import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { cpus, loadavg } from "node:os";
import { join } from "node:path";
import { chromium, type Page } from "playwright-core";
import { analyzePlanText } from "@rlm-plan/core/analysis";
import { buildPlanGraph } from "@rlm-plan/core/graph/graphModel";
import { graphToWire } from "@rlm-plan/core/graph/wire";
import { graphPageHtml } from "rlm-plan-client/graph/graphPage";
import { planText, type PlanShape } from "./plans";

const ROOT = join(__dirname, "..", "..");
const CHROMIUM = process.env.E2E_CHROMIUM ?? "/usr/bin/chromium";
const ORIGIN = "https://graph.bench.test";

// The page's globals, for the functions that run in it (the bench compiles without the DOM library).
declare const window: {
  posted: { type: string }[];
  frames: number[];
  graph: unknown;
  postMessage(m: unknown, o: string): void;
};
declare function requestAnimationFrame(callback: (time: number) => void): number;

/** Where the view's scripts are: GRAPH_VIEW_DIST=/other/checkout/dist times another build (a before). */
const DIST = process.env.GRAPH_VIEW_DIST ?? join(ROOT, "dist");

async function view(
  page: Page,
  shape: PlanShape,
  steps: number,
): Promise<{ drawn: number; shown: number; firstLineToScript: number }> {
  const view = readFileSync(join(DIST, "graphView.js"), "utf8");
  const layout = readFileSync(join(DIST, "graphLayout.js"), "utf8");
  await page.addInitScript(() => {
    window.posted = [];
    (window as unknown as { acquireVsCodeApi(): object }).acquireVsCodeApi = () => ({
      postMessage: (message: { type: string }) => window.posted.push(message),
    });
  });
  const html = graphPageHtml({ nonce: "YmVuY2g=", script: view, layout: `${ORIGIN}/graphLayout.js` });
  await page.route(`${ORIGIN}/**`, (route) =>
    route.request().url().endsWith("/graphLayout.js")
      ? route.fulfill({ contentType: "text/javascript", body: layout })
      : route.fulfill({ contentType: "text/html", body: html }),
  );
  await page.goto(`${ORIGIN}/`);
  await page.waitForFunction(() => window.posted.some((m) => m.type === "ready"));
  // From the page's first line to its view script: the page as it was, with no data block.
  const firstLineToScript = await page.evaluate(() => {
    const at = <T>(type: string) => window.posted.find((m) => m.type === type) as T;
    return at<{ scriptRan: number }>("ready").scriptRan - at<{ at: number }>("loading").at;
  });
  const analysis = analyzePlanText(planText(shape, steps));
  // Show Plan Graph folds nested plans above 400 steps (graphPanel.ts).
  const graph = buildPlanGraph(analysis, steps > 400 ? { collapseDepth: 1 } : {});
  // The graph is put in the page first, untimed: Playwright took 40 s to pass a 10,000-step
  // graph's 6.5 MB as an argument, at a load of 15.
  await page.evaluate((g) => (window.graph = g), graphToWire(graph) as unknown);
  const started = Date.now();
  await page.evaluate(() => window.postMessage({ type: "graph", graph: window.graph, title: "bench" }, "*"));
  await page.waitForFunction(() => window.posted.some((m) => m.type === "rendered"), undefined, { timeout: 300000 });
  return { drawn: Date.now() - started, shown: graph.steps, firstLineToScript };
}

/**
 * The page as the panel now sets it when the server's graph came first: the graph written into
 * its HTML (graphPage.ts). From the page's start (its navigation), when its view script ran, when
 * it had read the graph it carried, and when it was drawn (ms); the layout and drawing as the
 * view timed them.
 */
async function carried(page: Page, shape: PlanShape, steps: number, bare: number): Promise<string> {
  const view = readFileSync(join(DIST, "graphView.js"), "utf8");
  const analysis = analyzePlanText(planText(shape, steps));
  const graph = buildPlanGraph(analysis, steps > 400 ? { collapseDepth: 1 } : {});
  await page.addInitScript(() => {
    window.posted = [];
    (window as unknown as { acquireVsCodeApi(): object }).acquireVsCodeApi = () => ({
      postMessage: (message: { type: string }) => window.posted.push(message),
    });
  });
  const messages = [{ type: "graph" as const, graph: graphToWire(graph), title: "bench", seq: 1 }];
  const html = graphPageHtml({ nonce: "YmVuY2g=", script: view, layout: `${ORIGIN}/graphLayout.js`, messages });
  const layout = readFileSync(join(DIST, "graphLayout.js"), "utf8");
  await page.route(`${ORIGIN}/**`, (route) =>
    route.request().url().endsWith("/graphLayout.js")
      ? route.fulfill({ contentType: "text/javascript", body: layout })
      : route.fulfill({ contentType: "text/html", body: html }),
  );
  await page.goto(`${ORIGIN}/`);
  await page.waitForFunction(() => window.posted.some((m) => m.type === "rendered"), undefined, { timeout: 300000 });
  const t = await page.evaluate(() => {
    const at = <T>(type: string) => window.posted.find((m) => m.type === type) as T;
    const ready = at<{ pageStarted: number; scriptRan: number }>("ready");
    const drawn = at<{ receivedAt: number; drawnAt: number; ms: number }>("rendered");
    return { ...ready, ...drawn, firstLine: at<{ at: number }>("loading").at };
  });
  const from = (time: number) => (time - t.pageStarted).toFixed(0);
  return (
    `${shape} ${steps} set with its graph (${(html.length / 1024).toFixed(0)} KiB of HTML): from the page's start, ` +
    `its first line ran at ${from(t.firstLine)} ms, its script at ${from(t.scriptRan)} (the data block parsed: ` +
    `${(t.scriptRan - t.firstLine).toFixed(0)} ms between them, ${bare.toFixed(0)} in the page without it), ` +
    `the graph read at ${from(t.receivedAt)}, drawn at ${from(t.drawnAt)} (layout and drawing ${t.ms.toFixed(0)})`
  );
}

/** A trace event of the page's renderer (the fields read here). */
interface TraceEvent {
  readonly name: string;
  readonly ph: string;
  readonly ts: number;
  readonly dur?: number;
  readonly pid: number;
  readonly tid: number;
}

/**
 * The main thread's time by kind in a Chromium trace (ms, each event's own time without what it
 * holds), its longest task, and the worst gap between two animation frames with the work traced
 * inside it: on the page's main thread, and on every thread of Chromium (a gap with little work in
 * it is Chromium waiting for a core, not the page's drawing).
 */
function mainThread(trace: Buffer): { kinds: string; longest: number; worst: string } {
  const events = (JSON.parse(trace.toString("utf8")) as { traceEvents: TraceEvent[] }).traceEvents;
  const kinds: Record<string, string> = {
    FunctionCall: "script",
    EventDispatch: "script",
    FireAnimationFrame: "script",
    EvaluateScript: "script",
    TimerFire: "script",
    "V8.Execute": "script",
    ParseHTML: "parse (innerHTML)",
    UpdateLayoutTree: "style",
    Layout: "layout",
    PrePaint: "paint",
    Paint: "paint",
    Layerize: "paint",
    UpdateLayer: "paint",
    Commit: "commit",
    MajorGC: "gc",
    MinorGC: "gc",
  };
  // The renderer's main thread: where the tasks that dispatch its events run.
  const task = events.find((e) => e.name === "EventDispatch" || e.name === "FireAnimationFrame");
  const main = events
    .filter((e) => task && e.pid === task.pid && e.tid === task.tid && e.ph === "X")
    .sort((a, b) => a.ts - b.ts || (b.dur ?? 0) - (a.dur ?? 0));
  // Own time: an event's duration less its children's (events nest on one thread).
  const own = new Map<TraceEvent, number>();
  const open: TraceEvent[] = [];
  for (const e of main) {
    while (
      open.length > 0 &&
      e.ts >= (open[open.length - 1] as TraceEvent).ts + ((open[open.length - 1] as TraceEvent).dur ?? 0)
    )
      open.pop();
    const parent = open[open.length - 1];
    if (parent) own.set(parent, (own.get(parent) ?? 0) - (e.dur ?? 0));
    own.set(e, (own.get(e) ?? 0) + (e.dur ?? 0));
    open.push(e);
  }
  const sums = new Map<string, number>();
  for (const [e, us] of own) {
    const kind = kinds[e.name] ?? (e.name === "RunTask" ? undefined : "other");
    if (kind) sums.set(kind, (sums.get(kind) ?? 0) + us / 1000);
  }
  const longest = Math.max(0, ...main.filter((e) => e.name === "RunTask").map((e) => (e.dur ?? 0) / 1000));
  const ticks = main.filter((e) => e.name === "FireAnimationFrame").map((e) => e.ts);
  let [gap, from] = [0, 0];
  for (let i = 1; i < ticks.length; i++)
    if ((ticks[i] as number) - (ticks[i - 1] as number) > gap)
      [gap, from] = [(ticks[i] as number) - (ticks[i - 1] as number), ticks[i - 1] as number];
  // Work inside the gap: top-level tasks only (a task's own events are inside it).
  const busy = (of: TraceEvent[]) =>
    of
      .filter((e) => e.name === "RunTask" && e.ts >= from && e.ts < from + gap)
      .reduce((sum, e) => sum + Math.min(e.dur ?? 0, from + gap - e.ts), 0) / 1000;
  const worst =
    `worst frame gap ${(gap / 1000).toFixed(1)} ms: the page's main thread busy ${busy(main).toFixed(1)} ms of it, ` +
    `all of Chromium's threads ${busy(events.filter((e) => e.ph === "X")).toFixed(1)} ms`;
  return {
    worst,
    kinds: Array.from(sums)
      .sort((a, b) => b[1] - a[1])
      .map(([kind, ms]) => `${kind} ${ms.toFixed(0)}`)
      .join(", "),
    longest,
  };
}

/** Animation-frame intervals (ms) while `act` runs: median, 90th percentile and worst. */
async function frames(page: Page, act: () => Promise<void>): Promise<{ median: number; p90: number; worst: number }> {
  await page.evaluate(() => {
    window.frames = [];
    const tick = (time: number) => {
      window.frames.push(time);
      requestAnimationFrame(tick);
    };
    requestAnimationFrame(tick);
  });
  await act();
  await page.waitForTimeout(200);
  const times = await page.evaluate(() => window.frames);
  const gaps = times
    .slice(1)
    .map((t, i) => t - (times[i] as number))
    .sort((a, b) => a - b);
  return {
    median: gaps[Math.floor(gaps.length / 2)] ?? 0,
    p90: gaps[Math.floor(gaps.length * 0.9)] ?? 0,
    worst: gaps[gaps.length - 1] ?? 0,
  };
}

async function main(): Promise<void> {
  if (!existsSync(CHROMIUM)) throw new Error(`no ${CHROMIUM}`);
  console.log(
    `plan graph view · ${cpus()[0]?.model ?? "cpu"} × ${cpus().length} · load ${loadavg()[0]?.toFixed(1)} · Chromium headless`,
  );
  console.log(`view from ${DIST}`);
  console.log("plan            shown  message→drawn ms  pan frame ms median/p90/worst  zoom frame ms median/p90/worst");
  const browser = await chromium.launch({ executablePath: CHROMIUM, args: ["--no-sandbox"] });
  try {
    const only = process.env.GRAPH_VIEW_ONLY;
    const breakdowns: string[] = [];
    for (const [shape, steps] of [
      ["flat", 100],
      ["flat", 1000],
      ["flat", 10000],
      ["nested", 10000],
    ] as const) {
      if (only && only !== `${shape} ${steps}`) continue;
      const page = await browser.newPage({ viewport: { width: 900, height: 700 } });
      const { drawn, shown, firstLineToScript } = await view(page, shape, steps);
      await page.mouse.move(880, 400);
      const pan = await frames(page, async () => {
        await page.mouse.down();
        for (let i = 0; i < 30; i++) await page.mouse.move(880 - (i % 10) * 8, 400 - i * 10);
        await page.mouse.up();
      });
      await browser.startTracing(page, { categories: ["devtools.timeline", "disabled-by-default-devtools.timeline"] });
      const zoom = await frames(page, async () => {
        for (let i = 0; i < 30; i++) await page.mouse.wheel(0, i < 15 ? 120 : -120);
      });
      const trace = await browser.stopTracing();
      if (process.env.GRAPH_VIEW_TRACE) writeFileSync(`${process.env.GRAPH_VIEW_TRACE}-${shape}-${steps}.json`, trace);
      const thread = mainThread(trace);
      breakdowns.push(
        `${shape} ${steps} zoom, the page's main thread (ms): ${thread.kinds}; longest task ${thread.longest.toFixed(1)}; ${thread.worst}`,
      );
      console.log(
        [
          `${shape} ${steps}`.padEnd(14),
          String(shown).padStart(6),
          String(drawn).padStart(17),
          `${pan.median.toFixed(1)} / ${pan.p90.toFixed(1)} / ${pan.worst.toFixed(1)}`.padStart(31),
          `${zoom.median.toFixed(1)} / ${zoom.p90.toFixed(1)} / ${zoom.worst.toFixed(1)}`.padStart(32),
        ].join(" "),
      );
      await page.close();
      const again = await browser.newPage({ viewport: { width: 900, height: 700 } });
      if (!process.env.GRAPH_VIEW_DIST) breakdowns.push(await carried(again, shape, steps, firstLineToScript));
      await again.close();
    }
    for (const line of breakdowns) console.log(line);
  } finally {
    await browser.close();
  }
}

void main();
