// The end-to-end scenarios: the packaged extension (rlm-plan.vsix) in a real VS Code (the one
// inside code-server 4.96.4), driven through Debian's Chromium as a user would, each scenario
// asserting on what the user sees. e2e.test.mjs runs them as node:test subtests.
//
// Two code-servers share one extensions folder: "trusted" (workspace trust off, every scenario
// but g) and "untrusted" (trust on; the test answers "No, I don't trust the authors", scenario g).
// Scenario o runs the CLI (cli/bin/rlm-plan.js) in the trusted workspace and finds its run in Plan Runs.
// Scenario k proposes a plan through the scripted chat server of test/support (its build in test/out).
// Each opens its own copy of examples/workspace, plus the deliberately broken plan and a slow
// plan whose command tool sleeps; nothing under examples/ is changed.

import { execFile } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import {
  CHROMIUM,
  CODE_SERVER,
  CODE_SERVER_DIR,
  VARIANT,
  REPO,
  SCREENSHOTS,
  TIMEOUT,
  PACKAGE_SCRIPT,
  VSIX,
  Workbench,
  copyWorkspace,
  installExtension,
  launchBrowser,
  log,
  norm,
  startCodeServer,
} from "./harness.mjs";
import {
  FLOOR,
  installFloorExtension,
  logExtension,
  logWorkbench,
  timeFirstDiagnostic,
  timeFloor,
} from "./firstDiagnostic.mjs";

const execFileP = promisify(execFile);

/** What the extension contributes, as the user sees it (checked against package.json). */
export const UI = {
  run: "RLM Plan: Run Plan",
  debug: "RLM Plan: Debug Plan",
  cancel: "RLM Plan: Cancel Run",
  showRuns: "RLM Plan: Show Runs",
  channel: "RLM Plan Runs",
  view: "Plan Runs",
  language: "RLM Plan",
  /** The language client's channel (client/src/languageClient.ts CLIENT_NAME). */
  serverChannel: "RLM Plan Language Server",
  graph: "RLM Plan: Show Plan Graph",
  propose: "RLM Plan: Propose Plan...",
  setKey: "RLM Plan: Set Provider API Key",
};

// ---- preconditions ----------------------------------------------------------------------------

/** Why the e2e test cannot run here (a reason to skip), or undefined when it can. */
export function missingPrerequisite() {
  if (process.env.E2E_SKIP) return `E2E_SKIP is set`;
  if (!fs.existsSync(CHROMIUM)) return `no Chromium at ${CHROMIUM} (bash scripts/install-e2e.sh installs it)`;
  if (!fs.existsSync(VARIANT.node)) return `no ${VARIANT.node} (bash scripts/install-e2e.sh installs it)`;
  if (!fs.existsSync(CODE_SERVER) || !fs.existsSync(path.join(CODE_SERVER_DIR, ".installed"))) {
    return `no code-server ${VARIANT.version} in ${CODE_SERVER_DIR} (bash scripts/install-e2e.sh installs it)`;
  }
  try {
    import.meta.resolve("playwright-core");
  } catch {
    return "playwright-core is not installed (npm ci)";
  }
  return undefined;
}

/** Files whose change makes the .vsix stale. */
function sourcesNewerThan(file) {
  const since = fs.statSync(file).mtimeMs;
  const roots = [
    "package.json",
    "client/package.json",
    "client/src",
    "client/webview/src",
    "server/src",
    "debug-adapter/src",
    "shared-runtime/src",
    "shared-runtime/schemas",
    "scripts/bundle.mjs",
    "syntaxes",
    "snippets",
    "language-configuration.json",
  ];
  const newer = (p) => {
    if (!fs.existsSync(p)) return false;
    const stat = fs.statSync(p);
    if (stat.isDirectory()) return fs.readdirSync(p).some((entry) => newer(path.join(p, entry)));
    return stat.mtimeMs > since;
  };
  return roots.some((root) => newer(path.join(REPO, root)));
}

/** Builds the package with `npm run package` (package:node20 for the oldest) when it is missing or older than its sources. */
export async function ensureVsix() {
  if (process.env.E2E_VSIX) return VSIX;
  if (fs.existsSync(VSIX) && !sourcesNewerThan(VSIX)) return VSIX;
  const started = Date.now();
  log(`building ${path.basename(VSIX)} (npm run ${PACKAGE_SCRIPT})`);
  try {
    await execFileP("npm", ["run", "-s", PACKAGE_SCRIPT], { cwd: REPO, timeout: 240000, maxBuffer: 16 << 20 });
  } catch (error) {
    throw new Error(`npm run ${PACKAGE_SCRIPT} failed:\n${error.stdout ?? ""}${error.stderr ?? ""}${error.message}`);
  }
  if (!fs.existsSync(VSIX)) throw new Error(`npm run ${PACKAGE_SCRIPT} did not write ${VSIX}`);
  log(`built ${path.basename(VSIX)} in ${Date.now() - started} ms (${fs.statSync(VSIX).size} bytes)`);
  return VSIX;
}

/** The manifest names the scenarios rely on, so a renamed command fails here, plainly. */
export function checkManifest() {
  const manifest = JSON.parse(fs.readFileSync(path.join(REPO, "package.json"), "utf8"));
  const contributes = manifest.contributes ?? {};
  const title = (id) => {
    const command = (contributes.commands ?? []).find((c) => c.command === id);
    return command && `${command.category}: ${command.title}`;
  };
  const problems = [];
  if (title("rlmPlan.run") !== UI.run) problems.push(`rlmPlan.run is "${title("rlmPlan.run")}", not "${UI.run}"`);
  if (title("rlmPlan.debug") !== UI.debug) problems.push(`rlmPlan.debug is "${title("rlmPlan.debug")}"`);
  if (!(contributes.debuggers ?? []).some((d) => d.type === "rlm-plan")) problems.push("no rlm-plan debugger");
  if (title("rlmPlan.cancel") !== UI.cancel) problems.push(`rlmPlan.cancel is "${title("rlmPlan.cancel")}"`);
  if (title("rlmPlan.showRuns") !== UI.showRuns) problems.push(`rlmPlan.showRuns is "${title("rlmPlan.showRuns")}"`);
  const views = Object.values(contributes.views ?? {}).flat();
  if (!views.some((v) => v.id === "rlmPlan.runs" && v.name === UI.view)) problems.push(`no view "${UI.view}"`);
  if (problems.length) throw new Error(`package.json contributes changed: ${problems.join("; ")}`);
}

// ---- the workspace copies ---------------------------------------------------------------------

/** A tool that sleeps; it writes its pid so the test can see it is stopped on cancel. */
const SLEEP_TOOL = `#!/usr/bin/env node
// e2e fixture: a command tool that takes two minutes, so a run of slow.rlmplan.json can be cancelled.
"use strict";
const fs = require("node:fs");
fs.writeFileSync(require("node:path").join(__dirname, "sleep.pid"), String(process.pid));
process.stdin.resume();
process.stdin.on("end", () => setTimeout(() => process.stdout.write(JSON.stringify("awake")), 120000));
`;

const SLOW_HOST = {
  description: "e2e fixture: a host whose one command tool sleeps for two minutes.",
  capabilities: ["tool(sleep)", "checkpoint"],
  budget: { time_limit: 600 },
  // Outside the sandbox: the test follows the tool by the host pid it writes (in the sandbox's PID
  // namespace its pid is the namespace's); the sandbox's own cleanup is test/cli/sandbox.escapes.
  sandbox: "off",
  tools: { sleep: { type: "command", command: ["node", "sleep.js"], timeoutMs: 300000, description: "Sleeps." } },
};

const SLOW_PLAN = {
  steps: [
    { op: "checkpoint", label: "before-sleep" },
    { op: "tool", name: "sleep", args: { seconds: 120 }, bind: "slept" },
    { op: "final", value: { ref: "var", name: "slept" } },
  ],
};

/** examples/workspace + plans/broken.rlmplan.json + slow/ (its own host profile and tool). */
export function makeWorkspace(root, name) {
  const folder = copyWorkspace(root, name);
  fs.copyFileSync(
    path.join(REPO, "examples/plans/broken.rlmplan.json"),
    path.join(folder, "plans/broken.rlmplan.json"),
  );
  const slow = path.join(folder, "slow");
  fs.mkdirSync(slow);
  fs.writeFileSync(path.join(slow, "sleep.js"), SLEEP_TOOL);
  fs.writeFileSync(path.join(slow, "rlmplan.host.json"), JSON.stringify(SLOW_HOST, null, 2) + "\n");
  fs.writeFileSync(path.join(slow, "slow.rlmplan.json"), JSON.stringify(SLOW_PLAN, null, 2) + "\n");
  return folder;
}

function processAlive(pid) {
  try {
    process.kill(pid, 0);
  } catch {
    return false;
  }
  // A zombie has exited; only its status waits to be collected (a container's init may be slow to).
  try {
    const stat = fs.readFileSync(`/proc/${pid}/stat`, "utf8");
    return stat.slice(stat.lastIndexOf(")") + 2, stat.lastIndexOf(")") + 3) !== "Z";
  } catch {
    return true;
  }
}

// ---- the session ------------------------------------------------------------------------------

/** Everything the scenarios share: the servers, the browser, the two windows. */
export class Session {
  static async start() {
    const session = new Session();
    try {
      await session.#start();
    } catch (error) {
      await session.close();
      throw error;
    }
    return session;
  }

  async #start() {
    this.root = fs.mkdtempSync(path.join(os.tmpdir(), "rlm-plan-e2e-"));
    log(`working folder ${this.root}`);
    this.extensionsDir = path.join(this.root, "extensions");
    fs.mkdirSync(this.extensionsDir);
    const installed = await installExtension(this.root, VSIX, this.extensionsDir);
    if (!installed.some((entry) => entry.startsWith("rlm-plan.rlm-plan-"))) {
      throw new Error(`the .vsix installed as ${installed.join(", ")}, not rlm-plan.rlm-plan-*`);
    }
    if (FLOOR) await installFloorExtension(this.root, this.extensionsDir);
    this.trustedFolder = makeWorkspace(this.root, "ws-trusted");
    this.untrustedFolder = makeWorkspace(this.root, "ws-untrusted");
    this.servers = [];
    this.trustedServer = await startCodeServer(this.root, "trusted", {
      extensionsDir: this.extensionsDir,
      trust: true,
    });
    this.servers.push(this.trustedServer);
    this.browser = await launchBrowser(this.root);
    fs.mkdirSync(SCREENSHOTS, { recursive: true });
    for (const file of fs.readdirSync(SCREENSHOTS)) if (file.endsWith(".png")) fs.rmSync(path.join(SCREENSHOTS, file));
  }

  /** The window on the trusted workspace, opened on first use. */
  async trusted() {
    if (!this.trustedWindow) {
      const bench = await Workbench.open(this.browser, this.trustedServer, this.trustedFolder);
      await bench.waitForExplorer("rlmplan.host.json");
      this.trustedWindow = bench;
    }
    return this.trustedWindow;
  }

  async close() {
    await this.browser?.close().catch((error) => log(`closing the browser: ${error.message}`));
    for (const server of this.servers ?? []) await server.stop();
    if (this.root && !process.env.E2E_KEEP) fs.rmSync(this.root, { recursive: true, force: true });
    else if (this.root) log(`kept ${this.root}`);
  }

  /** Screenshots of every window after a failed scenario; closes what the scenario left open. */
  async failureShot(name) {
    const tag = (/^\((\w)\)/.exec(name)?.[1] ?? "x").toLowerCase();
    for (const page of this.browser?.pages() ?? []) {
      if (page.url().startsWith("about:")) continue;
      const which = page.url().includes(this.trustedServer.base) ? "trusted" : "untrusted";
      await page.screenshot({ path: path.join(SCREENSHOTS, `FAIL-${tag}-${which}.png`) }).catch(() => {});
      for (let i = 0; i < 3; i++) await page.keyboard.press("Escape").catch(() => {});
    }
  }

  // ---- helpers shared by scenarios ----

  /**
   * Shows the "Plan Runs" view (RLM Plan: Show Runs), with room: the folder's section of the
   * Explorer is collapsed (a tree draws only the rows it has room for). `rows()` reads the rows
   * top to bottom as "label | description" (a row shows both, the description dimmer).
   */
  async planRuns(bench) {
    const page = bench.page;
    // The Explorer's first section is the folder's (the "Open Editors" one is hidden by default).
    const folders = page.locator(".explorer-viewlet .pane > .pane-header").first();
    await bench.runCommand(UI.showRuns);
    if ((await folders.getAttribute("aria-expanded")) === "true") await folders.click();
    const pane = page.locator(".pane", { has: page.locator(".pane-header", { hasText: /^Plan Runs/i }) });
    await pane.locator(".pane-body").waitFor({ state: "visible" });
    const rows = async () =>
      (
        await pane.locator(".monaco-list-row").evaluateAll((nodes) =>
          nodes.map((node) => ({
            top: parseFloat(node.style.top || "0"),
            label: node.querySelector(".label-name")?.textContent ?? "",
            description: node.querySelector(".label-description")?.textContent ?? "",
          })),
        )
      )
        .sort((a, b) => a.top - b.top)
        .map((row) => norm(`${row.label} | ${row.description}`).replace(/\s+/g, " ").trim());
    return { pane, rows };
  }

  async runsOutput(bench, what, predicate, timeout) {
    await bench.showOutput(UI.channel);
    return bench.until(
      what,
      async () => {
        const text = await bench.outputText();
        return predicate(text) ? text : false;
      },
      timeout,
    );
  }
}

// ---- the scenarios ----------------------------------------------------------------------------

