// Emacs's eglot as a third real LSP client: `emacs --batch` loads test/emacs/rlm-plan-eglot.el,
// whose configuration part is the one server/README.md shows, opens a broken plan (eglot starts
// the built server over stdio), and through eglot's own functions reads its diagnostics, a hover,
// completion (eglot's completion-at-point), renames a binding (eglot-rename edits the buffer),
// asks the code actions and runs the plan with the "Run plan" action's command
// (workspace/executeCommand), then writes all of it as JSON. Skips when `emacs` is not on PATH or
// has no eglot (apt-get install -y emacs-nox elpa-eglot; scripts/install-e2e.sh does), and fails
// then with CI=true.

import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { existsSync, readFileSync } from "node:fs";
import { resolve } from "node:path";
import { test } from "node:test";
import { positionAt, SERVER_MAIN, TempWorkspace } from "@rlm-plan/lsp-harness";

/** test/out/emacs/ -> test/emacs/rlm-plan-eglot.el (not compiled, so not copied to out/). */
const EGLOT_EL = resolve(__dirname, "..", "..", "emacs", "rlm-plan-eglot.el");
const SERVER_README = resolve(__dirname, "..", "..", "..", "server", "README.md");
const EMACS_TIMEOUT_MS = 30_000;

const HOST_PROFILE = `{
  "capabilities": ["tool(count_items)"],
  "budget": { "max_tool_calls": 8 },
  "tools": { "count_items": { "type": "builtin", "builtin": "count_items" } }
}
`;

const BROKEN = `{
  "steps": [
    { "op": "tool", "name": "count_items", "args": { "ref": "var", "name": "hits" }, "bind": "n" },
    { "op": "", "bind": "x" },
    { "op": "final", "value": { "ref": "var", "name": "n" } }
  ]
}
`;

const GOOD = `{
  "steps": [
    { "op": "tool", "name": "count_items", "args": [1, 2, 3], "bind": "n" },
    { "op": "final", "value": { "ref": "var", "name": "n" } }
  ]
}
`;

interface EmacsResult {
  readonly mode: string;
  readonly server: string | null;
  readonly diagnostics: readonly { line: number; code: string; severity: number; message: string }[];
  readonly hover: string | null;
  readonly completion: readonly string[];
  readonly renamed: string;
  readonly actions: readonly string[];
  readonly run_uri: string | null;
  readonly good_uri: string;
  readonly run: { readonly ok: boolean; readonly value: unknown };
  readonly shown: readonly string[];
}

function emacsWithEglot(): string | undefined {
  const probe = spawnSync("emacs", ["--batch", "--eval", "(progn (require (quote eglot)) (princ emacs-version))"], {
    encoding: "utf8",
  });
  return probe.error || probe.status !== 0 ? undefined : probe.stdout.trim();
}

