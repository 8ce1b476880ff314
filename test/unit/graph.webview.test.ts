// The plan graph's view in headless Chromium, without VS Code: the very page the panel sets
// (client/src/graph/graphPage.ts, with VS Code's font variable on Linux) running
// dist/graphView.js inline, and dist/graphLayout.js (elkjs) when it asks for it, bundled as the .vsix
// gets them (scripts/bundle.mjs's options), fed the messages the panel sends, its own messages
// read back. Real fonts and real layout: each line of a node fits its box ("tool →
// merge_prompt" ran past it), a long plan's column draws without elkjs, a graph wider than its
// view opens fitted into it (its top step was cut off at the right), and the exported SVG keeps
// a newline of a binding name (XML reads a raw one as a space). Says SKIPPED without Chromium.

import assert from "node:assert/strict";
import { existsSync } from "node:fs";
import { after, before, describe, test } from "node:test";
import { build } from "esbuild";
import { chromium, type Browser, type Page } from "playwright-core";
import { analyzePlanText } from "@rlm-plan/core/analysis";
import { buildPlanGraph } from "@rlm-plan/core/graph/model";
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
  }
}

const tool = (name: string, bind: string) => ({ op: "tool", name, args: {}, bind });
const final = (name: string) => ({ op: "final", value: { ref: "var", name } });

describe("the plan graph's view in Chromium", { skip: !existsSync(CHROMIUM) && `SKIPPED: no ${CHROMIUM}` }, () => {
  let browser: Browser;
  const scripts = new Map<string, string>();
  /** The scripts each page asked for, by page. */
  const asked = new Map<Page, string[]>();
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

  /** A fresh view `width` pixels wide that has drawn `plan`; resolves once it said "rendered". */
  async function drawn(plan: object, width = 800): Promise<Page> {
    const page = await browser.newPage({ viewport: { width, height: 700 } });
    await page.addInitScript(() => {
      window.posted = [];
      (window as unknown as { acquireVsCodeApi(): object }).acquireVsCodeApi = () => ({
        postMessage: (message: FromWebview) => window.posted.push(message),
      });
    });
    const html = graphPageHtml({
      nonce: "bm9uY2Utb2YtdGhlLXRlc3Q=",
      script: scripts.get("/graphView.js") ?? "",
      layout: `${ORIGIN}/graphLayout.js`,
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
    assert.deepEqual(await page.evaluate(() => window.posted.map((m) => m.type)), ["loading", "ready"]);
    const graph = graphToWire(buildPlanGraph(analyzePlanText(JSON.stringify(plan))));
    const message: ToWebview = { type: "graph", graph, title: "Graph: test" };
    await page.evaluate((m) => window.postMessage(m, "*"), message);
    await page.waitForFunction(() => window.posted.some((m) => m.type === "rendered" || m.type === "error"));
    const failure = await page.evaluate(() => window.posted.find((m) => m.type === "error"));
    assert.equal(failure, undefined);
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
