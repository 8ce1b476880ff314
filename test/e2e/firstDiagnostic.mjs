// Timing a window's first diagnostic as the screen shows it (issue 22, target 1; scenario (a)):
// the workbench page itself notes when the file's tab, the Problems count and the first squiggle
// enter its DOM (a mutation observer) and its long tasks, so no figure carries the test's own
// polling. With E2E_FLOOR=1 the same timing runs in a second window where a fixture extension
// (test/e2e/floor-extension/) publishes an error the moment the file opens: VS Code's own floor,
// printed beside ours. Printed, never asserted (no timed assertions); bench/README.md records it.

import { execFile } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { promisify } from "node:util";
import { REPO, Workbench, installExtension, log, norm } from "./harness.mjs";

const execFileP = promisify(execFile);

export const FLOOR = Boolean(process.env.E2E_FLOOR);
/**
 * The floor window's file: broken.rlmplan.json's text with its comment lines left blank (plain
 * JSON, so VS Code's JSON support finds nothing to report; the lines keep their numbers).
 */
export const FLOOR_FILE = "broken.json";
const FLOOR_EXTENSION = path.join(REPO, "test/e2e/floor-extension");

/**
 * Starts watching the workbench page before `name` opens: when the file's tab, then the first
 * squiggle, entered the DOM (and the frame that drew it began), each change of the Problems
 * count in the status bar, the last Enter before the tab, and the page's long tasks (Chromium's
 * Long Tasks API), every time as Date.now() on this machine's clock.
 */
export async function watchWorkbench(page, name) {
  await page.evaluate((name) => {
    const document = globalThis.document;
    const seen = { enter: 0, tab: 0, problems: [], squiggle: 0, squiggleFrame: 0, longTasks: [] };
    globalThis.rlmPlanE2eWatch = seen;
    globalThis.rlmPlanE2eSquiggle = new Promise((resolve) => (globalThis.rlmPlanE2eSquiggled = resolve));
    const tabSelector = `.tab[data-resource-name=${JSON.stringify(name)}]`;
    const problems = () => document.getElementById("status.problems")?.textContent ?? "";
    let last = problems();
    globalThis.addEventListener(
      "keydown",
      (event) => {
        if (event.key === "Enter" && !seen.tab) seen.enter = Date.now();
      },
      true,
    );
    new MutationObserver(() => {
      const now = Date.now();
      if (!seen.tab && document.querySelector(tabSelector)) seen.tab = now;
      const text = problems();
      if (text !== last) seen.problems.push({ at: now, text: (last = text) });
      if (!seen.squiggle && document.querySelector(".editor-instance .squiggly-error")) {
        seen.squiggle = now;
        globalThis.requestAnimationFrame(() => {
          seen.squiggleFrame = Date.now();
          globalThis.rlmPlanE2eSquiggled();
        });
      }
    }).observe(document.body, { subtree: true, childList: true, characterData: true });
    new PerformanceObserver((list) => {
      for (const entry of list.getEntries())
        seen.longTasks.push({
          at: Math.round(performance.timeOrigin + entry.startTime),
          ms: Math.round(entry.duration),
        });
    }).observe({ type: "longtask" });
  }, name);
  return {
    /** Resolves when the frame that draws the first squiggle begins (the page's own events, no polling). */
    squiggle: (timeout = 60000) =>
      page.evaluate(
        (timeout) =>
          Promise.race([
            globalThis.rlmPlanE2eSquiggle,
            new Promise((_, reject) =>
              setTimeout(() => reject(new Error(`no squiggle in the editor after ${timeout} ms`)), timeout),
            ),
          ]),
        timeout,
      ),
    read: () => page.evaluate(() => globalThis.rlmPlanE2eWatch),
  };
}

/**
 * With E2E_PROFILE set: a CPU profile of the workbench's page (CDP) from before the plan opens to
 * its marker, written to E2E_PROFILE (a .cpuprofile file, for DevTools; the floor's with `.floor`
 * before the extension) and summarized: the
 * functions with the most time of their own, each with the script it is in.
 */
export async function profileWorkbench(page, suffix = "") {
  if (!process.env.E2E_PROFILE) return async () => {};
  const file = process.env.E2E_PROFILE.replace(/(\.cpuprofile)?$/, `${suffix}$1`);
  const cdp = await page.context().newCDPSession(page);
  await cdp.send("Profiler.enable");
  await cdp.send("Profiler.setSamplingInterval", { interval: 10000 });
  await cdp.send("Profiler.start");
  return async () => {
    const { profile } = await cdp.send("Profiler.stop");
    fs.writeFileSync(file, JSON.stringify(profile));
    const nodes = new Map(profile.nodes.map((node) => [node.id, node]));
    const own = new Map();
    profile.samples.forEach((id, i) => {
      const { functionName, url, lineNumber } = nodes.get(id).callFrame;
      const key = `${functionName || "(anonymous)"} ${url.split("/").slice(-2).join("/")}:${lineNumber + 1}`;
      own.set(key, (own.get(key) ?? 0) + (profile.timeDeltas[i] ?? 0) / 1000);
    });
    const top = [...own].sort((a, b) => b[1] - a[1]).slice(0, 25);
    log(
      `first diagnostic, the page's CPU profile (${file}): ${top.map(([k, ms]) => `${Math.round(ms)} ms ${k}`).join("; ")}`,
    );
  };
}

