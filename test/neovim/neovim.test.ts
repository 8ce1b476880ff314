// Neovim as a second real LSP client: headless Neovim (Debian's 0.7.2 or later) loads
// test/neovim/init.lua, whose configuration part is the one server/README.md shows, opens a
// broken plan, starts the built server over stdio, waits for its diagnostics, asks for a hover
// on a step and writes both as JSON. Skips when `nvim` is not on PATH (apt-get install -y neovim).

import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { existsSync, readFileSync } from "node:fs";
import { resolve } from "node:path";
import { pathToFileURL } from "node:url";
import { test } from "node:test";
import { positionAt, rangeOf, SERVER_MAIN, TempWorkspace } from "@rlm-plan/lsp-harness";

/** test/out/neovim/ -> test/neovim/init.lua (not compiled, so not copied to out/). */
const INIT_LUA = resolve(__dirname, "..", "..", "neovim", "init.lua");
const SERVER_README = resolve(__dirname, "..", "..", "..", "server", "README.md");
const NVIM_TIMEOUT_MS = 10_000;

const PLAN = `{
  "steps": [
    { "op": "tool", "name": "count_items", "args": { "ref": "var", "name": "hits" }, "bind": "n" },
    { "op": "contxt", "bind": "x" },
    { "op": "tool", "name": "count_items", "args": [1, 2], "bind": "n" },
    {
      "op": "retry",
      "attempts": 3,
      "plan": {
        "steps": [
          { "op": "tool", "name": "count_items", "args": [1], "bind": "c" },
          { "op": "final", "value": { "ref": "var", "name": "c" } }
        ]
      },
      "bind": "r"
    },
    { "op": "final", "value": { "ref": "var", "name": "r" } }
  ]
}
`;

/** What init.lua writes: Neovim's own view of the diagnostics (0-based lines, byte columns). */
interface NeovimResult {
  readonly waited: boolean;
  readonly filetype: string;
  readonly clients: readonly string[];
  readonly diagnostics: readonly NeovimDiagnostic[];
  readonly hover: { readonly kind: string; readonly value: string } | null;
  readonly run: {
    readonly lenses: readonly unknown[];
    readonly result: { readonly ok: boolean; readonly value?: unknown } | null;
    readonly notified: readonly string[];
    readonly picked: readonly number[];
    readonly shown: readonly { readonly type: number; readonly message: string }[];
    readonly logged: readonly string[];
  };
  readonly host: {
    readonly hover: { readonly kind: string; readonly value: string } | null;
    readonly completion: string[];
  };
  readonly test_file: {
    readonly filetype: string;
    readonly clients: readonly string[];
    readonly diagnostics: readonly Pick<NeovimDiagnostic, "lnum" | "col" | "severity" | "code" | "message">[];
  };
}

interface NeovimDiagnostic {
  readonly lnum: number;
  readonly col: number;
  readonly end_lnum: number;
  readonly end_col: number;
  readonly severity: number;
  readonly code: string;
  readonly source: string;
  readonly message: string;
}

const ERROR = 1;
const WARNING = 2;

/** A diagnostic as Neovim stores it, on the first occurrence of `token` (after `from`). */
function expected(
  token: string,
  from: string | undefined,
  severity: number,
  code: string,
  message: string,
): NeovimDiagnostic {
  const { start, end } = rangeOf(PLAN, token, from);
  return {
    lnum: start.line,
    col: start.character,
    end_lnum: end.line,
    end_col: end.character,
    severity,
    code,
    source: "rlm-plan",
    message,
  };
}

function nvimVersion(): string | undefined {
  const probe = spawnSync("nvim", ["--version"], { encoding: "utf8" });
  if (probe.error || probe.status !== 0) return undefined;
  return probe.stdout.split("\n")[0];
}

// Its "$schema" (a URL, never fetched) must not turn off the help from the host profile's schema.
const HOST_PROFILE = `{
  "$schema": "https://example.invalid/rlm-plan/host-profile.schema.json",
  "capabilities": ["tool(count_items)"],
  "budget": { "max_tool_calls": 8 },
  "tools": { "count_items": { "type": "builtin", "builtin": "count_items" } }
}
`;