test(
  "Emacs's eglot: diagnostics, hover, completion, rename, code actions and the run command",
  { timeout: 60_000 },
  (t) => {
    const version = emacsWithEglot();
    if (version === undefined) {
      const missing =
        "emacs with eglot not installed: apt-get install -y emacs-nox elpa-eglot (scripts/install-e2e.sh does)";
      // CI installs it (scripts/install-e2e.sh): there, a skip would hide that the tier never ran.
      if (process.env["CI"] === "true") assert.fail(`CI: ${missing}`);
      t.skip(missing);
      return;
    }
    assert.ok(existsSync(SERVER_MAIN), `${SERVER_MAIN} is missing: run npm run build first`);
    const workspace = new TempWorkspace({
      "rlmplan.host.json": HOST_PROFILE,
      "plans/broken.rlmplan.json": BROKEN,
      "plans/good.rlmplan.json": GOOD,
    });
    t.after(() => workspace.dispose());
    const out = workspace.path("emacs-result.json");
    const at = (prefix: string, text: string, offset: number) => {
      const position = positionAt(text, offset);
      return { [`${prefix}_LINE`]: String(position.line), [`${prefix}_CHARACTER`]: String(position.character) };
    };
    const run = spawnSync(
      "emacs",
      [
        "--batch",
        // The checkout's server instead of the bin on PATH, as the configuration's comment says.
        "--eval",
        `(setq rlm-plan-server-command '(${JSON.stringify(process.execPath)} ${JSON.stringify(SERVER_MAIN)} "--stdio"))`,
        "-l",
        EGLOT_EL,
      ],
      {
        cwd: workspace.root,
        encoding: "utf8",
        timeout: EMACS_TIMEOUT_MS,
        env: {
          ...process.env,
          HOME: workspace.root,
          RLM_PLAN_EMACS_OUT: out,
          RLM_PLAN_BROKEN: "plans/broken.rlmplan.json",
          RLM_PLAN_GOOD: "plans/good.rlmplan.json",
          ...at("RLM_PLAN_HOVER", BROKEN, BROKEN.indexOf('"count_items"') + 3),
          ...at("RLM_PLAN_COMPLETE", BROKEN, BROKEN.indexOf('"op": ""') + '"op": "'.length),
          ...at("RLM_PLAN_RENAME", GOOD, GOOD.indexOf('"bind": "n"') + '"bind": "'.length),
        },
      },
    );
    const context = `Emacs ${version}; exit ${run.status} ${run.signal ?? ""}\nstdout: ${run.stdout}\nstderr: ${run.stderr}`;
    assert.equal(run.error, undefined, context);
    assert.equal(run.status, 0, context);
    const result = JSON.parse(readFileSync(out, "utf8")) as EmacsResult;

    assert.equal(result.mode, "rlm-plan-mode");
    assert.equal(result.server, "rlm-plan-language-server");
    assert.deepEqual(
      [...result.diagnostics].sort((a, b) => a.line - b.line),
      [
        {
          line: 2,
          code: "unbound_variable",
          severity: 1,
          message: 'variable "hits" is not bound here: bind it in an earlier step of this plan or an enclosing one',
        },
        {
          line: 3,
          code: "unknown_operator",
          severity: 1,
          message: 'unknown operation "": use context, model, rlm, tool, parallel, retry, checkpoint or final',
        },
      ],
      context,
    );
    assert.ok(result.hover?.startsWith("**tool** `count_items`"), String(result.hover));
    assert.ok(result.hover?.includes("Defined in `rlmplan.host.json`."), String(result.hover));
    assert.deepEqual(
      [...result.completion].sort(),
      ["checkpoint", "context", "final", "model", "parallel", "retry", "rlm", "tool"],
      context,
    );
    assert.equal(
      result.renamed,
      GOOD.replace('"bind": "n"', '"bind": "total"').replace('"name": "n"', '"name": "total"'),
    );
    assert.deepEqual(result.actions, ["Run plan"]);
    assert.equal(result.run_uri, result.good_uri);
    assert.deepEqual(result.run, { ok: true, value: 3 }, context);
    assert.equal(result.shown.length, 1, JSON.stringify(result.shown));
    assert.match(result.shown[0] ?? "", /^RLM Plan: good\.rlmplan\.json returned 3 /);
  },
);

test("server/README.md shows the eglot configuration this test runs", () => {
  const el = readFileSync(EGLOT_EL, "utf8");
  const start = el.indexOf(";; ---- configuration ----\n");
  const end = el.indexOf(";; ---- end of configuration ----");
  assert.ok(start >= 0 && end > start, "rlm-plan-eglot.el marks its configuration part");
  const configuration = el.slice(start + ";; ---- configuration ----\n".length, end);
  assert.ok(
    readFileSync(SERVER_README, "utf8").includes(`\`\`\`elisp\n${configuration}\`\`\``),
    "server/README.md must show test/emacs/rlm-plan-eglot.el's configuration part verbatim, in an elisp block",
  );
});
