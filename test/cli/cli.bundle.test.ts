// The bundled command (cli/dist/, written by `npm run build`) as the bin runs it: from the bundle
// with V8's code cache, with what the runtime loads beside itself (the command tools' supervisor,
// elkjs for SVG), and from the compiled modules when a later tsc -b made the bundle stale.

import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { existsSync, mkdtempSync, readdirSync, rmSync, statSync, utimesSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, describe, test } from "node:test";
import { CLI_BIN, ROOT } from "../support/cliWorkspace";

const cache = mkdtempSync(join(tmpdir(), "rlm-plan-cli-bundle-"));
after(() => rmSync(cache, { recursive: true, force: true }));

function bin(args: readonly string[], cacheDir: string) {
  return spawnSync(process.execPath, [CLI_BIN, ...args], {
    cwd: ROOT,
    encoding: "utf8",
    env: { ...process.env, NO_COLOR: "1", RLM_PLAN_CODE_CACHE: cacheDir },
  });
}

describe(
  "the bundled rlm-plan",
  { skip: !existsSync(join(ROOT, "cli", "dist", "start.js")) && "not bundled: npm run build" },
  () => {
    test("runs and records a plan with a command tool from the bundle, and keeps a code cache per command", () => {
      const dir = join(cache, "run");
      const entries = () => readdirSync(dir).map((name) => name.replace(/-[0-9a-f]{16}\./, "-KEY."));
      const result = bin(["run", "examples/workspace/plans/needle-count.rlmplan.json", "--json"], dir);
      assert.equal(result.status, 0, result.stderr);
      const last = JSON.parse(result.stdout.trim().split("\n").at(-1) ?? "") as {
        ok: boolean;
        value: unknown;
        run: unknown;
      };
      assert.deepEqual([last.ok, last.value], [true, 12]);
      assert.deepEqual(entries(), ["rlm-plan.js-KEY.run.v8cache"]);
      assert.equal(statSync(dir).mode & 0o777, 0o700);
      // Recorded through the journal's SQLite: better-sqlite3's JavaScript inside the bundle, its addon handed to it.
      assert.equal(typeof last.run, "number", result.stderr);
      const shown = bin(["runs", "show", String(last.run), "--journal", "examples/workspace/.rlm-plan"], dir);
      assert.equal(shown.status, 0, shown.stderr);
      assert.match(shown.stdout, /needle-count\.rlmplan\.json/);
      // Another command writes an entry of its own; the run's stays. `check` and `--version` start
      // from the static bundle (cli/dist/static.js), a preflight from the whole one.
      assert.equal(bin(["check", "examples/workspace/plans/needle-count.rlmplan.json"], dir).status, 0);
      assert.equal(bin(["--version"], dir).status, 0);
      assert.deepEqual(entries().sort(), [
        "rlm-plan.js-KEY.run.v8cache",
        "rlm-plan.js-KEY.runs.v8cache",
        "static.js-KEY.check.v8cache",
        "static.js-KEY.other.v8cache",
      ]);
      const preflight = bin(["check", "--preflight", "examples/workspace/plans/needle-count.rlmplan.json"], dir);
      assert.equal(preflight.status, 0, preflight.stderr);
      assert.match(
        preflight.stderr,
        /preflight of examples\/workspace\/plans\/needle-count\.rlmplan\.json: no MCP server/,
      );
      assert.deepEqual(entries().sort(), [
        "rlm-plan.js-KEY.check.v8cache",
        "rlm-plan.js-KEY.run.v8cache",
        "rlm-plan.js-KEY.runs.v8cache",
        "static.js-KEY.check.v8cache",
        "static.js-KEY.other.v8cache",
      ]);
    });

    test("the static bundle holds no run: what only a run requires throws there, named", () => {
      // What bundleStart.ts must never send to it; were it sent, the error names the missing module.
      const result = spawnSync(
        process.execPath,
        [
          "-e",
          'require(process.argv[1]).runCli(["run", "examples/workspace/plans/needle-count.rlmplan.json"])',
          join(ROOT, "cli", "dist", "static.js"),
        ],
        { cwd: ROOT, encoding: "utf8", env: { ...process.env, NO_COLOR: "1" } },
      );
      assert.equal(result.stdout, "");
      assert.equal(
        result.stderr,
        "rlm-plan: internal error: cli/out/main.js -> ./run is not in cli/dist/static.js (cli/src/bundleStart.ts chose it for this command)\n",
      );
      assert.equal(result.status, 2);
    });

    test("draws SVG with the layout engine beside the bundle", () => {
      const result = bin(["graph", "examples/plans/parallel-summary.rlmplan.json"], join(cache, "graph"));
      assert.equal(result.status, 0, result.stderr);
      assert.match(result.stdout, /^<svg /);
    });

    test("runs the compiled modules when tsc -b built after the bundle", () => {
      const info = join(ROOT, "cli", "out", ".tsbuildinfo");
      const before = statSync(info);
      const later = new Date(statSync(join(ROOT, "cli", "dist", "rlm-plan.js")).mtimeMs + 60_000);
      utimesSync(info, later, later);
      try {
        const dir = join(cache, "stale");
        const result = bin(["check", "examples/workspace/plans/needle-count.rlmplan.json"], dir);
        assert.equal(result.status, 0, result.stderr);
        assert.equal(existsSync(dir), false, "the bundle ran (it wrote a code cache)");
      } finally {
        utimesSync(info, before.atime, before.mtime);
      }
    });
  },
);
