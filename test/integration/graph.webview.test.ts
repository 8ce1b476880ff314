// The plan graph's view in headless Chromium, without VS Code: the very page the panel sets
// (client/src/graph/graphPage.ts, with VS Code's font variable on Linux) running
// dist/graphView.js inline, and dist/graphLayout.js (elkjs) when it asks for it, bundled as the .vsix
// gets them (scripts/bundle.mjs's options), fed the messages the panel sends, its own messages
// read back. Real fonts and real layout: each line of a node fits its box ("tool →
// merge_prompt" ran past it), a long plan's column draws without elkjs, a graph wider than its
// view opens fitted into it (its top step was cut off at the right), and the exported SVG keeps
// a newline of a binding name (XML reads a raw one as a space), and a big plan is drawn only
// around what is in view (a flat 10,000-step plan drawn whole took seconds a frame): exactly
// the steps around the fitted view at first, what a pan reaches after it (adding only what
// enters: a step in both windows stays the same element), no text zoomed out and the text again
// zoomed in once the wheel rests, a step selected out of view brought in, drawn and marked, and
// the export whole. Says SKIPPED without Chromium.

import assert from "node:assert/strict";
import { existsSync } from "node:fs";
import { after, before, describe, test } from "node:test";
import { build } from "esbuild";
import { chromium, type Browser, type Page } from "playwright-core";
import { analyzePlanText } from "@rlm-plan/core/analysis";
import { approvalForecast } from "@rlm-plan/core/host/approvalSteps";
import { layoutPlanGraph } from "@rlm-plan/core/graph/layout";
import { buildPlanGraph } from "@rlm-plan/core/graph/graphModel";
import { graphToWire } from "@rlm-plan/core/graph/wire";
import { graphPageHtml } from "rlm-plan-client/graph/graphPage";
import type { FromWebview, ToWebview } from "rlm-plan-client/graph/messages";
import { bundleScript } from "../support/bundleScript";

const CHROMIUM = process.env.E2E_CHROMIUM ?? "/usr/bin/chromium";
const ORIGIN = "https://graph.webview.test";
/** What VS Code sets on a webview's page on Linux. */
const VSCODE_FONT = `system-ui, "Ubuntu", "Droid Sans", sans-serif`;

declare global {
  interface Window {
    posted: FromWebview[];
    /** The content security policy's complaints (the directive each broke). */
    violations: string[];
  }
}

const tool = (name: string, bind: string) => ({ op: "tool", name, args: {}, bind });
const final = (name: string) => ({ op: "final", value: { ref: "var", name } });