/** Expected text, pinned from the runtime's messages (and `rlm-plan check` of the same file). */
const BROKEN = "plans/broken.rlmplan.json";
const NEEDLE = "plans/needle-count.rlmplan.json";
const SLOW = "slow/slow.rlmplan.json";
const FLAKY = "plans/retry-flaky.rlmplan.json";
const TRIAGE = "mocks/triage.rlmplan.json";
/** Scenario (n)'s test file: the triage plan under its mocks, one case passing, one expecting "shop". */
const E2E_TESTS = "tests/e2e.rlmplan.test.json";
const E2E_TEST_FILE = `{
  "plan": "../mocks/triage.rlmplan.json",
  "mocks": "../mocks/triage.mocks.json",
  "cases": [
    {
      "name": "labels the page",
      "expect": { "value": { "equals": { "title": "Example news", "label": "news" } } }
    },
    {
      "name": "expects a shop",
      "expect": { "value": { "equals": { "title": "Example news", "label": "shop" } } }
    }
  ]
}
`;

/** Scenario (p)'s plan: one step a line; line 4 reads `first` in a reference written name first. */
const RANGE_TOKENS = "plans/range-tokens.rlmplan.json";
const RANGE_PROBE = "plans/range-probe.rlmplan.json";
const RANGE_TOKENS_PLAN = `{
  "steps": [
    { "op": "tool", "name": "count_items", "args": ["seed"], "bind": "first" },
    { "op": "tool", "name": "count_items", "args": [{ "name": "first", "ref": "var" }], "bind": "second" },
    { "op": "final", "value": { "ref": "var", "name": "second" } }
  ]
}
`;

/** 1,001 steps: 100 rlm steps, each a sub-plan of eight tool steps and a final, then a final. */
function thousandNested() {
  const steps = [];
  for (let b = 0; b < 100; b++) {
    const inner = [];
    for (let i = 0; i < 8; i++) inner.push({ op: "tool", name: "count_items", args: [i], bind: `x${i}` });
    inner.push({ op: "final", value: { ref: "var", name: "x7" } });
    steps.push({ op: "rlm", plan: { steps: inner }, bind: `r${b}` });
  }
  steps.push({ op: "final", value: { ref: "var", name: "r99" } });
  return JSON.stringify({ steps }, null, 2);
}

/** A plan of 1,000 tool steps, each reading the one before. */
function thousandSteps() {
  const steps = [
    {
      op: "context",
      handle: { ref: "input", name: "haystack" },
      action: { type: "search", pattern: "needle" },
      bind: "v0",
    },
  ];
  for (let i = 1; i < 999; i++)
    steps.push({ op: "tool", name: "count_items", args: { ref: "var", name: `v${i - 1}` }, bind: `v${i}` });
  steps.push({ op: "final", value: { ref: "var", name: "v998" } });
  return JSON.stringify({ steps }, null, 2);
}
const UNKNOWN_OP =
  'unknown operation "contxt": use context, model, rlm, tool, parallel, retry, checkpoint or final rlm-plan unknown_operator [Ln 14, Col 13]';
const UNBOUND =
  'variable "hit" is not bound here: bind it in an earlier step of this plan or an enclosing one rlm-plan unbound_variable [Ln 19, Col 76]';
const DUPLICATE =
  '"count" is already bound in this scope: choose another name rlm-plan duplicate_binding [Ln 20, Col 94]';
const SILENT_CAP =
  'count_items counts at most 32 items here: "pins" is a context search result, and a search stops at 32 hits without saying so (context.max_results in rlmplan.host.json) rlm-plan silent_cap [Ln 20, Col 29]';
/** What the floor's fixture extension publishes on broken.json (E2E_FLOOR=1, scenario a). */
const FLOOR_PROBLEM = "the floor's diagnostic e2e-floor [Ln 14, Col 13]";
const UNTRUSTED_MESSAGE =
  "RLM Plan runs nothing in an untrusted workspace: a plan's tools are programs from this workspace. " +
  "Trust the workspace to run plans; diagnostics and hovers work without it.";

/**
 * One output line per transition: sequence, operation, binding, status, time since the start,
 * the step's own time, and the run's budget left after it (`left` pins steps, tools, models and
 * context; the output bytes left depend on the values and are only required to be a number):
 * `  #2    tool(count_items)      → count        ok   at     3 ms  took 0 ms     left: steps 62 · ...`
 */
function transitionLine(sequence, operation, bind, left) {
  const esc = (text) => text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
  const binding = bind ? `→ ${esc(bind)}\\s+` : "";
  return new RegExp(
    `^ {2}#${sequence}\\s+${esc(operation)}\\s+${binding}ok\\s+at\\s+[\\d.]+ m?s\\s+took [\\d.]+ m?s\\s+` +
      `left: ${esc(left)} · bytes \\d+$`,
    "m",
  );
}

/** The lines of one run's block in the output, from "Run N started" on. */
function runBlock(text, number) {
  const start = text.lastIndexOf(`Run ${number} started: `);
  return start < 0 ? "" : text.slice(start);
}

function assertMatch(text, pattern, what) {
  if (!pattern.test(text)) throw new Error(`${what}: ${pattern} not found in:\n${text}`);
}

function assertIncludes(text, part, what) {
  if (!text.includes(part)) throw new Error(`${what}: ${JSON.stringify(part)} not found in:\n${text}`);
}

/** The host of scenario (k): one tool, one input, two providers (the first at the scripted chat server). */
function proposeHost(baseUrl) {
  return {
    description: "e2e fixture: a host whose provider proposes plans.",
    capabilities: ["tool(count_items)", "model(planner)"],
    inputs: { tags: { type: "items", items: ["Hay", "Needle", "Barn"], description: "A few words." } },
    tools: { count_items: { type: "builtin", builtin: "count_items", description: "The length of a list." } },
    providers: {
      planner: { type: "openai-chat", baseUrl, model: "tiny", apiKeyEnv: PROPOSE_KEY_VARIABLE },
      backup: { type: "openai-chat", baseUrl: "http://127.0.0.1:9/v1", model: "big", apiKeyEnv: PROPOSE_KEY_VARIABLE },
    },
  };
}
const PROPOSE_KEY_VARIABLE = "RLM_PLAN_E2E_PROPOSE_KEY";
const PROPOSE_KEY = "sk-e2e-propose-sentinel-7";
const PROPOSE_GOAL = "count the tags";
/** What the scripted model answers: a plan with one key the runtime ignores (a warning). */
const PROPOSED_PLAN = {
  steps: [
    { op: "tool", name: "count_items", args: { ref: "input", name: "tags" }, bind: "count", why: "the number of tags" },
    { op: "final", value: { ref: "var", name: "count" } },
  ],
};

/** A plan that calls the proposing host's provider. */
const ASK_PLAN = {
  steps: [
    { op: "model", provider: "planner", prompt: "Say a number.", bind: "answer" },
    { op: "final", value: { ref: "var", name: "answer" } },
  ],
};

/** What the scripted model answers the second time: no plan at all. */
const NO_PLAN_REPLY = "I would need to know more about the tags to write a plan.";

/** Where scenario (k)'s warning is: the "why" key on line 11 of the pretty-printed plan. */
const PROPOSED_WARNING =
  'a tool step has no key "why", so the runtime ignores it: its keys are "op", "name", "args", "bind" rlm-plan unknown_key [Ln 11, Col 7]';

/**
 * The status line of whichever plan-graph webview shows `pattern`, or false: every frame is
 * asked, since the order of webview frames in the page says nothing about which panel is which.
 */
async function graphStatus(page, pattern) {
  for (const frame of page.frames()) {
    const text = norm(
      await frame
        .locator("#status")
        .innerText({ timeout: 250 })
        .catch(() => ""),
    );
    if (pattern.test(text)) return text;
  }
  return false;
}

/**
 * What a user waits for after a graph command: polls every frame (without waiting on any) until
 * one shows `pattern` in its status line with step nodes drawn; the milliseconds from `since`
 * (when Enter ran the command) and the status. The 50 ms poll is the figure's resolution.
 */
async function graphOnScreen(page, since, pattern, timeout) {
  const end = Date.now() + timeout;
  while (Date.now() < end) {
    for (const frame of page.frames()) {
      const text = await frame
        .evaluate(() =>
          globalThis.document.querySelector("#stage g.step")
            ? globalThis.document.getElementById("status")?.textContent
            : null,
        )
        .catch(() => null);
      if (text && pattern.test(norm(text))) return { ms: Date.now() - since, status: norm(text) };
    }
    await page.waitForTimeout(50);
  }
  throw new Error(`no graph showed ${pattern} within ${timeout} ms; the page: ${await graphFrames(page)}`);
}

/**
 * Where a window's webview spent the time before its page ran, from each of its frames' own
 * clocks (Navigation Timing), every time from `since` (the command): VS Code's host frame
 * (webview/browser/pre/index.html: created, its HTML served by code-server, parsed), then,
 * after the host frame registered its service worker and got the page's HTML from the
 * workbench, the page's frame (fake.html, served through the service worker, then the page
 * written into it): printed by (j) beside the extension's own line.
 */
async function webviewTimings(page, since) {
  const parts = [];
  let [hostOpened, pageOpened, pagePainted] = [0, 0, 0];
  for (const frame of page.frames()) {
    const kind = /webview\/browser\/pre\/(index|fake)\.html/.exec(frame.url())?.[1];
    if (!kind) continue;
    const t = await frame
      .evaluate(() => {
        const nav = globalThis.performance.getEntriesByType("navigation")[0];
        const at = (ms) => (ms ? Math.round(globalThis.performance.timeOrigin + ms) : 0);
        return {
          opened: Math.round(globalThis.performance.timeOrigin),
          workerStart: at(nav?.workerStart),
          requestStart: at(nav?.requestStart),
          responseEnd: at(nav?.responseEnd),
          parsed: at(nav?.domContentLoadedEventEnd),
          loaded: at(nav?.loadEventEnd),
          // The frame's first paint of text or SVG: for the graph's page, its status line and nodes.
          painted: at(globalThis.performance.getEntriesByName("first-contentful-paint")[0]?.startTime),
          // What the page fetched after it started (the graph's layout engine, when a layout needs it).
          fetched: globalThis.performance
            .getEntriesByType("resource")
            .map((r) => ({ name: r.name.split("/").pop(), start: at(r.startTime), end: at(r.responseEnd) })),
        };
      })
      .catch(() => undefined);
    if (!t) continue;
    if (kind === "fake") ({ opened: pageOpened, painted: pagePainted } = t);
    const from = (at) => (at ? `${at - since} ms` : "–");
    parts.push(
      `${kind === "index" ? "host frame (index.html)" : "page frame (fake.html)"}: opened ${from(t.opened)}, ` +
        `service worker started ${from(t.workerStart)}, request ${from(t.requestStart)}, response ${from(t.responseEnd)}, ` +
        `parsed ${from(t.parsed)}, loaded ${from(t.loaded)}, first contentful paint ${from(t.painted)}` +
        t.fetched.map((r) => `, fetched ${r.name} ${from(r.start)} to ${from(r.end)}`).join(""),
    );
    if (kind === "index") hostOpened = t.opened;
  }
  return { text: parts.join("; ") || "no webview frame", hostOpened, pageOpened, pagePainted };
}

/**
 * A baseline for the window's first webview, VS Code's own: a fresh window of the same server, in
 * a browser of its own (a new profile: no webview service worker installed by the graph's window),
 * opens a small Markdown file's preview (the built-in Markdown extension's webview, Ctrl+K V) as
 * its first webview; the milliseconds from the key to its heading in the page, and its frames'
 * timings from the key.
 */
async function markdownPreviewBaseline(session) {
  const browser = await launchBrowser(path.join(session.root, "baseline-browser"));
  try {
    const bench = await Workbench.open(browser, session.trustedServer, session.trustedFolder);
    fs.writeFileSync(path.join(session.trustedFolder, "baseline.md"), "# Baseline preview\n\nOne paragraph.\n");
    await bench.openFile("baseline.md");
    // The Markdown extension is up once its symbols are in the breadcrumbs: the key is pressed
    // then, not while the new window's extension host is still starting.
    await bench.page
      .locator(".breadcrumbs-control", { hasText: "Baseline preview" })
      .first()
      .waitFor({ timeout: 60000 })
      .catch(() => log("e2e: baseline: no Markdown symbols in the breadcrumbs within 60 s"));
    await bench.focusEditor();
    await bench.page.keyboard.press("Control+K");
    const pressed = Date.now();
    await bench.page.keyboard.press("v");
    const end = Date.now() + 60000;
    let ms;
    while (ms === undefined && Date.now() < end) {
      for (const frame of bench.page.frames()) {
        const found = await frame
          .evaluate(() => globalThis.document.querySelector("h1")?.textContent === "Baseline preview")
          .catch(() => false);
        if (found && ms === undefined) ms = Date.now() - pressed;
      }
      if (ms === undefined) await bench.page.waitForTimeout(50);
    }
    if (ms === undefined) throw new Error("the Markdown preview did not show its heading within 60 s");
    return { ms, pressed, ...(await webviewTimings(bench.page, pressed)) };
  } finally {
    await browser.close();
  }
}

/**
 * Opens the retry-flaky plan and its graph; resolves when its five steps are drawn, with when
 * Enter ran the command and the milliseconds from there to the nodes on screen (the e2e poll).
 */
async function flakyGraph(bench) {
  await bench.openFile(FLAKY);
  await bench.focusEditor();
  const pressed = await bench.runCommand(UI.graph);
  const shown = await graphOnScreen(bench.page, pressed, /^5 steps/, 60000 * VARIANT.slower);
  // The webview: VS Code's outer frame, then the page's own frame.
  const view = bench.page.frameLocator("iframe.webview.ready").frameLocator("iframe#active-frame");
  const steps = view.locator("g.step");
  await bench.until("the graph's five steps", async () => ((await steps.count()) === 5 ? true : false), 60000);
  return { view, steps, pressed, ms: shown.ms };
}