/**
 * Opens `file` (Ctrl+P, Enter) as the window's first tab and waits for its first squiggle; what
 * the page saw, with the test's own moment of seeing it (`seenByTest`, to show the page's times
 * are not the test's).
 */
export async function timeFirstDiagnostic(bench, file, profileSuffix = "") {
  const watched = await watchWorkbench(bench.page, path.basename(file));
  const profiled = await profileWorkbench(bench.page, profileSuffix);
  await bench.openFile(file);
  await watched.squiggle();
  const seenByTest = Date.now();
  await profiled();
  return { ...(await watched.read()), seenByTest };
}

/** The page's side of a first diagnostic, every time from the tab entering the DOM. */
export function logWorkbench(what, seen) {
  const from = (at) => (at ? `${at - seen.tab} ms` : "?");
  const busy = seen.longTasks.filter((task) => task.at + task.ms >= seen.tab && task.at <= seen.squiggle);
  const total = busy.reduce((sum, task) => sum + task.ms, 0);
  log(
    `${what}, the page: **tab to squiggle ${from(seen.squiggle)}** (its frame began at ${from(seen.squiggleFrame)}; ` +
      `Enter to tab ${seen.enter ? `${seen.tab - seen.enter} ms` : "?"}; the test saw it at ${from(seen.seenByTest)}); ` +
      `Problems count ${seen.problems.map((p) => `"${norm(p.text).trim()}" at ${from(p.at)}`).join(", ") || "unchanged"}; ` +
      `${busy.length} long tasks from the tab to the squiggle, ${total} ms in all: ` +
      busy.map((task) => `${task.at - seen.tab}+${task.ms}`).join(" "),
  );
}

/**
 * The extension's clock beside the page's (the same machine's): when the language server was
 * ready and when the client got the diagnostics (client/src/extension.ts and languageClient.ts
 * log both), from the tab entering the DOM.
 */
export function logExtension(channelLog, seen) {
  const ready = /Activated in (\d+) ms .*extension host up (\d+) ms before activate; ready at (\S+)\)/.exec(channelLog);
  const diagnosed = /First plan diagnostics: \S+ at (\S+)(?: \(the extension host's next turn (\d+) ms later\))?/.exec(
    channelLog,
  );
  const since = (iso) => (iso ? `${Date.parse(iso) - seen.tab} ms` : "not logged");
  log(
    `first diagnostic, the extension, from the tab: language server ready ${since(ready?.[3])} (activation ` +
      `${ready?.[1] ?? "?"} ms, extension host up ${ready?.[2] ?? "?"} ms before it), diagnostics in the client ` +
      `${since(diagnosed?.[1])} (the extension host's next turn ${diagnosed?.[2] ?? "?"} ms later)`,
  );
}

/** Packs the floor's fixture extension and installs it beside rlm-plan (E2E_FLOOR only). */
export async function installFloorExtension(root, extensionsDir) {
  const vsix = path.join(root, "e2e-floor.vsix");
  const vsce = path.join(REPO, "node_modules/.bin/vsce");
  const args = ["package", "--no-dependencies", "--allow-missing-repository", "--skip-license", "-o", vsix];
  await execFileP(vsce, args, { cwd: FLOOR_EXTENSION, timeout: 60000 });
  const installed = await installExtension(root, vsix, extensionsDir);
  if (!installed.some((entry) => entry.startsWith("rlm-plan-e2e.e2e-floor-")))
    throw new Error(`the floor's fixture installed as ${installed.join(", ")}`);
}

/**
 * The floor: a fresh window on a folder holding only the fixture's marker and FLOOR_FILE (so
 * rlm-plan does not activate there), its first tab FLOOR_FILE, timed as ours was.
 */
export async function timeFloor(browser, server, root) {
  const folder = path.join(root, "ws-floor");
  fs.mkdirSync(folder, { recursive: true });
  fs.writeFileSync(path.join(folder, ".e2e-floor"), "");
  const plan = fs.readFileSync(path.join(REPO, "examples/plans/broken.rlmplan.json"), "utf8");
  fs.writeFileSync(path.join(folder, FLOOR_FILE), plan.replace(/^\/\/.*$/gm, ""));
  const bench = await Workbench.open(browser, server, folder);
  try {
    await bench.waitForExplorer(FLOOR_FILE);
    await bench.page.locator(".explorer-folders-view").click();
    const seen = await timeFirstDiagnostic(bench, FLOOR_FILE, ".floor");
    const rows = await bench.until("the floor's problem", async () => (await bench.problems())[FLOOR_FILE]);
    const published = /published at (\S+)/.exec(server.outputLog("e2e floor"))?.[1];
    return { seen, rows, published: published ? Date.parse(published) - seen.tab : undefined };
  } finally {
    await bench.page.close();
  }
}
