// `rlm-plan ui --no-open` as a real process for the browser tests (started in a workspace, its
// printed URL with the token read from stdout, stopped with SIGINT as a user stops it), and what
// the tests ask of its pages: a page that reports dialogs and errors, an axe-core audit.

import { spawn, type ChildProcessByStdio } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after } from "node:test";
import type { Readable } from "node:stream";
import type { Browser, BrowserContext, Page } from "playwright-core";
import { CLI, ROOT } from "./cliWorkspace";

/** The Chromium the browser tests drive (the e2e setup's); a test says SKIPPED without it. */
export const CHROMIUM = process.env.E2E_CHROMIUM ?? "/usr/bin/chromium";

/** Where a test's screenshots go: docs/images/ with UPDATE_SCREENSHOTS=1, else a folder removed after the tests. */
export function screenshotsDir(): string {
  if (process.env.UPDATE_SCREENSHOTS === "1") return join(ROOT, "docs", "images");
  const dir = mkdtempSync(join(tmpdir(), "rlm-plan-ui-shots-"));
  after(() => rmSync(dir, { recursive: true, force: true }));
  return dir;
}

export interface UiProcess {
  /** The URL it printed, with its token. */
  readonly url: string;
  readonly origin: string;
  readonly child: ChildProcessByStdio<null, Readable, Readable>;
  stop(): Promise<void>;
}

export async function startUi(
  cwd: string,
  env: NodeJS.ProcessEnv = process.env,
  args: readonly string[] = [],
): Promise<UiProcess> {
  const child = spawn(process.execPath, [CLI, "ui", "--no-open", ...args], {
    cwd,
    stdio: ["ignore", "pipe", "pipe"],
    env,
  });
  const url = await new Promise<string>((resolve, reject) => {
    let out = "";
    child.stdout.setEncoding("utf8").on("data", (chunk: string) => {
      out += chunk;
      const found = /rlm-plan ui: (http:\/\/127\.0\.0\.1:\d+\/\?token=[A-Za-z0-9_-]{43})\n/.exec(out);
      if (found) resolve(found[1] as string);
    });
    child.on("exit", (code) => reject(new Error(`rlm-plan ui exited ${code}`)));
  });
  return {
    url,
    origin: new URL(url).origin,
    child,
    stop: async () => {
      if (child.exitCode !== null) return;
      const exited = new Promise((resolve) => child.once("exit", resolve));
      child.kill("SIGINT");
      await exited;
    },
  };
}

/** A page of the context that reports what it should never do (dialogs, console errors, page errors) into `complaints`. */
export async function watchedPage(context: BrowserContext, complaints: string[]): Promise<Page> {
  const page = await context.newPage();
  page.on("dialog", (dialog) => {
    complaints.push(`dialog: ${dialog.message()}`);
    void dialog.dismiss();
  });
  page.on("console", (message) => {
    if (message.type() === "error") complaints.push(`console: ${message.text()}`);
  });
  page.on("pageerror", (error) => complaints.push(`page error: ${error.message}`));
  return page;
}

/** axe-core run on the page as it is (injected as a script: the page's context must bypass its CSP): its serious and critical violations. */
export async function seriousViolations(page: Page): Promise<string[]> {
  await page.addScriptTag({ content: readFileSync(require.resolve("axe-core/axe.min.js"), "utf8") });
  return page.evaluate(async () => {
    const result = await (
      window as unknown as { axe: { run(): Promise<{ violations: { id: string; impact: string }[] }> } }
    ).axe.run();
    return result.violations
      .filter((v) => v.impact === "serious" || v.impact === "critical")
      .map((v) => `${v.id} (${v.impact})`);
  });
}

/** The serious and critical axe violations of one page of the app (`#/ROUTE`), in a context that admits axe's script. */
export async function routeViolations(browser: Browser, ui: UiProcess, route: string): Promise<string[]> {
  const audit = await browser.newContext({ bypassCSP: true });
  try {
    const page = await audit.newPage();
    await page.goto(ui.url);
    await page.goto(`${ui.origin}/#/${route}`);
    await page.waitForSelector(`main[data-ready="${route}"]`);
    return await seriousViolations(page);
  } finally {
    await audit.close();
  }
}