/** VS Code's floor for a window's first webview (markdownPreviewBaseline), measured once a session. */
function markdownFloor(session) {
  session.markdownFloor ??= markdownPreviewBaseline(session);
  return session.markdownFloor;
}

/** What every frame of the page shows as a graph status, and the editor tabs: logged when a graph does not draw. */
async function graphFrames(page) {
  const frames = [];
  for (const frame of page.frames()) {
    const status = await frame
      .locator("#status")
      .innerText({ timeout: 250 })
      .catch(() => null);
    const stage = await frame
      .locator("#stage")
      .evaluate((element) => element.childElementCount, undefined, { timeout: 250 })
      .catch(() => null);
    frames.push({
      url: frame
        .url()
        .replace(/^.*\/webview\//, "…/")
        .slice(0, 80),
      status,
      stage,
    });
  }
  const tabs = await page
    .locator(".tabs-container .tab")
    .allInnerTexts()
    .catch(() => []);
  return JSON.stringify({ frames, tabs: tabs.map(norm) });
}

/** The files below `dir` whose text contains `secret`. */
function filesHolding(dir, secret) {
  const found = [];
  for (const entry of fs.existsSync(dir) ? fs.readdirSync(dir, { withFileTypes: true, recursive: true }) : []) {
    const file = path.join(entry.parentPath ?? entry.path, entry.name);
    if (entry.isFile() && fs.readFileSync(file, "utf8").includes(secret)) found.push(file);
  }
  return found;
}

/** (r) and (s): counts three items (3), then adds 100: its value is 103; a rerun from steps/1 with count 7 gives 107. */
const RERUN = "plans/rerun.rlmplan.json";
const RERUN_PLAN = `{
  "steps": [
    { "op": "tool", "name": "count_items", "args": ["hay", "needle", "barn"], "bind": "count" },
    { "op": "tool", "name": "sum", "args": [{ "ref": "var", "name": "count" }, 100], "bind": "total" },
    { "op": "final", "value": { "ref": "var", "name": "total" } }
  ]
}
`;

/** The window of (r) and (s): RERUN written and open, Plan Runs shown. */
async function rerunWindow(session) {
  const bench = await session.trusted();
  fs.writeFileSync(path.join(session.trustedFolder, RERUN), RERUN_PLAN);
  // Open from (r) already, beside its graph: its tab, which makes its group the active one.
  const tab = bench.page.locator('.tab[data-resource-name="rerun.rlmplan.json"]').first();
  if ((await tab.count()) > 0) await tab.click();
  else await bench.openFile(RERUN);
  await bench.focusEditor();
  const { pane } = await session.planRuns(bench);
  return { bench, page: bench.page, pane };
}

/** Runs RERUN with the CLI (arguments after `run`); the journal's number of the run it recorded. */
async function cliRerunRun(session, assert, args) {
  const { stderr } = await execFileP(process.execPath, [path.join(REPO, "cli/bin/rlm-plan.js"), "run", ...args], {
    cwd: session.trustedFolder,
    timeout: 120000,
  });
  const id = /^rlm-plan: recorded as run (\d+) in \.rlm-plan /m.exec(stderr)?.[1];
  assert.ok(id, `the CLI says where it recorded the run:\n${stderr}`);
  return id;
}

/** The frame of the webview whose page answers `probe` (evaluated in it) with something truthy, and that answer. */
async function webviewFrame(bench, what, probe) {
  return bench.until(what, async () => {
    for (const frame of bench.page.frames()) {
      const answer = await frame.evaluate(probe).catch(() => null);
      if (answer) return { frame, answer };
    }
    return false;
  });
}

/** Plan Runs' rows with their tree depth: "2 rerun.rlmplan.json | #3 · succeeded · …". */
async function rowsWithLevel(pane) {
  return (
    await pane.locator(".monaco-list-row").evaluateAll((nodes) =>
      nodes.map((node) => ({
        top: parseFloat(node.style.top || "0"),
        level: node.getAttribute("aria-level") ?? "?",
        label: node.querySelector(".label-name")?.textContent ?? "",
        description: node.querySelector(".label-description")?.textContent ?? "",
      })),
    )
  )
    .sort((a, b) => a.top - b.top)
    .map((row) => norm(`${row.level} ${row.label} | ${row.description}`).replace(/\s+/g, " ").trim());
}

/** Clicks the item `label` of the context menu open now (Enter on it when a click is lost as the menu settles). */
async function contextMenuItem(page, label) {
  const item = page.locator(".context-view .action-label", { hasText: label }).first();
  await item.click();
  await item.waitFor({ state: "hidden", timeout: 5000 }).catch(() => page.keyboard.press("Enter"));
}

export const scenarios = [
  {
    name: "(a) a plan with mistakes: its problems in the Problems panel, with message and line:col",
    // With E2E_FLOOR=1 a second window opens for VS Code's floor (a minute or more on a loaded machine).
    timeout: FLOOR ? 300000 : 120000,
    async run(session, assert) {
      const bench = await session.trusted();
      await bench.page.locator(".explorer-folders-view").click(); // keyboard focus in the workbench
      const seen = await timeFirstDiagnostic(bench, BROKEN);
      assert.equal(await bench.statusBarMode(), UI.language, "language mode in the status bar");
      const problems = await bench.until("the three problems of broken.rlmplan.json", async () => {
        const rows = (await bench.problems())["broken.rlmplan.json"];
        return rows?.length === 3 ? rows : false;
      });
      assert.deepEqual(problems, [UNKNOWN_OP, UNBOUND, DUPLICATE]);
      await bench.screenshot("a-problems");
      // The extension logs its activation time (activate → language server ready); printed, not
      // asserted (no timed assertions): bench/README.md records it.
      const activation = await bench.until("the extension's activation time in its log", async () => {
        const match = /Activated in (\d+) ms/.exec(session.trustedServer.outputLog(UI.serverChannel));
        return match ? Number(match[1]) : false;
      });
      log(`activation: ${activation} ms (extension activate → language server ready; first start, no code cache)`);
      logWorkbench("first diagnostic", seen);
      logExtension(session.trustedServer.outputLog(UI.serverChannel), seen);
      if (!FLOOR) return;
      // VS Code's floor, in a fresh window of the same code-server, after ours (so on a warmer
      // server and browser cache: if anything, the floor is the faster for it).
      const floor = await timeFloor(session.browser, session.trustedServer, session.root);
      assert.deepEqual(floor.rows, [FLOOR_PROBLEM]);
      logWorkbench(
        `the floor (a diagnostic published the moment the file opens: at ${floor.published ?? "?"} ms from the tab)`,
        floor.seen,
      );
      const ours = seen.squiggle - seen.tab;
      const floorMs = floor.seen.squiggle - floor.seen.tab;
      log(
        `first diagnostic, ours / VS Code's floor, tab to squiggle: ${ours} / ${floorMs} ms = ${(ours / floorMs).toFixed(2)}x`,
      );
    },
  },
  {
    name: "(b) hover on a step: its worst case and the plan's so far against the budget",
    async run(session, assert) {
      const bench = await session.trusted();
      await bench.openFile(NEEDLE);
      // line 12: `    { "op": "tool", "name": "count_items", ...`; column 15 is inside "tool"
      const text = await bench.hoverAt(12, 15, "Worst case of this step");
      const lines = text.split("\n").filter((line) => line.trim() !== "");
      assert.deepEqual(lines, [
        "tool count_items → count",
        "Calls a trusted tool the host registers with JSON arguments and binds its result.",
        "Worst case of this step: 1 step · depth 1 · parallel width 0 · 0 model calls · 1 tool call · 0 context operations",
        "Plan so far (up to and including this step): steps 2 of 64 · depth 1 of 4 · parallel width 0 of 8 · model calls 0 of 8 · tool calls 1 of 8 · context operations 1 of 32",
        "Capability: tool(count_items), granted by rlmplan.host.json",
      ]);
      await bench.screenshot("b-hover");
      await bench.escape();
    },
  },
  {
    name: "(c) fixing the mistake by typing removes its problem",
    async run(session, assert) {
      const bench = await session.trusted();
      await bench.openFile(BROKEN);
      // line 14: `      "op": "contxt",`: the cursor before "x" (column 18), type "e": "context"
      await bench.goTo(14, 18);
      await bench.page.keyboard.type("e");
      await bench.escape(1); // whatever suggestion typing opened
      const lineText = norm(
        await bench.page.locator(".editor-instance .view-line", { hasText: '"op": "conte' }).first().innerText(),
      );
      assert.equal(lineText.trim(), '"op": "context",', "the edited line");
      const problems = await bench.until("the unknown operation problem to go", async () => {
        const rows = (await bench.problems())["broken.rlmplan.json"];
        return rows && !rows.some((row) => row.includes("unknown_operator")) ? rows : false;
      });
      // The fixed step is a search whose hits are counted: the silent-cap hint (Information) appears.
      assert.deepEqual(problems, [UNBOUND, DUPLICATE, SILENT_CAP]);
      await bench.screenshot("c-fixed");
    },
  },
  {
    name: '(d) "RLM Plan: Run Plan" from the command palette: transitions and the final value 12 in "RLM Plan Runs"',
    async run(session, assert) {
      const bench = await session.trusted();
      await bench.openFile(NEEDLE);
      await bench.focusEditor();
      await bench.runCommand(UI.run);
      const text = await session.runsOutput(
        bench,
        "run 1 to succeed",
        (t) => /Run 1 succeeded/.test(t) && /budget left/.test(t),
      );
      const block = runBlock(text, 1);
      assertMatch(block, /^Run 1 started: plans\/needle-count\.rlmplan\.json at /m, "start line");
      assertMatch(block, /^ {2}host profile: rlmplan\.host\.json$/m, "host profile line");
      assertMatch(
        block,
        transitionLine(1, "context(search)", "hits", "steps 63 · tools 8 · models 8 · context 31"),
        "transition 1",
      );
      assertMatch(
        block,
        transitionLine(2, "tool(count_items)", "count", "steps 62 · tools 7 · models 8 · context 31"),
        "transition 2",
      );
      assertMatch(
        block,
        transitionLine(3, "final", null, "steps 61 · tools 7 · models 8 · context 31"),
        "transition 3",
      );
      assertMatch(block, /^Run 1 succeeded in [\d.]+ m?s \(3 transitions\)\. Final value:\n12$/m, "final value");
      const transitions = block.split("\n").filter((line) => /^ {2}#\d+ /.test(line));
      assert.equal(transitions.length, 3, `three transition lines in:\n${block}`);
      // The progress notification goes when the run ends.
      await bench.page
        .locator(".notifications-toasts .notification-list-item", { hasText: "RLM Plan: running" })
        .waitFor({ state: "hidden" });
      // Room for the whole lines in the picture; "Show Runs" in (e) brings the side bar back.
      await bench.runCommand("View: Close Primary Side Bar");
      await bench.screenshot("d-run-output");
    },
  },
  {
    name: '(e) the run in the "Plan Runs" view: its transitions and value; a transition reveals its step',
    async run(session, assert) {
      const bench = await session.trusted();
      const page = bench.page;
      const { pane, rows: rowsOf } = await session.planRuns(bench);
      const runRow = pane.locator(".monaco-list-row", { hasText: "needle-count.rlmplan.json" }).first();
      await runRow.waitFor({ state: "visible" });
      const [runText] = await rowsOf();
      assertMatch(runText, /^needle-count\.rlmplan\.json \| #1 · succeeded · .+ · [\d.]+ m?s$/, "the run's row");
      if ((await runRow.getAttribute("aria-expanded")) !== "true") await runRow.click();
      const rows = await bench.until("the run's children", async () => {
        const texts = await rowsOf();
        return texts.length >= 5 ? texts : false;
      });
      assert.equal(rows.length, 5, `rows: ${JSON.stringify(rows)}`);
      assertMatch(rows[1], /^#1 context\(search\) → hits \| ok · at [\d.]+ m?s · took [\d.]+ m?s$/, "row 2");
      assertMatch(rows[2], /^#2 tool\(count_items\) → count \| ok · at [\d.]+ m?s · took [\d.]+ m?s$/, "row 3");
      assertMatch(rows[3], /^#3 final \| ok · at [\d.]+ m?s · took [\d.]+ m?s$/, "row 4");
      assert.equal(rows[4], "value | 12", "the outcome row");
      // A wider side bar, so the picture shows the rows whole: drag the sash at its right edge.
      const bar = await page.locator(".part.sidebar").boundingBox();
      if (bar && bar.width < 500) {
        await page.mouse.move(bar.x + bar.width + 1, bar.y + bar.height / 2);
        await page.mouse.down();
        await page.mouse.move(bar.x + 520, bar.y + bar.height / 2, { steps: 5 });
        await page.mouse.up();
        await page.mouse.move(900, 480); // off the sash (and on no text: no hover)
      }
      await bench.screenshot("e-plan-runs");
      // Clicking a transition reveals its step: from another file, back to the plan's tool step.
      await bench.openFile(BROKEN);
      await pane.locator(".monaco-list-row", { hasText: "#2 tool(count_items)" }).click();
      await page.locator(".tabs-container .tab.active", { hasText: "needle-count.rlmplan.json" }).waitFor();
      await bench.until("the cursor on the tool step (line 12)", async () => {
        const where = norm(await page.locator("#status\\.editor\\.selection").innerText()).trim();
        return /^Ln 12, Col \d+/.test(where) ? where : false;
      });
      // Clicking the value reopens the whole run as a JSON document.
      await pane.locator(".monaco-list-row", { hasText: "value" }).click();
      await page.locator(".tabs-container .tab.active", { hasText: "Run 1 needle-count.json" }).waitFor();
      const lines = page.locator(".editor-group-container.active .editor-instance .view-lines");
      const top = await bench.until("the run as JSON", async () => {
        const text = norm(await lines.innerText());
        return /"status": "succeeded"/.test(text) ? text : false;
      });
      assertMatch(top, /"number": 1,/, "the run document");
      assertMatch(top, /"operation": "context\(search\)"/, "the run document");
      await bench.focusEditor();
      await page.keyboard.press("Control+End"); // the value is at the end
      await bench.until('"value": 12 at the end of the run document', async () =>
        /"value": 12/.test(norm(await lines.innerText())),
      );
    },
  },
  {
    name: "(f) cancelling a slow run: the output says it was cancelled and its tool process is stopped",
    async run(session, assert) {
      const bench = await session.trusted();
      const page = bench.page;
      const pidFile = path.join(session.trustedFolder, "slow/sleep.pid");
      await bench.openFile(SLOW);
      await bench.focusEditor();
      await bench.runCommand(UI.run);
      // The progress notification shows the step that is running, with a Cancel button.
      const toast = page.locator(".notifications-toasts .notification-list-item", {
        hasText: "RLM Plan: running slow/slow.rlmplan.json",
      });
      await toast.waitFor({ state: "visible" });
      await bench.until("the sleep tool to start", async () => fs.existsSync(pidFile));
      const pid = Number(fs.readFileSync(pidFile, "utf8"));
      assert.ok(processAlive(pid), "the sleep tool runs");
      // The run's number: the second run of this workspace when (d) ran first; read, not assumed.
      const started = await session.runsOutput(bench, "the slow run to start", (t) =>
        /^Run \d+ started: slow\/slow\.rlmplan\.json at /m.test(t),
      );
      const n = Number(/^Run (\d+) started: slow\/slow\.rlmplan\.json at /m.exec(started)[1]);
      await session.runsOutput(bench, "the checkpoint transition", (t) =>
        transitionLine(1, "checkpoint", null, "steps 63 · tools 16 · models 8 · context 32").test(runBlock(t, n)),
      );
      await bench.screenshot("f-slow-running");
      await toast.getByRole("button", { name: "Cancel" }).click();
      const text = await session.runsOutput(bench, `run ${n} to be cancelled`, (t) =>
        runBlock(t, n).includes(`Run ${n} was cancelled`),
      );
      const block = runBlock(text, n);
      assertMatch(block, /^ {2}host profile: slow\/rlmplan\.host\.json$/m, "host profile line");
      assertMatch(
        block,
        transitionLine(1, "checkpoint", null, "steps 63 · tools 16 · models 8 · context 32"),
        "the checkpoint's transition",
      );
      assertMatch(block, new RegExp(`^Cancelling run ${n}…$`, "m"), "the cancel request");
      assertMatch(block, new RegExp(`^Run ${n} was cancelled in [\\d.]+ m?s \\(1 transitions\\)\\.$`, "m"), "the end");
      assert.ok(!/^ {2}#2 /m.test(block), `no transition after the cancel:\n${block}`);
      await toast.waitFor({ state: "hidden" });
      await bench.until("the sleep tool to be stopped", async () => !processAlive(pid), 10000);
      const { rows } = await session.planRuns(bench);
      const [newest] = await bench.until("the cancelled run in Plan Runs", async () => {
        const all = await rows();
        return all[0]?.includes("cancelled") ? all : false;
      });
      assertMatch(newest, new RegExp(`^slow\\.rlmplan\\.json \\| #${n} · cancelled · .+ · [\\d.]+ m?s$`), "its row");
      await bench.screenshot("f-cancelled");
    },
  },
  {
    name: "(g) an untrusted workspace (restricted mode) refuses to run; hovers still work",
    async run(session, assert) {
      const server = await startCodeServer(session.root, "untrusted", {
        extensionsDir: session.extensionsDir,
        trust: false,
      });
      session.servers.push(server);
      const bench = await Workbench.open(session.browser, server, session.untrustedFolder);
      const page = bench.page;
      // VS Code 1.96 asks at once (the user answers no); the newest asks nothing by default and
      // opens the folder in Restricted Mode, with a banner that says so.
      if (VARIANT.trustPromptAtStartup) {
        const dialog = page.locator(".monaco-dialog-box", {
          hasText: "Do you trust the authors of the files in this folder?",
        });
        await dialog.waitFor({ state: "visible", timeout: 60000 });
        await dialog.getByRole("button", { name: "No, I don't trust the authors" }).click();
        await dialog.waitFor({ state: "hidden" });
      } else {
        await page
          .getByText(/^Restricted Mode is intended for safe code browsing/)
          .first()
          .waitFor({ state: "visible", timeout: TIMEOUT * 2 });
      }
      await page.locator(".statusbar-item", { hasText: "Restricted Mode" }).first().waitFor({ state: "visible" });
      await bench.waitForExplorer("rlmplan.host.json");
      await page.locator(".explorer-folders-view").click();
      await bench.openFile(NEEDLE);
      assert.equal(await bench.statusBarMode(), UI.language, "language mode in the status bar");
      const hover = await bench.hoverAt(12, 15, "Worst case of this step");
      assertIncludes(hover, "Worst case of this step: 1 step", "the hover in restricted mode");
      await bench.escape();
      await bench.focusEditor();
      await bench.runCommand(UI.run);
      const toast = page.locator(".notifications-toasts .notification-list-item", {
        hasText: "runs nothing in an untrusted workspace",
      });
      await toast.waitFor({ state: "visible" });
      assert.equal(norm(await toast.locator(".notification-list-item-message").innerText()).trim(), UNTRUSTED_MESSAGE);
      await toast.getByRole("button", { name: "Manage Workspace Trust" }).waitFor({ state: "visible" });
      const text = await session.runsOutput(bench, "the refusal in the output", (t) => t.includes("Run not started"));
      assert.equal(text.trim(), `Run not started: plans/needle-count.rlmplan.json\n  ${UNTRUSTED_MESSAGE}`);
      assert.ok(!/^ {2}#\d+ /m.test(text) && !/^Run \d+ started:/m.test(text), "no run and no transitions");
      await bench.screenshot("g-untrusted");
    },
  },
  {
    name: "(h) debugging a plan: a breakpoint stops on its line; Variables shows a binding and the tool calls left; step over; continue to the final value",
    async run(session) {
      const bench = await session.trusted();
      const page = bench.page;
      await page.bringToFront();
      await bench.openFile(NEEDLE);
      await bench.goTo(12, 5);
      await bench.runCommand("Debug: Toggle Breakpoint");
      await page.locator(".editor-instance .codicon-debug-breakpoint").first().waitFor();
      await bench.runCommand(UI.debug);
      // The call stack's top frame and the editor's cursor are on the step of line 12.
      const callStack = page.locator(".debug-call-stack .monaco-list-row");
      const top = await bench.until("the debugger to stop on line 12", async () => {
        const text = norm(await callStack.first().innerText()).replace(/\s+/g, " ");
        return text.includes("12:5") ? text : false;
      });
      assertIncludes(top, "plan: tool(count_items) -> count", "the top frame");
      assertIncludes(top, "needle-count.rlmplan.json", "the top frame's source");
      await page.locator(".editor-instance .codicon-debug-stackframe").first().waitFor();
      const variables = page.locator(".debug-variables .monaco-list-row");
      const rows = async () =>
        (
          await variables.evaluateAll((nodes) =>
            nodes.map((node) => ({ top: parseFloat(node.style.top || "0"), text: node.innerText })),
          )
        )
          .sort((a, b) => a.top - b.top)
          .map((row) => norm(row.text).replace(/\s+/g, " ").trim());
      // The first scope (Bindings) opens by itself in VS Code 1.96; the newest may leave every
      // scope folded (it expands the first only if its tree row exists when the frame is focused):
      // a user opens it with a click.
      const bindings = variables.filter({ hasText: /^Bindings$/ }).first();
      await bindings.waitFor({ state: "visible" });
      const hits = await bench.until("the binding hits in Variables", async () => {
        if ((await bindings.getAttribute("aria-expanded")) === "false") await bindings.click();
        return (await rows()).find((row) => row.startsWith("hits = "));
      });
      assertMatch(hits, /^hits = \[\{"index":\d+,"value":"/, "the value of hits");
      await variables
        .filter({ hasText: /^Budget$/ })
        .first()
        .click();
      await bench.until("the tool calls left in Variables", async () =>
        (await rows()).includes("tool_calls = 8 left of 8 (0 spent)") ? true : false,
      );
      await bench.screenshot("h-debug-stopped");
      await bench.runCommand("Debug: Step Over");
      await bench.until("the debugger to stop on line 13", async () => {
        const text = norm(await callStack.first().innerText()).replace(/\s+/g, " ");
        return text.includes("13:5") && text.includes("final") ? text : false;
      });
      await bench.until("count and one tool call spent in Variables", async () => {
        const all = await rows();
        return all.includes("count = 12") && all.includes("tool_calls = 7 left of 8 (1 spent)") ? all : false;
      });
      await bench.runCommand("Debug: Continue");
      // The run ends: its transitions and final value reach "RLM Plan Runs" like any run's.
      const text = await session.runsOutput(bench, "the debug run to succeed", (t) => {
        const start = t.lastIndexOf("started: plans/needle-count.rlmplan.json");
        return start >= 0 && /succeeded.*\. Final value:\n12$/m.test(t.slice(start));
      });
      const block = text.slice(text.lastIndexOf("Run ", text.lastIndexOf("started: plans/needle-count")));
      assertMatch(
        block,
        transitionLine(2, "tool(count_items)", "count", "steps 62 · tools 7 · models 8 · context 31"),
        "transition 2",
      );
      await bench.screenshot("h-debug-finished");
    },
  },
  {
    name: "(i) the plan graph: nodes, labels and costs; click to reveal; a run turns the steps ok; light and dark",
    async run(session, assert) {
      const bench = await session.trusted();
      const page = bench.page;
      const { view, steps, pressed, ms } = await flakyGraph(bench);
      // The window's first webview (no scenario before this one opens one), timed against VS
      // Code's own floor: the built-in Markdown preview as a fresh window's first webview.
      const frames = await webviewTimings(page, pressed);
      log(
        `e2e: the window's first graph (5 steps): on screen ${ms} ms after Enter; its frames from Enter: ${frames.text}`,
      );
      for (const line of session.trustedServer.outputLog(UI.serverChannel).match(/Plan graph of .*/g) ?? [])
        log(`e2e: the extension said: ${line}`);
      const floor = await markdownFloor(session);
      log(
        `e2e: the first graph / VS Code's floor (the Markdown preview, a fresh window's first webview, from Ctrl+K V ` +
          `to its heading): ${ms} / ${floor.ms} ms = ${(ms / floor.ms).toFixed(2)}x; the floor's frames: ${floor.text}`,
      );
      const label = async (i) =>
        (await steps.nth(i).locator("text").allTextContents()).filter((t) => !/^(ok|running|failed|skipped)/.test(t));
      assert.deepEqual(await label(0), ["retry → page", "up to ×3", "10 steps · 3 tool"]);
      assert.deepEqual(await label(2), ["tool → page", "tool(flaky_fetch)", "1 step · 1 tool"]);
      assert.equal(await view.locator("g.plan.retry text.caption").textContent(), "retry ×3 · 3 steps · 1 tool");
      // Click the tool step: the editor's cursor goes to its "op" (line 13).
      await steps.nth(2).click();
      await bench.until("the cursor on the tool step (line 13)", async () => {
        const where = norm(await page.locator("#status\\.editor\\.selection").innerText()).trim();
        return /^Ln 13, Col \d+/.test(where) ? where : false;
      });
      // Run the plan: every step turns ok (the flaky tool fails once and is retried).
      await bench.runCommand(UI.run);
      await bench.until(
        "every step ok",
        async () => {
          const classes = await steps.evaluateAll((nodes) => nodes.map((n) => n.getAttribute("class") ?? ""));
          return classes.length === 5 && classes.every((c) => c.split(" ").includes("ok")) ? classes : false;
        },
        60000,
      );
      await bench.screenshot("i-graph-light");
      // Dark: the workspace's setting, which VS Code applies as it changes.
      const settings = path.join(session.trustedFolder, ".vscode/settings.json");
      fs.mkdirSync(path.dirname(settings), { recursive: true });
      fs.writeFileSync(settings, JSON.stringify({ "workbench.colorTheme": "Default Dark Modern" }));
      await page.locator(".monaco-workbench.vs-dark").waitFor({ timeout: 30000 });
      await bench.screenshot("i-graph-dark");
      fs.rmSync(settings);
      await page.locator(".monaco-workbench.vs").waitFor({ timeout: 30000 });
    },
  },
  {
    name: "(j) the plan graph of 1,000 steps: the time from the command to its nodes on screen, flat and nested",
    // Run alone it opens two windows, and a graph view loads slowly on a busy machine.
    timeout: 360000,
    async run(session) {
      // A window of its own. After (a)-(i) have run in one window for a couple of minutes, a new
      // webview there often never receives its page: the host frame loads, the content frame is
      // never created, and no console message says why; opening the view again (the panel's
      // reload, graphPanel.ts) does not help. Scenario subsets (ij, gij, hij, adefij, abcij) pass;
      // only the long full session shows it; no cause in the extension was found (see CHANGELOG).
      const main = await session.trusted();
      const bench = await Workbench.open(session.browser, session.trustedServer, session.trustedFolder);
      const page = bench.page;
      try {
        // The window restores the first one's layout (its Explorer section folded): files open by name.
        // A 1,000-step plan: the time from the graph's request to the drawing, as the view shows it.
        fs.writeFileSync(path.join(session.trustedFolder, "plans/thousand.rlmplan.json"), thousandSteps());
        await bench.openFile("plans/thousand.rlmplan.json");
        await bench.focusEditor();
        const pressed = await bench.runCommand(UI.graph);
        const drawn = /^1000 steps · drawn in \d+ ms/;
        // A view whose page does not load is opened again by the panel after 8 s (graphPanel.ts):
        // the wait allows for that, and a reload is logged, not hidden.
        const flat = await graphOnScreen(page, pressed, drawn, 45000).catch(async (error) => {
          const said = session.trustedServer.outputLog(UI.serverChannel).match(/Plan graph of .*/g) ?? [];
          throw new Error(`${error.message}; the extension said: ${JSON.stringify(said)}`);
        });
        const webview = await webviewTimings(page, pressed);
        log(`e2e: the window's first webview, from Enter: ${webview.text}`);
        // The extension times from its command's start: the page frame's opening on both clocks
        // says when that was, on the test's clock; the target counts from there.
        const said = /Plan graph of thousand\.rlmplan\.json: .*, opened at ([\d.]+) ms/.exec(
          session.trustedServer.outputLog(UI.serverChannel),
        );
        const commandRan = said && webview.pageOpened ? Math.round(webview.pageOpened - Number(said[1])) : undefined;
        const fromCommand = (at) => (commandRan === undefined || !at ? "?" : `${at - commandRan} ms`);
        const status =
          `${flat.status} · on screen ${flat.ms} ms after Enter, ${fromCommand(pressed + flat.ms)} after the command ` +
          `(the e2e poll; the page frame's first contentful paint ${fromCommand(webview.pagePainted)} after the command)`;
        log(`e2e: 1,000-step plan graph: ${status}`);
        log(
          `e2e: the extension's command ran ${fromCommand(pressed) === "?" ? "?" : `${commandRan - pressed} ms`} after Enter`,
        );
        for (const line of session.trustedServer.outputLog(UI.serverChannel).match(/Plan graph of .*/g) ?? [])
          log(`e2e: the extension said: ${line}`);
        // The same count nested (100 sub-plans of 9 steps): it opens folded below depth 2.
        fs.writeFileSync(path.join(session.trustedFolder, "plans/thousand-nested.rlmplan.json"), thousandNested());
        await bench.openFile("plans/thousand-nested.rlmplan.json");
        await bench.focusEditor();
        const again = await bench.runCommand(UI.graph);
        const nested = await graphOnScreen(
          page,
          again,
          /^101 steps \(\+900 in collapsed steps\) · drawn in \d+ ms/,
          50000,
        );
        const folded = `${nested.status} · on screen ${nested.ms} ms after Enter (the e2e poll)`;
        log(`e2e: nested 1,000-step plan graph: ${folded}`);
        for (const line of session.trustedServer.outputLog(UI.serverChannel).match(/Plan graph of .*/g) ?? [])
          log(`e2e: the extension said: ${line}`);
        // The same wait with VS Code's own webview as a window's first: what is left of ours once
        // the page runs is ours, the frames before it are VS Code's (bench/README.md).
        const baseline = await markdownFloor(session);
        log(`e2e: baseline, the Markdown preview as a fresh window's first webview, from Ctrl+K V: ${baseline.text}`);
        const [graphAt, previewAt] = [webview, baseline].map((w, i) => ({
          host: w.hostOpened - (i ? baseline.pressed : pressed),
          page: w.pageOpened - w.hostOpened,
          shown: (i ? baseline.pressed + baseline.ms : pressed + flat.ms) - w.pageOpened,
        }));
        log(
          `e2e: a window's first webview, the graph / the Markdown preview (ms): its host frame opened ` +
            `${graphAt.host} / ${previewAt.host} after the key (Enter in the palette / Ctrl+K V), ` +
            `its page frame ${graphAt.page} / ${previewAt.page} after the host frame, ` +
            `the content on screen (e2e poll) ${graphAt.shown} / ${previewAt.shown} after the page frame`,
        );
        fs.writeFileSync(path.join(SCREENSHOTS, "j-thousand.txt"), `flat: ${status}\nnested: ${folded}\n`);
      } catch (error) {
        await page.screenshot({ path: path.join(SCREENSHOTS, "FAIL-j-own-window.png") }).catch(() => {});
        throw error;
      } finally {
        await page.close();
        await main.page.bringToFront();
      }
    },
  },
  {
    name: '(k) "RLM Plan: Propose Plan...": provider, key (asked once, then stored), goal; the proposal opens unsaved with its warning and worst case; a reply without a plan opens as Markdown; a plan calling the provider runs with the stored key; verbose trace on, the key in no log',
    async run(session, assert) {
      const { startChatServer } = await import("../out/support/chatServer.js").catch((error) => {
        throw new Error(`the scripted chat server is not built (npm run build): ${error.message}`);
      });
      const chat = await startChatServer();
      try {
        chat.script({ kind: "ok", text: `Here is a plan:\n\`\`\`json\n${JSON.stringify(PROPOSED_PLAN)}\n\`\`\`` });
        // A folder with its own host profile: the command runs from its file, so that profile applies.
        const dir = path.join(session.trustedFolder, "propose");
        fs.mkdirSync(dir, { recursive: true });
        fs.writeFileSync(
          path.join(dir, "rlmplan.host.json"),
          JSON.stringify(proposeHost(chat.baseUrl), null, 2) + "\n",
        );
        const bench = await session.trusted();
        const page = bench.page;
        await page.bringToFront();
        // The language client's verbose trace logs every request's parameters: on, so the check
        // below that the key is in no log covers the trace too (the client masks it there).
        const settings = path.join(session.trustedFolder, ".vscode/settings.json");
        fs.mkdirSync(path.dirname(settings), { recursive: true });
        fs.writeFileSync(settings, JSON.stringify({ "rlmPlan.trace.server": "verbose" }));
        // The channel exists once the extension is active: a plan file activates it, and its
        // diagnostics say the language server is up (the log-level pick lists channels as they are).
        await bench.openFile(BROKEN);
        await bench.until("the language server's diagnostics", async () =>
          (await bench.problems())["broken.rlmplan.json"]?.length > 0 ? true : false,
        );
        await page.keyboard.press("F1");
        await bench.quickInput(">Developer: Set Log Level", "Set Log Level");
        await page.keyboard.press("Enter");
        await bench.quickInput("RLM Plan Language Server", "RLM Plan Language Server");
        await page.keyboard.press("Enter");
        await bench.quickInput("Trace", "Trace");
        await page.keyboard.press("Enter");
        await page.locator(".quick-input-widget").waitFor({ state: "hidden" });
        await page.keyboard.press("Control+P");
        await bench.quickInput("propose/rlmplan.host.json", "propose");
        await page.keyboard.press("Enter");
        await page.locator(".breadcrumbs-control", { hasText: "propose" }).first().waitFor();
        await bench.runCommand(UI.propose);
        // Two providers: a pick, each with its model and endpoint.
        await bench.quickInputTitled("Propose a plan with which provider?");
        const picks = await bench.until("the two providers", async () => {
          const rows = await bench.quickInputRows();
          return rows.length === 2 ? rows : false;
        });
        assert.deepEqual(picks, [`planner | tiny at ${chat.baseUrl}`, "backup | big at http://127.0.0.1:9/v1"]);
        await bench.quickInput("planner", "planner");
        await page.keyboard.press("Enter");
        // No key stored and none in the environment: asked for, as a password.
        await bench.quickInputTitled(`API key for ${PROPOSE_KEY_VARIABLE}`);
        assert.equal(await page.locator(".quick-input-widget input.input").getAttribute("type"), "password");
        await bench.quickInput(PROPOSE_KEY);
        await page.keyboard.press("Enter");
        await bench.quickInput(PROPOSE_GOAL, undefined, { title: "Propose a plan (planner)" });
        await page.keyboard.press("Enter");
        await page.locator(".tabs-container .tab.active", { hasText: "proposed.rlmplan.json" }).waitFor();
        const expected = JSON.stringify(PROPOSED_PLAN, null, 2).split("\n");
        const lines = await bench.until("the proposed plan in the editor", async () => {
          const shown = await bench.editorLines();
          return shown.length >= expected.length ? shown : false;
        });
        assert.deepEqual(lines.slice(0, expected.length), expected, "the proposal's text");
        assert.equal(await bench.statusBarMode(), UI.language, "language mode of the proposal");
        // Typing in it indents as the text is indented (an empty document was detected as 4 spaces).
        await bench.until("two-space indentation", async () =>
          norm(await page.locator("#status\\.editor\\.indentation").innerText()).trim() === "Spaces: 2" ? true : false,
        );
        // The server checked it against propose/rlmplan.host.json: its worst case, and its one warning.
        const lens = await bench.until("the worst-case code lens", async () => {
          const text = norm(
            await page.locator(".editor-group-container.active .codelens-decoration").first().innerText(),
          );
          return text.includes("steps") ? text.replace(/\s+/g, " ").trim() : false;
        });
        // Two lenses on one line; VS Code orders lenses of one range as their answers arrive.
        assert.deepEqual(lens.split(" | ").sort(), ["Show graph", "▶ Run plan (steps 2/64 · tools 1/16 · depth 1/4)"]);
        // Read first: a notification hides itself after a while.
        const toast = page.locator(".notifications-toasts .notification-list-item", { hasText: "planner proposed" });
        assert.equal(
          norm(await toast.locator(".notification-list-item-message").innerText()).trim(),
          // A warning leaves the plan valid: it runs.
          "planner proposed a valid plan: save it to keep it, then run it.",
        );
        const problems = await bench.until(
          "the proposal's warning",
          async () => (await bench.problemsFiltered("the runtime ignores it"))["proposed.rlmplan.json"],
        );
        assert.deepEqual(problems, [PROPOSED_WARNING]);
        // One call, with the key typed above and the goal; the key in no log.
        assert.equal(chat.requests.length, 1);
        assert.equal(chat.requests[0].headers.authorization, `Bearer ${PROPOSE_KEY}`);
        assert.equal(chat.requests[0].body.model, "tiny");
        assertIncludes(chat.requests[0].text, PROPOSE_GOAL, "the prompt");
        const logs = path.join(session.trustedServer.dirs.userData, "logs");
        const traced = await bench.until("the traced proposePlan request", async () => {
          const files = filesHolding(logs, "rlmPlan.server.proposePlan");
          return files.length > 0 ? files : false;
        });
        log(`e2e: the verbose trace is in ${traced.map((f) => path.basename(f)).join(", ")}`);
        assert.deepEqual(filesHolding(logs, PROPOSE_KEY), []);
        await bench.screenshot("k-proposed");
        // Again, from the proposal (its folder is propose/): the key is stored now, so straight to
        // the goal; a reply without a plan opens as Markdown, with why in an error.
        chat.script({ kind: "ok", text: NO_PLAN_REPLY });
        await bench.focusEditor();
        await bench.runCommand(UI.propose);
        await bench.quickInput("planner", "planner", { title: "Propose a plan with which provider?" });
        await page.keyboard.press("Enter");
        const title = page.locator(".quick-input-widget .quick-input-title");
        const next = await bench.until("the question after the provider", async () => {
          const text = norm(await title.innerText()).trim();
          return text !== "" && !text.includes("which provider") ? text : false;
        });
        assert.equal(next, "Propose a plan (planner)", "no key asked the second time");
        await bench.quickInput("something vague");
        await page.keyboard.press("Enter");
        const error = page.locator(".notifications-toasts .notification-list-item", { hasText: "holds no plan" });
        await error.waitFor({ state: "visible" });
        assert.equal(
          norm(await error.locator(".notification-list-item-message").innerText()).trim(),
          "planner's reply holds no plan: no JSON object found in the text: a plan is one JSON object, alone or in a ```json fence",
        );
        assert.equal(await bench.statusBarMode(), "Markdown", "the reply's language mode");
        // One line of text; Markdown wraps long lines on screen, so the view lines are joined.
        assert.equal((await bench.editorLines()).join(""), NO_PLAN_REPLY);
        assert.equal(chat.requests.length, 2);
        assert.equal(chat.requests[1].headers.authorization, `Bearer ${PROPOSE_KEY}`, "the stored key");
        // A plan that calls the provider, run from the editor: the stored key goes with the run
        // (the verbose trace logs the run request's parameters) and is in no log afterwards.
        chat.script({ kind: "ok", text: "forty-two" });
        fs.writeFileSync(path.join(dir, "ask.rlmplan.json"), JSON.stringify(ASK_PLAN, null, 2) + "\n");
        await bench.openFile("propose/ask.rlmplan.json");
        await bench.focusEditor();
        await bench.runCommand(UI.run);
        // The output view shows its last lines only: the value is what marks this run.
        await session.runsOutput(
          bench,
          "the provider's plan to succeed",
          (t) => /Run \d+ succeeded/.test(t) && t.includes('"text": "forty-two"'),
        );
        assert.equal(chat.requests.length, 3);
        assert.equal(chat.requests[2].headers.authorization, `Bearer ${PROPOSE_KEY}`, "the run's key");
        await bench.until("the traced run request", async () => {
          const files = filesHolding(logs, "rlmPlan.server.run");
          return files.length > 0 ? files : false;
        });
        assert.deepEqual(filesHolding(logs, PROPOSE_KEY), [], "the key in no log after the run");
        assert.ok(!(await bench.outputText()).includes(PROPOSE_KEY), "the key in no output channel");
      } finally {
        await chat.close();
      }
    },
  },
  {
    name: "(m) a retried tool that fails once: its graph node shows the failed attempt and its reason, then the retry; the run output says why",
    // Run alone it opens the window first, and a graph view loads slowly on a busy machine.
    timeout: 240000,
    async run(session, assert) {
      const bench = await session.trusted();
      const page = bench.page;
      const { view } = await flakyGraph(bench);
      const tool = view.locator('g.step[data-id="steps/0/plan/steps/1"]');
      const RUN_CLASSES = ["running", "ok", "failed", "cancelled", "skipped", "failed-attempts"];
      const retry = view.locator('g.step[data-id="steps/0"]');
      log("(m) the graph is drawn; running the plan");
      await bench.runCommand(UI.run);
      // The flaky tool fails on its first call: its node ends ok, marked with the failed attempt
      // (the runtime's step_failed, then its next attempt's step_started and step_finished).
      const marks = async (node) => ({
        classes: ((await node.getAttribute("class")) ?? "").split(" ").filter((c) => RUN_CLASSES.includes(c)),
        badge: await node
          .locator("text.attempts")
          .textContent({ timeout: 250 })
          .catch(() => null),
      });
      await bench.until(
        "the tool's node ok with one failed attempt",
        async () => {
          const now = await marks(tool);
          return now.classes.includes("ok") && now.badge ? now : false;
        },
        60000,
      );
      const toolMarks = await bench.until("the tool's node marked", async () => {
        const now = await marks(tool);
        return now.badge ? now : false;
      });
      assert.deepEqual(toolMarks, { classes: ["ok", "failed-attempts"], badge: "✗ 1 failed attempt" });
      // Read until it answers and has finished: the live view redraws its marks every 250 ms while
      // a run is shown, and the retry's own sub-plan still has steps after the tool (in CI's full
      // session it was read while still running).
      const retryMarks = await bench.until(
        "the retry's node marked and finished",
        async () => {
          const now = await marks(retry);
          return now.badge && !now.classes.includes("running") ? now : false;
        },
        60000,
      );
      assert.deepEqual(retryMarks, { classes: ["ok", "failed-attempts"], badge: "✗ 1 failed attempt" });
      await bench.until("the graph's status to count the failed attempt", async () =>
        graphStatus(page, /Run \d+ · succeeded after [\d.]+ s · 1 failed attempt/),
      );
      log("(m) the nodes show the failed attempt; hovering the tool's node");
      // Hovering the node: the failed attempt's reason first, then the step's hover.
      await tool.hover();
      const reason =
        'tool "flaky_fetch" failed: exited with status 1: flaky_fetch: simulated transient failure, try again';
      const tip = await bench.until("the tooltip with the failed attempt", async () => {
        const text = norm(
          await view
            .locator("#tooltip:not([hidden])")
            .innerText({ timeout: 250 })
            .catch(() => ""),
        );
        return text.startsWith("Attempt 1 failed") ? text : false;
      });
      assert.equal(tip.split("\n")[0], `Attempt 1 failed [execute/tool_error]: ${reason}`);
      await bench.screenshot("m-graph-failed-attempt");
      log("(m) the tooltip shows the reason; reading the run output");
      // The run output: the failed attempt where and why, then the retry's transitions (the view
      // shows the last lines of the channel; the run's own lines are the last ones).
      const number = /Run (\d+) · succeeded/.exec(await graphStatus(page, /Run \d+ · succeeded/))?.[1];
      const line = `  retry attempt 1/3 failed at ${FLAKY}:12:11 [execute/tool_error]: ${reason}; retrying`;
      const linesAfter = (text) => text.split("\n").slice(text.split("\n").lastIndexOf(line));
      const shown = await session.runsOutput(
        bench,
        "the failed attempt in the run output",
        (text) =>
          text.split("\n").includes(line) && linesAfter(text).some((l) => l.startsWith(`Run ${number} succeeded`)),
      );
      const after = linesAfter(shown);
      // The attempt's line, then the second attempt's checkpoint and the tool's transition.
      const checkpoint = after.findIndex((l) => /^ {2}#\d+\s+checkpoint\s+ok /.test(l));
      const fetched = after.findIndex((l) => /^ {2}#\d+\s+tool\(flaky_fetch\)\s+→ page\s+ok /.test(l));
      assert.ok(checkpoint > 0 && fetched > checkpoint, after.join("\n"));
      await bench.screenshot("m-run-output");
    },
  },
  // (n) and (o) come before (l), which must stay last (see there).
  {
    name: "(n) the Testing view: a test file's cases listed, run (a failure's expected and actual at its line), a case debugged to a breakpoint",
    timeout: 240000,
    async run(session, assert) {
      const bench = await session.trusted();
      const page = bench.page;
      await page.bringToFront();
      fs.writeFileSync(path.join(session.trustedFolder, E2E_TESTS), E2E_TEST_FILE);
      // One editor group: after the graph scenarios a graph sits in a second group, and the test
      // file's editor, squeezed beside it, drew its gutter out of view.
      await bench.runCommand("View: Single Column Editor Layout");
      // The plan first: it activates the extension when this scenario runs alone (a loaded
      // machine can time VS Code's workspaceContains search out).
      await bench.openFile(TRIAGE);
      await bench.openFile(E2E_TESTS);
      // A Run and a Debug lens on each case, from the server.
      const lenses = page.locator(".editor-instance .codelens-decoration a");
      const titles = await bench.until("the cases' Run and Debug lenses", async () => {
        // Shown lenses only: a lens being drawn, or one of an editor out of view, has no text yet.
        const all = (await lenses.allInnerTexts()).map((t) => norm(t).trim()).filter((t) => t !== "");
        return all.length === 4 ? all : false;
      });
      assert.deepEqual(titles, ["▶ Run", "Debug", "▶ Run", "Debug"]);

      // The Testing view lists the file and its two cases (expanded to show them).
      await bench.runCommand("Testing: Focus on Test Explorer View");
      const explorer = page.locator(".test-explorer .monaco-list-row");
      const rowTexts = async () =>
        (
          await explorer.evaluateAll((nodes) =>
            nodes.map((node) => ({ top: parseFloat(node.style.top || "0"), text: node.innerText })),
          )
        )
          .sort((a, b) => a.top - b.top)
          .map((row) => norm(row.text).replace(/\s+/g, " ").trim());
      const fileRow = explorer.filter({ hasText: "e2e.rlmplan.test.json" }).first();
      await fileRow.waitFor({ timeout: 60000 });
      if ((await fileRow.getAttribute("aria-expanded")) !== "true") await fileRow.locator(".monaco-tl-twistie").click();
      const listed = await bench.until("the test file's two cases in the Testing view", async () => {
        const rows = await rowTexts();
        const at = rows.findIndex((r) => r.includes("e2e.rlmplan.test.json"));
        return at >= 0 && rows[at + 1]?.startsWith("labels the page") && rows[at + 2]?.startsWith("expects a shop")
          ? rows.slice(at, at + 3)
          : false;
      });
      log(`Testing view: ${JSON.stringify(listed)}`);
      await bench.screenshot("n-testing-view");

      // Run the file's tests; the failing case's peek opens at its line with the expected and actual values.
      await bench.openFile(E2E_TESTS);
      await bench.focusEditor();
      await bench.runCommand("Test: Run Tests in Current File");
      // The file's first lines in view (after a long session the editor may sit scrolled to its
      // end, the cases' lines out of view, and a gutter draws only the lines on screen).
      await bench.goTo(1, 1);
      // The verdicts in the editor's gutter, at each case's line: passed at 5, failed at 9.
      const gutter = await bench.until(
        "the cases' verdicts in the editor's gutter",
        async () => {
          // Every text editor on screen: after a long session the test file's is not the first
          // one in the page (another group's editor may come before it).
          const all = await page.evaluate(() =>
            [...globalThis.document.querySelectorAll(".editor-instance .monaco-editor")].map((editor) => {
              const numbers = [...editor.querySelectorAll(".margin-view-overlays .line-numbers")];
              const lineAt = (element) => {
                const top = element.getBoundingClientRect().top;
                const found = numbers.find((n) => Math.abs(n.getBoundingClientRect().top - top) < 4);
                return found ? Number(found.textContent) : -1;
              };
              const icons = (name) => [...editor.querySelectorAll(`.margin .codicon-testing-${name}-icon`)].map(lineAt);
              return { passed: icons("passed"), failed: icons("failed") };
            }),
          );
          const marks = all.find((m) => m.failed.length > 0 && m.passed.length > 0);
          return marks ?? false;
        },
        90000,
      );
      assert.deepEqual(gutter, { passed: [5], failed: [9] });
      // The failure's expected and actual values, side by side, in the peek at the failing case's line.
      await bench.focusEditor();
      await bench.goTo(9, 5);
      await bench.runCommand("Test: Peek Output");
      const peek = page.locator(".editor-instance .peekview-widget");
      const peekText = await bench.until(
        "the failing case's expected and actual values in the editor",
        async () => {
          const text = norm(
            await peek
              .first()
              .innerText({ timeout: 1000 })
              .catch(() => ""),
          );
          return text.includes('"shop"') && text.includes('"news"') ? text : false;
        },
        60000,
      );
      log(`peek: ${JSON.stringify(peekText.slice(0, 400))}`);
      assertIncludes(peekText, "value: expected", "the failure's message");
      // The peek sits below the failing case's first line (9): it follows that line.
      const zoneBelow = await page.evaluate(() => {
        // The editor that shows the peek (not necessarily the first editor in the page).
        const editor = globalThis.document
          .querySelector(".editor-instance .peekview-widget")
          ?.closest(".monaco-editor");
        // The peek's own zone (code lenses are zones too): where the peek widget starts.
        const zone = editor?.querySelector(".peekview-widget");
        const lines = [...(editor?.querySelectorAll(".margin-view-overlays .line-numbers") ?? [])];
        const above = lines
          .map((line) => ({ n: Number(line.textContent), top: line.getBoundingClientRect().top }))
          .filter((line) => zone && line.top < zone.getBoundingClientRect().top)
          .sort((a, b) => b.top - a.top)[0];
        return above?.n;
      });
      assert.equal(zoneBelow, 9, "the failure shows after line 9, the failing case's line");
      const states = await bench.until("the verdicts in the Testing view", async () => {
        const rows = await page
          .locator(".test-explorer .monaco-list-row")
          .evaluateAll((nodes) =>
            nodes.map((node) => [
              node.innerText.trim().split("\n")[0],
              node.querySelector(".codicon-testing-passed-icon")
                ? "passed"
                : node.querySelector(".codicon-testing-failed-icon")
                  ? "failed"
                  : "",
            ]),
          );
        const one = rows.find((r) => r[0].startsWith("labels the page"));
        const two = rows.find((r) => r[0].startsWith("expects a shop"));
        return one?.[1] && two?.[1] ? [one, two] : false;
      });
      assert.deepEqual(
        states.map((s) => s[1]),
        ["passed", "failed"],
      );
      await bench.screenshot("n-failure-peek");
      await bench.escape();

      // Debug the first case to a breakpoint on the plan's model step.
      await bench.openFile(TRIAGE);
      await bench.goTo(25, 7);
      await bench.runCommand("Debug: Toggle Breakpoint");
      await page.locator(".editor-instance .codicon-debug-breakpoint").first().waitFor();
      await bench.openFile(E2E_TESTS);
      // At the top, so no sticky line of the scrolled JSON covers the first case's lens.
      await bench.focusEditor();
      await bench.goTo(1, 1);
      await page.locator(".editor-instance .codelens-decoration a", { hasText: "Debug" }).first().click();
      const callStack = page.locator(".debug-call-stack .monaco-list-row");
      const top = await bench.until(
        "the debugger to stop at the breakpoint on the model step",
        async () => {
          const text = norm(
            await callStack
              .first()
              .innerText({ timeout: 1000 })
              .catch(() => ""),
          ).replace(/\s+/g, " ");
          return text.includes("model(local)") && text.includes("triage.rlmplan.json") ? text : false;
        },
        90000,
      );
      log(`stopped: ${top}`);
      await bench.screenshot("n-debug-stopped");
      await bench.runCommand("Debug: Continue");
      await bench.until(
        "the debug session to end",
        async () => ((await callStack.count()) === 0 ? true : false),
        60000,
      );
      await bench.openFile(TRIAGE);
      await bench.goTo(25, 7);
      await bench.runCommand("Debug: Toggle Breakpoint");
    },
  },
  {
    name: "(o) a run from the terminal (rlm-plan run) appears in the Plan Runs view, read from the run journal; opened, its transitions and value",
    timeout: 240000,
    async run(session, assert) {
      const bench = await session.trusted();
      // A plan open activates the extension (run alone, the palette may not list its commands yet).
      await bench.openFile(NEEDLE);
      await bench.focusEditor();
      // The view is open first: the CLI's run must appear because the journal changed.
      const { pane, rows: rowsOf } = await session.planRuns(bench);
      const { stderr } = await execFileP(process.execPath, [path.join(REPO, "cli/bin/rlm-plan.js"), "run", NEEDLE], {
        cwd: session.trustedFolder,
        timeout: 120000,
      });
      const id = /^rlm-plan: recorded as run (\d+) in \.rlm-plan /m.exec(stderr)?.[1];
      assert.ok(id, `the CLI says where it recorded the run:\n${stderr}`);
      log(`(o) the CLI recorded run ${id}; waiting for it in Plan Runs`);
      const row = new RegExp(`^needle-count\\.rlmplan\\.json \\| #${id} · succeeded · cli · .+ · [\\d.]+ m?s$`);
      const listed = await bench.until("the CLI's run in Plan Runs", async () => {
        const found = (await rowsOf()).find((text) => row.test(text));
        return found ?? false;
      });
      assertMatch(listed, row, "the CLI run's row");
      const runRow = pane.locator(".monaco-list-row", { hasText: `#${id} · succeeded · cli` }).first();
      if ((await runRow.getAttribute("aria-expanded")) !== "true") await runRow.click();
      const children = await bench.until("the CLI run's transitions and value", async () => {
        const texts = await rowsOf();
        const at = texts.findIndex((text) => row.test(text));
        const after = texts.slice(at + 1, at + 5);
        return at >= 0 && after.length === 4 && after[3] === "value | 12" ? after : false;
      });
      assertMatch(children[0], /^#1 context\(search\) → hits \| ok · at [\d.]+ m?s · took [\d.]+ m?s$/, "transition 1");
      assertMatch(
        children[1],
        /^#2 tool\(count_items\) → count \| ok · at [\d.]+ m?s · took [\d.]+ m?s$/,
        "transition 2",
      );
      assertMatch(children[2], /^#3 final \| ok · at [\d.]+ m?s · took [\d.]+ m?s$/, "transition 3");
      await bench.screenshot("o-cli-run-in-plan-runs");
    },
  },
  {
    name: '(q) "Debug Recorded Run" on a CLI run: Run and Debug opens, paused on entry; Plan Runs gains no row (a replay is not a run), during it and after Stop',
    timeout: 240000,
    async run(session, assert) {
      const bench = await session.trusted();
      const page = bench.page;
      await bench.openFile(NEEDLE);
      await bench.focusEditor();
      const { pane, rows } = await session.planRuns(bench);
      const { stderr } = await execFileP(process.execPath, [path.join(REPO, "cli/bin/rlm-plan.js"), "run", NEEDLE], {
        cwd: session.trustedFolder,
        timeout: 120000,
      });
      const id = /^rlm-plan: recorded as run (\d+) in \.rlm-plan /m.exec(stderr)?.[1];
      assert.ok(id, `the CLI says where it recorded the run:\n${stderr}`);
      const cliRow = new RegExp(`^needle-count\\.rlmplan\\.json \\| #${id} · succeeded · cli · `);
      const before = await bench.until("the CLI's run in Plan Runs", async () => {
        const all = await rows();
        return all.some((text) => cliRow.test(text)) ? all : false;
      });
      // Its context menu, as a user opens it: right-click the row.
      await pane
        .locator(".monaco-list-row", { hasText: `#${id} · succeeded · cli` })
        .first()
        .click({ button: "right" });
      const item = page.locator(".context-view .action-label", { hasText: /^Debug Recorded Run$/ }).first();
      await item.click();
      // A click while the menu settles can be lost (seen once in 1.96 under load: the menu stayed
      // open, the item highlighted); the highlighted item takes Enter.
      await item.waitFor({ state: "hidden", timeout: 5000 }).catch(() => page.keyboard.press("Enter"));
      // Run and Debug is in front (VS Code 1.139 left the Explorer there), the replay paused on entry.
      await bench.until("the Run and Debug view in the side bar", async () =>
        /run and debug/i.test(
          norm(
            await page
              .locator(".part.sidebar .composite.title")
              .innerText()
              .catch(() => ""),
          ),
        )
          ? true
          : false,
      );
      const callStack = page.locator(".debug-call-stack .monaco-list-row");
      await bench.until("the replay paused on entry in the call stack", async () =>
        norm(
          await callStack
            .first()
            .innerText()
            .catch(() => ""),
        ).includes("needle-count.rlmplan.json")
          ? true
          : false,
      );
      await bench.screenshot("q-replay-run-and-debug");
      // Plan Runs again: the same rows as before the replay (no "#N · running" beside the CLI's).
      const during = await session.planRuns(bench);
      assert.deepEqual(await during.rows(), before, "Plan Runs while the replay is paused");
      // Stop, from the debug toolbar as a user does (the palette's first row differs between versions).
      await page.locator(".debug-toolbar .codicon-debug-stop").first().click();
      await page.locator(".debug-toolbar").waitFor({ state: "hidden", timeout: 30000 });
      const after = await session.planRuns(bench);
      // A row the replay added would turn "cancelled" here; the settle time of the journal's watcher passes first.
      await page.waitForTimeout(1000);
      assert.deepEqual(await after.rows(), before, "Plan Runs after the replay stopped");
    },
  },
  {
    name: '(r) "Rerun From Here" on a graph node of a recorded run, one binding edited: the rerun runs under its parent in Plan Runs, with the new value',
    timeout: 240000,
    async run(session, assert) {
      const { bench, page, pane } = await rerunWindow(session);
      const id = await cliRerunRun(session, assert, [RERUN]);
      const parentText = `#${id} · succeeded · cli`;
      await bench.until("the CLI's run in Plan Runs", async () =>
        (await rowsWithLevel(pane)).some(
          (row) => row.startsWith("1 rerun.rlmplan.json | ") && row.includes(parentText),
        ),
      );
      // Open Run as Graph from the run's context menu: the graph replays it, every step ok.
      await pane.locator(".monaco-list-row", { hasText: parentText }).first().click({ button: "right" });
      await contextMenuItem(page, /^Open Run as Graph$/);
      const { frame } = await webviewFrame(bench, "the replayed run on the graph, its three steps ok", () => {
        const steps = [...globalThis.document.querySelectorAll("#stage g.step")];
        return steps.length === 3 && steps.every((step) => step.classList.contains("ok"));
      });
      // Right-click the sum step (steps/1): "Rerun From Here..." in the graph's context menu.
      await frame.locator("#stage g.step[data-op='tool']").nth(1).click({ button: "right" });
      await contextMenuItem(page, /^Rerun From Here\.\.\.$/);
      await bench.quickInputTitled(`Rerun run ${id} from steps[1]`);
      await bench.until("the bindings in scope with their recorded values", async () => {
        const rows = await bench.quickInputRows();
        return rows.some((row) => row === "count | 3") ? rows : false;
      });
      await bench.screenshot("r-rerun-bindings");
      await page.locator(".quick-input-widget .monaco-list-row", { hasText: "count" }).first().click();
      await bench.quickInputTitled(`Rerun run ${id} from steps[1]: count`);
      const input = page.locator(".quick-input-widget .quick-input-box input");
      await input.fill("seven");
      await page.locator(".quick-input-widget .quick-input-message", { hasText: /^Not JSON/ }).waitFor();
      await input.fill("7");
      await page.keyboard.press("Enter");
      await bench.until("count edited in the pick", async () => {
        const rows = await bench.quickInputRows();
        return rows.some((row) => row === "count | 7") ? rows : false;
      });
      await page.locator(".quick-input-widget .monaco-list-row", { hasText: "Start Rerun" }).first().click();
      // The rerun: listed under the CLI's run (one level deeper), ok, and its value is 107.
      const parentRow = pane.locator(".monaco-list-row", { hasText: parentText }).first();
      const child = await bench.until(
        "the rerun under its parent",
        async () => {
          if ((await parentRow.getAttribute("aria-expanded")) !== "true") await parentRow.click();
          const rows = await rowsWithLevel(pane);
          const at = rows.findIndex((row) => row.includes(parentText));
          const next = rows[at + 1] ?? "";
          return /^2 rerun\.rlmplan\.json \| #\d+ · succeeded · rerun from steps\/1 · /.test(next) ? next : false;
        },
        120000,
      );
      const childNumber = /#(\d+) ·/.exec(child)?.[1];
      const childRow = pane
        .locator(".monaco-list-row", { hasText: `#${childNumber} · succeeded · rerun from` })
        .first();
      if ((await childRow.getAttribute("aria-expanded")) !== "true") await childRow.click();
      await bench.until("the rerun's value, 107", async () =>
        (await rowsWithLevel(pane)).some((row) => row === "3 value | 107") ? true : false,
      );
      await bench.screenshot("r-rerun-under-parent");
      // A step of a recorded run in Plan Runs offers it too.
      await pane.locator(".monaco-list-row", { hasText: "#2 tool(sum) → total" }).first().click({ button: "right" });
      const item = page.locator(".context-view .action-label", { hasText: /^Rerun From Here\.\.\.$/ }).first();
      await item.waitFor();
      await bench.escape(1);
      await item.waitFor({ state: "hidden" });
      const output = await session.runsOutput(bench, "the rerun in the output", (text) =>
        text.includes(`Rerunning run ${id} of plans/rerun.rlmplan.json from steps[1] with count edited`),
      );
      assertIncludes(output, "with count edited (the steps before it answered from the journal)", "the output's line");
    },
  },
  {
    name: "(s) Compare Runs on two runs selected in Plan Runs: both graphs side by side, the differing steps marked, the first divergence named in the table",
    timeout: 240000,
    async run(session, assert) {
      const { bench, page, pane } = await rerunWindow(session);
      // A run and its fork from the terminal: the fork is listed under its parent.
      const parent = await cliRerunRun(session, assert, [RERUN]);
      const fork = await cliRerunRun(session, assert, ["--from", parent, "--step", "steps/1", "--set", "count=7"]);
      const parentRow = pane.locator(".monaco-list-row", { hasText: `#${parent} · succeeded · cli` }).first();
      const forkText = `#${fork} · succeeded · rerun from steps/1 · cli`;
      await bench.until(
        "the fork under its parent",
        async () => {
          if ((await parentRow.count()) === 0) return false;
          if ((await parentRow.getAttribute("aria-expanded")) !== "true") await parentRow.click();
          return (await rowsWithLevel(pane)).some((row) => row.startsWith("2 ") && row.includes(forkText));
        },
        60000,
      );
      // Both selected (click, then Ctrl+click), then "Compare Runs" from the context menu.
      await parentRow.click();
      if ((await parentRow.getAttribute("aria-expanded")) !== "true") await parentRow.click();
      const forkRow = pane.locator(".monaco-list-row", { hasText: forkText }).first();
      await forkRow.click({ modifiers: ["Control"] });
      await forkRow.click({ button: "right" });
      await contextMenuItem(page, /^Compare Runs$/);
      const { frame, answer } = await webviewFrame(
        bench,
        "the comparison's summary and both graphs",
        () =>
          globalThis.document.querySelectorAll("#sides g.step").length === 6 &&
          globalThis.document.getElementById("summary")?.textContent,
      );
      assert.equal(
        norm(answer),
        `Runs ${parent} and ${fork} differ: first at /steps/1 · 2 changed, 0 added, 0 removed, 1 alike.`,
      );
      const marked = await frame.evaluate(() =>
        ["side-a", "side-b"].map((side) =>
          [...globalThis.document.querySelectorAll(`#${side} g.step`)].map(
            (step) => [...step.classList].find((name) => name.startsWith("diff-")) ?? "same",
          ),
        ),
      );
      assert.deepEqual(marked, [
        ["same", "diff-first", "diff-changed"],
        ["same", "diff-first", "diff-changed"],
      ]);
      const table = await frame.evaluate(() =>
        [...globalThis.document.querySelectorAll("#steps tbody tr")].map((row) =>
          [...row.cells].slice(0, 3).map((cell) => cell.textContent),
        ),
      );
      assert.deepEqual(table, [
        ["/steps/0", "same", ""],
        ["/steps/1", "changed (first divergence)", "value, calls"],
        ["/steps/2", "changed", "value"],
      ]);
      await bench.screenshot("s-compare-runs");
    },
  },
  {
    name: "(p) a plan over rlmPlan.largePlanSize: no whole-document tokens, so VS Code asks by range and colours what is on screen",
    async run(session, assert) {
      const bench = await session.trusted();
      // The limit set tiny in the workspace's settings, so a 300-byte plan crosses it (the real
      // default is 2 MB; bench:big measures such plans). Removed again at the end.
      const settings = path.join(session.trustedFolder, ".vscode/settings.json");
      fs.mkdirSync(path.dirname(settings), { recursive: true });
      fs.writeFileSync(settings, JSON.stringify({ "rlmPlan.largePlanSize": 100 }, null, 2) + "\n");
      // A probe plan first: once the server refuses its whole-document tokens, the setting is in
      // force, so the plan opened next is refused from its first request and any semantic colour
      // it shows came from a range request.
      fs.writeFileSync(path.join(session.trustedFolder, RANGE_PROBE), RANGE_TOKENS_PLAN);
      fs.writeFileSync(path.join(session.trustedFolder, RANGE_TOKENS), RANGE_TOKENS_PLAN);
      const refusal = (name) =>
        `${name} is ${Buffer.byteLength(RANGE_TOKENS_PLAN)} bytes, over the 100 bytes of rlmPlan.largePlanSize: its semantic tokens are given for the visible range only, not the whole document.`;
      const logged = (name) => session.trustedServer.outputLog(UI.serverChannel).includes(refusal(name));
      try {
        await bench.openFile(RANGE_PROBE);
        // Should the setting reach the server after the editor's first request, an edit (every
        // 5 s) makes the editor ask again.
        let asked = Date.now();
        await bench.until(
          "the server's refusal of the probe's whole-document tokens in its log",
          async () => {
            if (logged(path.basename(RANGE_PROBE))) return true;
            if (Date.now() - asked < 5000) return false;
            asked = Date.now();
            log("(p) no refusal logged yet: an edit to ask again");
            await bench.goTo(1, 2);
            await bench.page.keyboard.type(" ");
            await bench.page.keyboard.press("Backspace");
            return false;
          },
          TIMEOUT * 2,
        );
        await bench.openFile(RANGE_TOKENS);
        await bench.until("the server's refusal of the plan's whole-document tokens in its log", async () =>
          logged(path.basename(RANGE_TOKENS)),
        );
        // Line 4: the reference to `first` is written name first, a form the grammar cannot tell
        // from any string; only the server's tokens (a readonly variable) colour it otherwise.
        // With the whole document refused, those came from a range request.
        const colours = await bench.until("the reference coloured by semantic tokens", async () => {
          const spans = await bench.page
            .locator(".editor-instance .view-line", { hasText: '"name": "first", "ref"' })
            .first()
            .locator(":scope > span > span")
            .evaluateAll((nodes) => nodes.map((node) => [node.textContent, globalThis.getComputedStyle(node).color]));
          const seed = await bench.page
            .locator(".editor-instance .view-line", { hasText: '"seed"' })
            .first()
            .locator(":scope > span > span", { hasText: "seed" })
            .evaluate((node) => globalThis.getComputedStyle(node).color);
          const reference = spans.find(([text]) => text?.includes("first"));
          return reference && reference[1] !== seed ? { reference: reference[1], string: seed, spans } : false;
        });
        assert.notEqual(colours.reference, colours.string);
        await bench.screenshot("p-range-tokens");
      } finally {
        fs.rmSync(settings);
        fs.rmSync(path.join(session.trustedFolder, RANGE_PROBE));
      }
    },
  },
  {
    name: "(u) extract a sub-plan from a selection with the Refactor menu; Ctrl+Z gives the text back",
    async run(session, assert) {
      const bench = await session.trusted();
      const page = bench.page;
      await bench.closeAllEditorsDiscarding();
      await bench.openFile(NEEDLE);
      const before = await bench.editorLines();
      // Select the tool step (line 12) and ask for refactorings.
      await bench.goTo(12, 5);
      await page.keyboard.press("Shift+End");
      await bench.runCommand("Refactor...");
      const item = page.locator(".action-widget .monaco-list-row", { hasText: "Extract the step to a sub-plan" });
      await item.first().waitFor({ timeout: 30000 });
      await item.first().click();
      const extracted = await bench.until("the rlm step in the editor", async () => {
        const lines = await bench.editorLines();
        return lines.some((line) => line.includes('{ "op": "rlm", "plan": { "steps": [')) ? lines : false;
      });
      assert.ok(
        extracted.some((line) => line.trim() === '] }, "bind": "count" },'),
        `the count comes back as the step's binding:\n${extracted.join("\n")}`,
      );
      await bench.screenshot("u-extracted");
      await bench.focusEditor();
      await page.keyboard.press("Control+Z");
      // The undo selects the step again and scrolls to its end: back to the left edge, as before.
      await page.keyboard.press("Control+Home");
      await bench.until("the text as it was", async () => {
        const lines = await bench.editorLines();
        return JSON.stringify(lines) === JSON.stringify(before) ? true : false;
      });
    },
  },
  {
    name: "(v) the plan graph: insert a step from the palette, delete it, each undone with Ctrl+Z",
    async run(session, assert) {
      const bench = await session.trusted();
      const page = bench.page;
      await bench.closeAllEditorsDiscarding();
      await bench.openFile(NEEDLE);
      const before = await bench.editorLines();
      await bench.focusEditor();
      await bench.runCommand(UI.graph);
      const view = page.frameLocator("iframe.webview.ready").frameLocator("iframe#active-frame");
      const steps = view.locator("g.step");
      const count = (n) => async () => ((await steps.count()) === n ? true : false);
      await bench.until("the graph's three steps", count(3), 60000);
      // The plan's editor group (the graph is in another one beside it): its lines, and a click to focus it.
      const group = page.locator(".editor-group-container", {
        has: page.locator(`.tab[data-resource-name="${path.basename(NEEDLE)}"]`),
      });
      const lines = async () =>
        (
          await group
            .locator(".view-lines .view-line")
            .evaluateAll((nodes) =>
              nodes.map((node) => ({ top: parseFloat(node.style.top || "0"), text: node.textContent ?? "" })),
            )
        )
          .sort((a, b) => a.top - b.top)
          .map((line) => norm(line.text));
      const hasCheckpoint = (text) => text.some((line) => line.includes('"op": "checkpoint"'));
      // Insert: i on the focused first step, then the palette.
      await steps.first().focus();
      await page.keyboard.press("i");
      await bench.quickInputTitled("Insert a step");
      await bench.quickInput("checkpoint", "checkpoint");
      await page.keyboard.press("Enter");
      await bench.until("the graph's four steps", count(4), 60000);
      const inserted = await lines();
      assert.ok(hasCheckpoint(inserted), `a checkpoint step in the text:\n${inserted.join("\n")}`);
      // Delete the new step from the graph (Delete on it): the text is as it was.
      await view.locator('g.step[data-op="checkpoint"]').focus();
      await page.keyboard.press("Delete");
      await bench.until("the graph's three steps again", count(3), 60000);
      assert.deepEqual(await lines(), before, "the delete gives the text back");
      await bench.screenshot("v-graph-edits");
      // Ctrl+Z in the editor undoes the delete, then the insert.
      await group.locator(".view-lines").first().click();
      await page.keyboard.press("Control+Z");
      await bench.until("the delete undone: four steps in the graph", count(4), 60000);
      await page.keyboard.press("Control+Z");
      await bench.until("the insert undone: three steps in the graph", count(3), 60000);
      // The whole text in view: the click may have scrolled the editor.
      await page.keyboard.press("Control+Home");
      let seen = [];
      await bench
        .until("the text as it was", async () => {
          seen = await lines();
          return JSON.stringify(seen) === JSON.stringify(before) ? true : false;
        })
        .catch((error) => {
          throw new Error(`${error.message}\nbefore:\n${before.join("\n")}\nnow:\n${seen.join("\n")}`);
        });
    },
  },
  {
    name: '(w) "Test This Step" on the count step: its bindings in an input box, then the step alone and its value 3',
    async run(session, assert) {
      const bench = await session.trusted();
      const { page } = bench;
      await bench.openFile(NEEDLE);
      // The lens above steps/1 (the count): the second "Test This Step" of the plan.
      const lens = page
        .locator(".editor-group-container.active .codelens-decoration a", { hasText: "Test This Step" })
        .nth(1);
      await lens.waitFor({ state: "visible" });
      await lens.click();
      await bench.quickInputTitled("Test This Step: steps/1");
      const input = page.locator(".quick-input-widget .quick-input-box input");
      // No run of this step in the journal yet: a template from the type of hits (a search's matches).
      assert.equal(await input.inputValue(), '{"hits":[]}', "the bindings offered");
      await input.fill('{"hits":["a","b","c"]}');
      await input.press("Enter");
      // Accepted: the box goes (showing the output next would otherwise close it unaccepted).
      await page.locator(".quick-input-widget").waitFor({ state: "hidden" });
      const done = /Run (\d+) succeeded in [\d.]+ m?s \(1 transitions?\)\. Final value:\n3$/m;
      const text = await session.runsOutput(bench, "the step run to succeed", (t) => done.test(t));
      // One transition, the count's: nothing before the step ran.
      const block = runBlock(text, Number(done.exec(text)?.[1]));
      assertMatch(block, /^ {2}#1\s+tool\(count_items\)\s+→ count\s+ok\s/m, "the count's transition");
      assert.equal(block.includes("context(search)"), false, "no search ran");
      await bench.screenshot("w-test-step");
    },
  },
  {
    name: "(x) a CLI run waits for approval: the notification names the action; Approve… resumes it, and Plan Runs shows the vote",
    timeout: 240000,
    async run(session, assert) {
      const bench = await session.trusted();
      const { page } = bench;
      // A folder of its own (a host profile with an approval rule), recorded in the workspace's journal
      // (--journal: beside its own host profile otherwise, which the window's folder does not list).
      const dir = path.join(session.trustedFolder, "approve");
      const marks = path.join(dir, "marks.txt");
      fs.mkdirSync(dir, { recursive: true });
      fs.writeFileSync(
        path.join(dir, "mark.js"),
        `let i = ""; process.stdin.on("data", (c) => (i += c)); process.stdin.on("end", () => {
          require("fs").appendFileSync(${JSON.stringify(marks)}, "sent\\n");
          process.stdout.write(JSON.stringify({ sent: true }));
        });`,
      );
      // The approver is the OS user: the name the extension votes as when rlmPlan.approver is empty.
      const me = os.userInfo().username;
      fs.writeFileSync(
        path.join(dir, "rlmplan.host.json"),
        JSON.stringify({
          capabilities: ["tool(send)"],
          tools: { send: { type: "command", command: [process.execPath, "mark.js"], writes: ["."] } },
          approvals: [{ tool: "send", approvers: [me, "bob"], timeout: 600 }],
        }),
      );
      fs.writeFileSync(
        path.join(dir, "send.rlmplan.json"),
        JSON.stringify({
          steps: [
            { op: "tool", name: "send", args: { to: "ada@example.com" }, bind: "r" },
            { op: "final", value: { ref: "var", name: "r" } },
          ],
        }),
      );
      // A plan open activates the extension (the palette lists its commands once it has).
      await bench.openFile(NEEDLE);
      const { pane, rows } = await session.planRuns(bench);
      const waited = await execFileP(
        process.execPath,
        [
          path.join(REPO, "cli/bin/rlm-plan.js"),
          "run",
          "send.rlmplan.json",
          "--as",
          "carol",
          "--journal",
          "../.rlm-plan",
        ],
        { cwd: dir, timeout: 120000 },
      ).then(
        () => ({ code: 0, stderr: "" }),
        (error) => ({ code: error.code, stderr: String(error.stderr) }),
      );
      assert.equal(waited.code, 3, `the run waits:\n${waited.stderr}`);
      const id = /^rlm-plan: run (\d+) waits for approval of tool\(send\) at steps\/0 /m.exec(waited.stderr)?.[1];
      assert.ok(id, `the CLI says the run waits:\n${waited.stderr}`);
      assert.equal(fs.existsSync(marks), false, "the held tool has not run");
      const toast = page.locator(".notifications-toasts .notification-list-item", { hasText: "waits for approval" });
      await toast.waitFor({ state: "visible", timeout: 60000 });
      const message = norm(await toast.locator(".notification-list-item-message").innerText()).trim();
      assertMatch(
        message,
        new RegExp(
          `^Run ${id} of approve/send\\.rlmplan\\.json waits for approval: tool\\(send\\) at steps/0 with .*ada@example\\.com.* \\(action sha256 [0-9a-f]{12}…\\)$`,
        ),
        "the notification",
      );
      await bench.screenshot("x-approval-notification");
      await toast.locator(".monaco-button", { hasText: "Approve…" }).click();
      const input = page.locator(".quick-input-widget .quick-input-box input");
      await input.waitFor({ state: "visible" });
      await input.fill("checked in e2e");
      await input.press("Enter");
      await bench.until("the approved tool to run once", async () =>
        fs.existsSync(marks) && fs.readFileSync(marks, "utf8") === "sent\n" ? true : false,
      );
      // The run, resumed here and done now (the editor's record of the journal's run), with its request and vote under it.
      await bench.until("the resumed run succeeded in Plan Runs", async () =>
        (await rows()).some((row) => /^send\.rlmplan\.json \| #\d+ · succeeded · /.test(row)),
      );
      const runRow = pane.locator(".monaco-list-row", { hasText: "send.rlmplan.json" }).first();
      if ((await runRow.getAttribute("aria-expanded")) !== "true") await runRow.click();
      const shown = await bench.until("the request and the vote under the run", async () => {
        const texts = await rows();
        return texts.some((row) => row.startsWith(`${me} approved | checked in e2e · `)) ? texts : false;
      });
      assert.ok(
        shown.some((row) => /^approval tool\(send\) at steps\/0 \| approved · 1 of 1 · sha256 [0-9a-f]{12}$/.test(row)),
        `rows: ${JSON.stringify(shown)}`,
      );
      assert.equal(fs.readFileSync(marks, "utf8"), "sent\n", "the tool ran once");
      await bench.screenshot("x-approval-vote");
    },
  },
  {
    name: "(l) activation again, with the server's code cache warm: a second window on the same folder",
    async run(session) {
      // Last, since code-server keeps a closed window's extension host (and its server) alive.
      const bench = await session.trusted();
      // The first server writes V8's code cache of its bundle into the extension's storage
      // (shared-runtime/src/codeCache.ts); every later start reads it. A second window on the same
      // folder (its own extension host, the same storage) measures such a start.
      const cacheDir = path.join(
        session.trustedServer.dirs.userData,
        "User/globalStorage/rlm-plan.rlm-plan/code-cache",
      );
      // The extension's own bundle (dist/extension.js, loaded by dist/extensionStart.js) has its entry there too.
      const entries = () => (fs.existsSync(cacheDir) ? fs.readdirSync(cacheDir) : []);
      await bench.until("the server's and the extension's code cache written", async () =>
        ["server.js-", "extension.js-"].every((bundle) =>
          entries().some((name) => name.startsWith(bundle) && name.endsWith(".v8cache")),
        ),
      );
      const activations = () => [
        ...session.trustedServer.outputLog(UI.serverChannel).matchAll(/Activated in (\d+) ms/g),
      ];
      const before = activations().length;
      const second = await Workbench.open(session.browser, session.trustedServer, session.trustedFolder);
      try {
        const warm = await second.until(
          "the second window's activation in the extension's log",
          async () => {
            const all = activations();
            return all.length > before ? Number(all.at(-1)?.[1]) : false;
          },
          TIMEOUT * 2,
        );
        log(`activation: ${warm} ms (extension activate → language server ready; code cache warm)`);
      } finally {
        await second.page.close();
      }
    },
  },
];