const GOOD_PLAN = `{
  "steps": [
    { "op": "tool", "name": "count_items", "args": [1, 2, 3], "bind": "n" },
    { "op": "final", "value": { "ref": "var", "name": "n" } }
  ]
}
`;

// A test file of the good plan whose case expects an error at a step the plan lacks.
const TEST_FILE = `{
  "plan": "good.rlmplan.json",
  "cases": [{ "name": "counts", "expect": { "error": { "step": "/steps/9" } } }]
}
`;

test(
  "Neovim's built-in LSP client: diagnostics, hover, a run from the lens, host-profile hover and completion, a test file",
  { timeout: 40_000 },
  (t) => {
    const version = nvimVersion();
    if (version === undefined) {
      t.skip("nvim not installed: apt-get install -y neovim (scripts/install-e2e.sh does)");
      return;
    }
    assert.ok(existsSync(SERVER_MAIN), `${SERVER_MAIN} is missing: run npm run build first`);
    const workspace = new TempWorkspace({
      "rlmplan.host.json": HOST_PROFILE,
      "plans/broken.rlmplan.json": PLAN,
      "plans/good.rlmplan.json": GOOD_PLAN,
      "plans/good.rlmplan.test.json": TEST_FILE,
    });
    const hostHover = positionAt(HOST_PROFILE, HOST_PROFILE.indexOf('"max_tool_calls"') + 3);
    const hostComplete = positionAt(HOST_PROFILE, HOST_PROFILE.indexOf('{ "max_tool_calls"') + 1);
    t.after(() => workspace.dispose());
    const hoverAt = positionAt(PLAN, PLAN.indexOf('"retry"') + 3);
    const out = workspace.path("nvim-result.json");

    const run = spawnSync(
      "nvim",
      [
        "--headless",
        "--noplugin",
        "-n",
        "-i",
        "NONE",
        // The checkout's server instead of the bin on PATH, as the configuration's comment says.
        "--cmd",
        `let g:rlm_plan_cmd = ${JSON.stringify([process.execPath, SERVER_MAIN, "--stdio"])}`,
        "-u",
        INIT_LUA,
        "plans/broken.rlmplan.json",
      ],
      {
        cwd: workspace.root,
        encoding: "utf8",
        timeout: NVIM_TIMEOUT_MS,
        env: {
          ...process.env,
          RLM_PLAN_NVIM_OUT: out,
          RLM_PLAN_HOVER_LINE: String(hoverAt.line),
          RLM_PLAN_HOVER_CHARACTER: String(hoverAt.character),
          RLM_PLAN_RUN_PLAN: "plans/good.rlmplan.json",
          RLM_PLAN_TEST_FILE: "plans/good.rlmplan.test.json",
          RLM_PLAN_HOST_HOVER_LINE: String(hostHover.line),
          RLM_PLAN_HOST_HOVER_CHARACTER: String(hostHover.character),
          RLM_PLAN_HOST_COMPLETE_LINE: String(hostComplete.line),
          RLM_PLAN_HOST_COMPLETE_CHARACTER: String(hostComplete.character),
        },
      },
    );
    const context = `${version}; exit ${run.status} ${run.signal ?? ""}\nstdout: ${run.stdout}\nstderr: ${run.stderr}`;
    assert.equal(run.error, undefined, context);
    assert.equal(run.status, 0, context);
    const result = JSON.parse(readFileSync(out, "utf8")) as NeovimResult;

    assert.equal(result.waited, true, "diagnostics arrived");
    assert.equal(result.filetype, "rlm-plan");
    assert.deepEqual(result.clients, ["rlm-plan"]);
    const diagnostics = [...result.diagnostics].sort((a, b) => a.lnum - b.lnum || a.col - b.col);
    assert.deepEqual(diagnostics, [
      expected(
        '"hits"',
        undefined,
        ERROR,
        "unbound_variable",
        'variable "hits" is not bound here: bind it in an earlier step of this plan or an enclosing one',
      ),
      expected(
        '"contxt"',
        undefined,
        ERROR,
        "unknown_operator",
        'unknown operation "contxt": use context, model, rlm, tool, parallel, retry, checkpoint or final',
      ),
      expected(
        '"n"',
        '"args": [1, 2]',
        ERROR,
        "duplicate_binding",
        '"n" is already bound in this scope: choose another name',
      ),
      expected(
        '"retry"',
        undefined,
        WARNING,
        "capability_denied",
        'this step needs the capability retry, which the host does not grant: add "retry" to "capabilities" in rlmplan.host.json',
      ),
    ]);

    assert.ok(result.hover, "the hover answered");
    assert.equal(result.hover.kind, "markdown");
    const paragraphs = result.hover.value.split("\n\n");
    assert.equal(paragraphs[0], "**retry** 3 attempts → `r`");
    assert.ok(
      paragraphs.includes(
        "**Worst case of this step:** 7 steps · depth 2 · parallel width 0 · 0 model calls · 3 tool calls · 0 context operations",
      ),
      result.hover.value,
    );
    assert.ok(
      paragraphs.includes(
        "**Retry:** 3 attempts × 2 steps = 6 steps, plus the retry step · 3 attempts × 1 tool call = 3 tool calls",
      ),
      result.hover.value,
    );
    assert.ok(
      paragraphs.includes('**Capability:** `retry`, **not granted** by `rlmplan.host.json`: add it to "capabilities"'),
      result.hover.value,
    );

    // The run lens, run with vim.lsp.codelens.run() on its line: one lens there, so no picker and
    // no notice; the plan runs in the server, the transitions and the result arrive as messages.
    const goodUri = pathToFileURL(workspace.path("plans/good.rlmplan.json")).href;
    assert.deepEqual(result.run.lenses, [
      {
        range: { start: { line: 0, character: 0 }, end: { line: 0, character: 1 } },
        command: {
          title: "▶ Run plan (steps 2/64 · tools 1/8 · depth 1/4)",
          command: "rlmPlan.server.runInEditor",
          arguments: [goodUri],
        },
      },
    ]);
    assert.deepEqual([result.run.notified, result.run.picked], [[], []], JSON.stringify(result.run));
    assert.deepEqual(result.run.result && [result.run.result.ok, result.run.result.value], [true, 3]);
    assert.deepEqual(
      result.run.logged.filter((m) => m.startsWith("[rlm-plan]")).map((m) => m.replace(/ \d+ ms$/, "")),
      ["[rlm-plan] good.rlmplan.json #1 tool(count_items) → n ok", "[rlm-plan] good.rlmplan.json #2 final ok"],
    );
    assert.equal(result.run.shown.length, 1);
    assert.match(result.run.shown[0]?.message ?? "", /^RLM Plan: good\.rlmplan\.json returned 3 /);

    // The host profile: hover on a budget key, completion of the budget's other keys.
    assert.match(result.host.hover?.value ?? "", /^Trusted tool calls/);
    assert.ok(result.host.completion.includes("max_steps"), JSON.stringify(result.host.completion));
    assert.ok(!result.host.completion.includes("max_tool_calls"));

    // The test file: the documented configuration attaches the server (filetype stays json).
    const step = rangeOf(TEST_FILE, '"/steps/9"').start;
    assert.deepEqual(result.test_file, {
      filetype: "json",
      clients: ["rlm-plan"],
      diagnostics: [
        {
          lnum: step.line,
          col: step.character,
          severity: ERROR,
          code: "invalid_test_file",
          message: "the plan has no step /steps/9",
        },
      ],
    });
  },
);

test("server/README.md shows the Neovim configuration this test runs", () => {
  const lua = readFileSync(INIT_LUA, "utf8");
  const start = lua.indexOf("-- ---- configuration ----\n");
  const end = lua.indexOf("-- ---- end of configuration ----");
  assert.ok(start >= 0 && end > start, "init.lua marks its configuration part");
  const configuration = lua.slice(start + "-- ---- configuration ----\n".length, end);
  const readme = readFileSync(SERVER_README, "utf8");
  assert.ok(
    readme.includes(`\`\`\`lua\n${configuration}\`\`\``),
    "server/README.md must show test/neovim/init.lua's configuration part verbatim, in a lua block",
  );
});
