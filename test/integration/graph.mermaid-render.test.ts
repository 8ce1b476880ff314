// Every example plan's graph as `rlm-plan graph --format mermaid` prints it (the real CLI_BIN),
// rendered by Mermaid 11 itself in headless Chromium: each must draw, with every step a node.
// Mermaid needs a real DOM with layout (it measures text), hence a browser; it says SKIPPED
// without Chromium (scripts/install-e2e.sh installs it).

import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { existsSync, readFileSync } from "node:fs";
import { join, relative } from "node:path";
import { after, before, describe, test } from "node:test";
import { chromium, type Browser, type Page } from "playwright-core";
import { findWorkspaceFiles } from "@rlm-plan/core/workspaceFiles";
import { CLI_BIN, ROOT } from "../support/cliWorkspace";

const CHROMIUM = process.env.E2E_CHROMIUM ?? "/usr/bin/chromium";
const MERMAID = join(ROOT, "node_modules", "mermaid", "dist", "mermaid.min.js");
const PLANS = findWorkspaceFiles(join(ROOT, "examples")).filter((file) => file.endsWith(".rlmplan.json"));

declare const mermaid: {
  initialize(config: object): void;
  render(id: string, text: string): Promise<{ svg: string }>;
};

describe(
  "graph --format mermaid: every example renders in Mermaid",
  { skip: !existsSync(CHROMIUM) && `SKIPPED: no ${CHROMIUM}` },
  () => {
    let browser: Browser;
    let page: Page;
    before(async () => {
      browser = await chromium.launch({ executablePath: CHROMIUM, args: ["--no-sandbox"] });
      page = await browser.newPage();
      await page.setContent("<!doctype html><body></body>");
      await page.addScriptTag({ content: readFileSync(MERMAID, "utf8") });
      await page.evaluate(() => mermaid.initialize({ startOnLoad: false }));
    });
    after(async () => browser?.close());

    test("the examples are found", () => assert.ok(PLANS.length >= 9, PLANS.join(", ")));

    for (const [i, plan] of PLANS.entries()) {
      test(relative(ROOT, plan), async () => {
        const text = execFileSync(process.execPath, [CLI_BIN, "graph", plan, "--format", "mermaid"], {
          encoding: "utf8",
        });
        const rendered = await page.evaluate(
          async ([id, source]) => {
            try {
              return { svg: (await mermaid.render(id, source)).svg };
            } catch (error) {
              return { error: error instanceof Error ? error.message : String(error) };
            }
          },
          [`graph${i}`, text] as const,
        );
        assert.equal("error" in rendered ? rendered.error : undefined, undefined, text);
        const svg = ("svg" in rendered ? rendered.svg : undefined) ?? "";
        const steps = [...text.matchAll(/^\s*(n\d+)\("/gm)].map((m) => m[1] as string);
        assert.ok(steps.length > 0);
        assert.deepEqual(
          steps.filter((id) => !svg.includes(`flowchart-${id}-`)),
          [],
          "every step is a node of the drawing",
        );
      });
    }
  },
);