describe("the plan graph's view in Chromium", { skip: !existsSync(CHROMIUM) && `SKIPPED: no ${CHROMIUM}` }, () => {
  let browser: Browser;
  const scripts = new Map<string, string>();
  /** The scripts each page asked for, by page. */
  const asked = new Map<Page, string[]>();
  /** What each page logged as an error. */
  const consoleErrors = new Map<Page, string[]>();
  before(async () => {
    const bundler = await bundleScript();
    for (const out of ["dist/graphView.js", "dist/graphLayout.js"]) {
      const result = await build({
        ...bundler.bundleOptions(bundler.entry(out)),
        write: false,
        sourcemap: false,
        logLevel: "silent",
      });
      scripts.set(out.slice("dist".length), result.outputFiles?.find((file) => file.path.endsWith(".js"))?.text ?? "");
    }
    browser = await chromium.launch({ executablePath: CHROMIUM, args: ["--no-sandbox"] });
  });
  after(async () => browser?.close());

  /** The graph message the panel sends for `plan`. */
  const graphMessage = (plan: object, seq?: number): ToWebview => ({
    type: "graph",
    graph: graphToWire(buildPlanGraph(analyzePlanText(JSON.stringify(plan)))),
    title: "Graph: test",
    ...(seq === undefined ? {} : { seq }),
  });

  /** A fresh page as the panel sets it, carrying `messages` (graphPage.ts); resolves once it said "ready". */
  async function opened(width: number, messages: readonly ToWebview[] = []): Promise<Page> {
    const page = await browser.newPage({ viewport: { width, height: 700 } });
    consoleErrors.set(page, []);
    page.on("console", (message) => {
      if (message.type() === "error") consoleErrors.get(page)?.push(message.text());
    });
    await page.addInitScript(() => {
      window.posted = [];
      window.violations = [];
      document.addEventListener("securitypolicyviolation", (event) => window.violations.push(event.violatedDirective));
      (window as unknown as { acquireVsCodeApi(): object }).acquireVsCodeApi = () => ({
        postMessage: (message: FromWebview) => window.posted.push(message),
      });
    });
    const html = graphPageHtml({
      nonce: "bm9uY2Utb2YtdGhlLXRlc3Q=",
      script: scripts.get("/graphView.js") ?? "",
      layout: `${ORIGIN}/graphLayout.js`,
      messages,
    }).replace('<html lang="en">', `<html lang="en" style='--vscode-font-family: ${VSCODE_FONT}'>`);
    asked.set(page, []);
    await page.route(`${ORIGIN}/**`, (route) => {
      const script = scripts.get(new URL(route.request().url()).pathname);
      if (script === undefined) return route.fulfill({ contentType: "text/html", body: html });
      asked.get(page)?.push(new URL(route.request().url()).pathname);
      return route.fulfill({ contentType: "text/javascript", body: script });
    });
    await page.goto(`${ORIGIN}/`);
    await page.waitForFunction(() => window.posted.some((m) => m.type === "ready"));
    return page;
  }

  /** Resolves once the page said "rendered" (and not "error"). */
  async function rendered(page: Page): Promise<void> {
    await page.waitForFunction(() => window.posted.some((m) => m.type === "rendered" || m.type === "error"));
    const failure = await page.evaluate(() => window.posted.find((m) => m.type === "error"));
    assert.equal(failure, undefined);
  }

  /** A fresh view `width` pixels wide that has drawn `plan`, posted to it; resolves once it said "rendered". */
  async function drawn(plan: object, width = 800): Promise<Page> {
    const page = await opened(width);
    assert.deepEqual(await page.evaluate(() => window.posted.map((m) => m.type)), ["loading", "ready"]);
    await page.evaluate((m) => window.postMessage(m, "*"), graphMessage(plan));
    await rendered(page);
    return page;
  }

  test("every line of every node ends inside its box, in the fonts VS Code uses on Linux", async () => {
    const page = await drawn({
      steps: [
        tool("merge", "merge_prompt"),
        tool("summarize_everything", "WWW_MMM_www_mmm"),
        { op: "model", provider: "planner", prompt: { ref: "var", name: "merge_prompt" }, bind: "answer" },
        final("answer"),
      ],
    });
    const overflows = await page.evaluate(() =>
      Array.from(document.querySelectorAll<SVGGElement>("#stage g.step")).flatMap((step) => {
        const rect = step.querySelector("rect") as SVGRectElement;
        const right = rect.x.baseVal.value + rect.width.baseVal.value;
        return Array.from(step.querySelectorAll<SVGTextElement>("text:not(.run):not(.attempts)"))
          .map((line) => ({ text: line.textContent, end: line.getBBox().x + line.getBBox().width, right }))
          .filter((line) => line.end > line.right - 4);
      }),
    );
    assert.deepEqual(overflows, []);
    const titles = await page.locator("#stage g.step text.title").allTextContents();
    assert.deepEqual(titles, ["tool → merge_prompt", "tool → WWW_MMM_www_mmm", "model → answer", "final"]);
    // A short plan is laid out by elkjs, loaded when the graph came.
    assert.deepEqual(asked.get(page), ["/graphLayout.js"]);
    await page.close();
  });

  test("a long plan's column is drawn without loading elkjs", async () => {
    const steps = Array.from({ length: 300 }, (_, i) => tool("t", `v${i}`));
    const page = await drawn({ steps: [...steps, final("v299")] });
    assert.equal(await page.locator("#stage g.step").count(), 301);
    assert.match((await page.locator("#status").textContent()) ?? "", /^301 steps · drawn in \d+ ms/);
    assert.deepEqual(asked.get(page), []);
    await page.close();
  });

  test("a graph wider than its view opens fitted into it: every step on screen", async () => {
    const branch = (i: number) => ({ steps: [tool(`fetch_source_${i}`, `page_${i}`), final(`page_${i}`)] });
    const page = await drawn(
      { steps: [{ op: "parallel", plans: [0, 1, 2, 3].map(branch), bind: "pages" }, final("pages")] },
      480,
    );
    const { frame, drawing, steps } = await page.evaluate(() => {
      const box = (element: Element) => {
        const r = element.getBoundingClientRect();
        return { id: element.getAttribute("data-id"), left: r.left, right: r.right, top: r.top, bottom: r.bottom };
      };
      return {
        frame: box(document.getElementById("canvas") as Element),
        drawing: box(document.querySelector("#stage svg") as Element),
        steps: Array.from(document.querySelectorAll("#stage g.step > rect")).map((rect) => ({
          ...box(rect),
          id: rect.parentElement?.getAttribute("data-id"),
        })),
      };
    });
    assert.equal(steps.length, 10);
    const outside = steps.filter((s) => s.left < frame.left || s.right > frame.right || s.top < frame.top);
    assert.deepEqual(outside, []);
    // Shrunk to the view's width less its margins, and centred.
    assert.ok(drawing.right - drawing.left <= frame.right - frame.left - 31, JSON.stringify({ drawing, frame }));
    assert.ok(
      Math.abs(drawing.left - frame.left - (frame.right - drawing.right)) < 1,
      JSON.stringify({ drawing, frame }),
    );
    await page.close();
  });

  /** The page's view: the stage's transform and the canvas's size. */
  async function viewOf(page: Page): Promise<{ x: number; y: number; scale: number; width: number; height: number }> {
    return page.evaluate(() => {
      const stage = document.getElementById("stage") as HTMLElement;
      const canvas = document.getElementById("canvas") as HTMLElement;
      const [x, y, scale] = (
        /translate\(([-\d.e]+)px, ([-\d.e]+)px\) scale\(([-\d.e]+)\)/.exec(stage.style.transform) ?? []
      )
        .slice(1)
        .map(Number);
      return { x: x ?? NaN, y: y ?? NaN, scale: scale ?? NaN, width: canvas.clientWidth, height: canvas.clientHeight };
    });
  }

  /** The ids of the steps in the page, in order. */
  const drawnSteps = (page: Page) =>
    page.evaluate(() => Array.from(document.querySelectorAll("#stage g.step")).map((g) => g.getAttribute("data-id")));

  /** The graph's step ids whose boxes meet `box` (the drawing's coordinates), as the layout places them. */
  async function stepsMeeting(plan: object, box: { x: number; y: number; width: number; height: number }) {
    const graph = buildPlanGraph(analyzePlanText(JSON.stringify(plan)));
    const layout = await layoutPlanGraph(graph);
    return graph.nodes
      .filter((node) => node.kind === "step")
      .map((node) => ({ id: node.id, at: layout.boxes.get(node.id) }))
      .filter(({ at }) => at && at.x <= box.x + box.width && box.x <= at.x + at.width)
      .filter(({ at }) => at && at.y <= box.y + box.height && box.y <= at.y + at.height)
      .map(({ id }) => id);
  }

  const bigPlan = {
    steps: [...Array.from({ length: 1000 }, (_, i) => tool("t", `v${i}`)), final("v999")],
  };

  test("a big plan draws the steps around the view, and what a pan reaches", async () => {
    const page = await drawn(bigPlan);
    assert.match((await page.locator("#status").textContent()) ?? "", /^1001 steps · drawn in \d+ ms/);
    // The fitted view and half its size again on each side, in the drawing's coordinates.
    const view = await viewOf(page);
    const [w, h] = [view.width / view.scale, view.height / view.scale];
    const shown = { x: -view.x / view.scale, y: -view.y / view.scale, width: w, height: h };
    const first = await stepsMeeting(bigPlan, { x: shown.x - w / 2, y: shown.y - h / 2, width: 2 * w, height: 2 * h });
    assert.deepEqual(await drawnSteps(page), first);
    assert.ok(first.length > 3 && first.length < 30, `${first.length} steps drawn`);
    // Drag the drawing up by 2,400 pixels, 600 at a time: the steps then in view are drawn, the first are not.
    for (let i = 0; i < 4; i++) {
      await page.mouse.move(400, 650);
      await page.mouse.down();
      for (let y = 600; y >= 50; y -= 50) await page.mouse.move(400, y);
      await page.mouse.up();
    }
    await page.evaluate(() => new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve))));
    const after = await viewOf(page);
    assert.equal(after.y, view.y - 2400);
    const inView = await stepsMeeting(bigPlan, {
      x: -after.x / after.scale,
      y: -after.y / after.scale,
      width: after.width / after.scale,
      height: after.height / after.scale,
    });
    const now = await drawnSteps(page);
    assert.deepEqual(
      inView.filter((id) => !now.includes(id)),
      [],
      "every step in view is drawn",
    );
    assert.ok(!now.includes("steps/0") && now.length < 30, JSON.stringify(now));
    await page.close();
  });

  /** The part of the drawing the page's view shows. */
  async function shownPart(page: Page) {
    const view = await viewOf(page);
    return {
      x: -view.x / view.scale,
      y: -view.y / view.scale,
      width: view.width / view.scale,
      height: view.height / view.scale,
    };
  }

  /** The part of the drawing in the page: its document's viewBox. */
  async function drawnPart(page: Page) {
    const [x, y, width, height] = ((await page.locator("#stage svg").getAttribute("viewBox")) ?? "")
      .split(" ")
      .map(Number);
    return { x: x ?? NaN, y: y ?? NaN, width: width ?? NaN, height: height ?? NaN };
  }

  /** Exactly the steps that meet the part drawn are in the page, in the graph's order, and every step in view is one. */
  async function drawnAroundView(page: Page): Promise<string[]> {
    const drawnIds = await drawnSteps(page);
    assert.deepEqual(drawnIds, await stepsMeeting(bigPlan, await drawnPart(page)));
    const missing = (await stepsMeeting(bigPlan, await shownPart(page))).filter((id) => !drawnIds.includes(id));
    assert.deepEqual(missing, [], "every step in view is drawn");
    return drawnIds as string[];
  }

  test("a big plan's pan adds what enters the window and keeps what stays, with its run state; zoomed out the text goes, zoomed in it comes back", async () => {
    const page = await drawn(bigPlan);
    const run: ToWebview = { type: "run", states: { "steps/12": { state: "ok", durationMs: 7 } }, summary: "Run 1" };
    await page.evaluate((m) => window.postMessage(m, "*"), run);
    assert.equal(
      await page.locator('#stage g.step[data-id="steps/12"]').count(),
      0,
      "steps/12 starts out of the window",
    );
    await page.evaluate(() =>
      Object.assign(document.querySelector('#stage g.step[data-id="steps/3"]') ?? {}, { kept: 1 }),
    );
    // Drag the drawing up by 400 pixels: the view leaves the window, which moves down.
    await page.mouse.move(400, 600);
    await page.mouse.down();
    for (let y = 550; y >= 200; y -= 50) await page.mouse.move(400, y);
    await page.mouse.up();
    await page.evaluate(() => new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve))));
    await drawnAroundView(page);
    const kept = await page.evaluate(
      () => (document.querySelector('#stage g.step[data-id="steps/3"]') as { kept?: number } | null)?.kept,
    );
    assert.equal(kept, 1, "a step in both windows is the same element");
    const entered = page.locator('#stage g.step[data-id="steps/12"]');
    assert.deepEqual(((await entered.getAttribute("class")) ?? "").split(" ").slice(-1), ["ok"]);
    assert.deepEqual(await entered.locator("text.run").allTextContents(), ["ok · 7 ms"]);
    // Eight wheel turns out (scale 0.24, under 0.35): once the wheel rests, boxes without text.
    for (let i = 0; i < 8; i++) await page.mouse.wheel(0, 120);
    await page.waitForFunction(() => document.querySelectorAll("#stage g.step text.title").length === 0);
    assert.ok((await viewOf(page)).scale < 0.35);
    const out = await drawnAroundView(page);
    assert.ok(out.length > 30, `${out.length} steps drawn zoomed out`);
    // And back in: the text again on every step drawn, and a window about the view's size again.
    for (let i = 0; i < 8; i++) await page.mouse.wheel(0, -120);
    await page.waitForFunction(() => document.querySelectorAll("#stage g.step text.title").length > 0);
    await page.evaluate(() => new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve))));
    assert.equal(Math.round((await viewOf(page)).scale * 100), 100);
    const back = await drawnAroundView(page);
    assert.ok(back.length < 40, `${back.length} steps drawn zoomed in`);
    assert.equal(await page.locator("#stage g.step text.title").count(), back.length);
    await page.close();
  });

  test("a big plan's step selected out of view is brought into it, drawn with its run state; the export holds every step", async () => {
    const page = await drawn(bigPlan);
    const run: ToWebview = {
      type: "run",
      states: { "steps/900": { state: "ok", durationMs: 4 } },
      summary: "Run 1 · ok",
    };
    await page.evaluate((m) => window.postMessage(m, "*"), run);
    await page.evaluate(() => window.postMessage({ type: "select", id: "steps/900" }, "*"));
    const step = page.locator('#stage g.step[data-id="steps/900"]');
    await step.waitFor();
    assert.deepEqual(((await step.getAttribute("class")) ?? "").split(" ").slice(-2), ["ok", "selected"]);
    assert.deepEqual(await step.locator("text.run").allTextContents(), ["ok · 4 ms"]);
    const [box, frame] = await Promise.all([step.boundingBox(), page.locator("#canvas").boundingBox()]);
    assert.ok(
      box && frame && box.y >= frame.y && box.y + box.height <= frame.y + frame.height,
      JSON.stringify({ box, frame }),
    );
    await page.evaluate(() => window.postMessage({ type: "export" }, "*"));
    await page.waitForFunction(() => window.posted.some((m) => m.type === "svg"));
    const exported = await page.evaluate(() => {
      const svg = window.posted.find((m) => m.type === "svg") as { text: string };
      const document = new DOMParser().parseFromString(svg.text, "image/svg+xml");
      return { steps: document.querySelectorAll("g.step").length, ok: document.querySelectorAll("g.step.ok").length };
    });
    assert.deepEqual(exported, { steps: 1001, ok: 1 });
    await page.close();
  });

  test("a graph posted early and again when the page is ready is drawn once; a newer one is drawn", async () => {
    const page = await drawn({ steps: [tool("t", "a"), final("a")] });
    const graph = graphToWire(buildPlanGraph(analyzePlanText(JSON.stringify({ steps: [final("b")] }))));
    const renders = () => page.evaluate(() => window.posted.filter((m) => m.type === "rendered").length);
    const post = (seq: number) =>
      page.evaluate((m) => window.postMessage(m, "*"), {
        type: "graph",
        graph,
        title: "Graph: test",
        seq,
      } as ToWebview);
    await post(1);
    await page.waitForFunction(() => window.posted.filter((m) => m.type === "rendered").length === 2);
    await post(1);
    await post(2);
    await page.waitForFunction(() => window.posted.filter((m) => m.type === "rendered").length >= 3);
    // Each message is handled in its own task, in order: a second drawing of 1 would have come before 2's.
    assert.equal(await renders(), 3);
    await post(1); // older than the one drawn: not drawn again
    await page.evaluate(() => new Promise((resolve) => setTimeout(resolve, 200)));
    assert.equal(await renders(), 3);
    await page.close();
  });

  test("a page set with its first graph, run states and selection draws them as its script runs, with no message; the graph posted again is not drawn again", async () => {
    const plan = { steps: [tool("t", "a"), tool("t", "b"), final("b")] };
    const page = await opened(800, [
      graphMessage(plan, 1),
      { type: "run", states: { "steps/1": { state: "ok", durationMs: 3 } }, summary: "Run 2 · ok" },
      { type: "select", id: "steps/0" },
    ]);
    await rendered(page);
    const said = await page.evaluate(() =>
      window.posted.map((m) => (m.type === "rendered" ? [m.type, m.steps] : m.type)),
    );
    assert.deepEqual(said, ["loading", "ready", ["rendered", 3]]);
    assert.equal(await page.locator('#stage g.step[data-id="steps/0"]').getAttribute("class"), "step op-tool selected");
    assert.deepEqual(await page.locator('#stage g.step[data-id="steps/1"] text.run').allTextContents(), ["ok · 3 ms"]);
    assert.match((await page.locator("#status").textContent()) ?? "", /^3 steps · drawn in \d+ ms · Run 2 · ok$/);
    // The panel posts what the page did not carry on "ready": the same graph again is not drawn.
    await page.evaluate((m) => window.postMessage(m, "*"), graphMessage(plan, 1));
    await page.evaluate(() => new Promise((resolve) => setTimeout(resolve, 200)));
    assert.equal(await page.evaluate(() => window.posted.filter((m) => m.type === "rendered").length), 1);
    await page.close();
  });

  test("a step named </script> in the messages a page carries stays text: no script runs from it, no policy is broken", async () => {
    const hostile = "</script><script>window.escaped=1</script><!--<script>";
    const plan = { steps: [tool(hostile, `x${hostile}`), tool("t\u2028</SCRIPT >&amp;", "y"), final("y")] };
    const view = await opened(800, [graphMessage(plan, 1)]);
    await rendered(view);
    assert.equal(await view.evaluate(() => (window as { escaped?: number }).escaped), undefined);
    // The page's three scripts (loading, the messages, the view), no more; elkjs is loaded by its address.
    assert.equal(await view.locator("script:not([src])").count(), 3);
    const titles = await view.locator("#stage g.step text.title").allTextContents();
    assert.deepEqual(titles, [`tool → x${hostile}`, "tool → y", "final"]);
    const detail = await view.evaluate(() => document.querySelector('#stage g.step[data-id="steps/1"]')?.textContent);
    assert.ok(detail?.includes("t\u2028</SCRIPT >&amp;"), JSON.stringify(detail));
    assert.deepEqual(await view.evaluate(() => window.violations), []);
    assert.deepEqual(consoleErrors.get(view), []);
    await view.close();
  });

  test("a step that can need approval is drawn marked: outline, mark line inside its box, badge named for a screen reader", async () => {
    const retry = { op: "retry", attempts: 3, plan: { steps: [tool("send", "s"), final("s")] }, bind: "r" };
    const analysis = analyzePlanText(JSON.stringify({ steps: [retry, final("r")] }));
    const rules = [{ tool: "send", approvers: ["alice", "bob"], quorum: 2, timeout: 60 }];
    const forecast = approvalForecast(analysis.plan!, rules);
    const page = await opened(800);
    const graph = graphToWire(buildPlanGraph(analysis, { approvals: forecast.steps }));
    await page.evaluate((m) => window.postMessage(m, "*"), { type: "graph", graph, title: "Graph: test" } as ToWebview);
    await rendered(page);
    const marked = await page.evaluate(() =>
      Array.from(document.querySelectorAll<SVGGElement>("#stage g.step.needs-approval")).map((step) => {
        const rect = step.querySelector("rect") as SVGRectElement;
        const line = step.querySelector<SVGTextElement>("text.approval") as SVGTextElement;
        const badge = step.querySelector(".approval-badge") as Element;
        return {
          id: step.getAttribute("data-id"),
          stroke: getComputedStyle(rect).stroke,
          line: line.textContent,
          inside: line.getBBox().x + line.getBBox().width <= rect.x.baseVal.value + rect.width.baseVal.value - 4,
          badge: [badge.getAttribute("role"), badge.getAttribute("aria-label"), badge.querySelector("title")],
        };
      }),
    );
    // The page's own hover text stands for the drawing's titles, the badge's too.
    assert.deepEqual(marked, [
      {
        id: "steps/0/plan/steps/0",
        stroke: "rgb(130, 80, 223)",
        line: "needs approval ×3",
        inside: true,
        badge: ["img", "needs approval (rule 0: 2 of alice, bob), at worst 3 times", null],
      },
    ]);
    await page.close();
  });

  test("the exported SVG keeps a newline of a binding name in data-bind", async () => {
    const page = await drawn({ steps: [tool("t", "two\nlines"), final("two\nlines")] });
    await page.evaluate(() => window.postMessage({ type: "export" }, "*"));
    await page.waitForFunction(() => window.posted.some((m) => m.type === "svg"));
    const bind = await page.evaluate(() => {
      const svg = window.posted.find((m) => m.type === "svg") as { text: string };
      const document = new DOMParser().parseFromString(svg.text, "image/svg+xml");
      return document.querySelector('g.step[data-id="steps/0"]')?.getAttribute("data-bind");
    });
    assert.equal(bind, "two\nlines");
    await page.close();
  });
});
