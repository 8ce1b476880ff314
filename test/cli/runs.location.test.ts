// Which journal `rlm-plan runs` and `run --resume` read (issue 34 item 1), and how they read a run's
// number (issue 33 item 7): the README's first command typed from the repository's root records
// into examples/workspace/.rlm-plan, and the command its last line names works from there, as do
// `--journal examples/workspace` (the workspace's folder) and `--plan PLAN` (found from the plan's
// folder); every `runs` command first says which journal it read. A run number is plain decimal:
// `0x4`, `1e0`, ` 4`, `04` are refused, never taken for run 4.

import assert from "node:assert/strict";
import { cpSync, rmSync } from "node:fs";
import { join } from "node:path";
import { describe, test } from "node:test";
import { cliWorkspace, ROOT, runCli } from "../support/cliWorkspace";

const JOURNAL_LINE = "rlm-plan: journal examples/workspace/.rlm-plan/runs.sqlite\n";

/** A copy of the repository's examples, as a fresh clone has them (no journal yet). */
function freshClone(name: string) {
  const ws = cliWorkspace(name);
  cpSync(join(ROOT, "examples", "workspace"), join(ws.dir, "examples", "workspace"), { recursive: true });
  rmSync(join(ws.dir, "examples", "workspace", ".rlm-plan"), { recursive: true, force: true });
  return ws;
}

const PLAN = "examples/workspace/plans/needle-count.rlmplan.json";

describe("runs from the repository's root after the README's first command", () => {
  const ws = freshClone("runs-root");

  test("the command the run's last line names works as typed; runs says which journal it read", () => {
    const ran = ws.cli("run", PLAN);
    assert.equal(ran.code, 0, ran.stderr);
    assert.equal(ran.stdout, "12\n");
    assert.match(
      ran.stderr,
      /\nrlm-plan: recorded as run 1 in examples\/workspace\/\.rlm-plan \(rlm-plan runs show 1\)\n$/,
    );
    const shown = ws.cli("runs", "show", "1");
    assert.equal(shown.code, 0, shown.stderr);
    assert.equal(shown.stderr, JOURNAL_LINE);
    assert.match(shown.stdout, /^run 1 {2}ok {2}from cli\n/);
    const listed = ws.cli("runs", "list", "--json");
    assert.equal(listed.stderr, JOURNAL_LINE);
    assert.deepEqual(
      (JSON.parse(listed.stdout) as { id: number }[]).map((r) => r.id),
      [1],
    );
  });

  test("--journal names the workspace's folder or the journal's; --plan finds it from the plan's folder", () => {
    for (const args of [
      ["--journal", "examples/workspace"],
      ["--journal", "examples/workspace/.rlm-plan"],
      ["--plan", PLAN],
    ]) {
      const listed = ws.cli("runs", "list", "--json", ...args);
      assert.equal(listed.code, 0, listed.stderr);
      assert.equal(listed.stderr, JOURNAL_LINE, args.join(" "));
      assert.deepEqual(
        (JSON.parse(listed.stdout) as { id: number; plan: string }[]).map((r) => [r.id, r.plan]),
        [[1, "needle-count.rlmplan.json"]],
        args.join(" "),
      );
    }
    const exported = ws.cli("runs", "export", "1", "--journal", "examples/workspace");
    assert.equal(exported.code, 0, exported.stderr);
    assert.equal((JSON.parse(exported.stdout) as { id: number }).id, 1);
  });

  test("a second workspace's journal below: the run names its journal, and runs without one says which there are", () => {
    cpSync(join(ws.dir, "examples", "workspace"), join(ws.dir, "examples", "second"), { recursive: true });
    rmSync(join(ws.dir, "examples", "second", ".rlm-plan"), { recursive: true, force: true });
    const ran = ws.cli("run", "examples/second/plans/needle-count.rlmplan.json");
    assert.equal(ran.code, 0, ran.stderr);
    assert.match(
      ran.stderr,
      /\nrlm-plan: recorded as run 1 in examples\/second\/\.rlm-plan \(rlm-plan runs show 1 --journal examples\/second\/\.rlm-plan\)\n$/,
    );
    const listed = ws.cli("runs", "list");
    assert.equal(listed.code, 2);
    assert.equal(
      listed.stderr,
      "rlm-plan: no run journal here, and 2 below: examples/second/.rlm-plan, examples/workspace/.rlm-plan; pass --journal DIR\n",
    );
    const named = ws.cli("runs", "show", "1", "--journal", "examples/second/.rlm-plan");
    assert.equal(named.code, 0, named.stderr);
    assert.equal(named.stderr, "rlm-plan: journal examples/second/.rlm-plan/runs.sqlite\n");
    // From inside the workspace, its own journal (above) is the one read; a file outside the
    // current folder is named whole (the core's shownPath, as every message names files).
    const inside = runCli(join(ws.dir, "examples", "second", "plans"), ["runs", "list", "--json"]);
    assert.equal(inside.code, 0, inside.stderr);
    assert.equal(
      inside.stderr,
      `rlm-plan: journal ${join(ws.dir, "examples", "second", ".rlm-plan", "runs.sqlite")}\n`,
    );
  });
});

describe("run numbers are plain decimal", () => {
  const ws = freshClone("runs-ids");

  test("0x4, 1e0, ' 4', 04, +4, 4.0 and 0 are refused by runs show, runs export and run --resume; 1 is run 1", () => {
    assert.equal(ws.cli("run", PLAN).code, 0);
    for (const text of ["0x4", "1e0", " 4", "4 ", "04", "+4", "4.0", "0", "１"]) {
      for (const [command, ...args] of [
        ["runs", "show", text],
        ["runs", "export", text],
      ] as const) {
        const refused = ws.cli(command, ...args);
        assert.equal(refused.code, 2, `${args.join(" ")}: ${refused.stderr}`);
        assert.equal(
          refused.stderr,
          `rlm-plan: runs ${args[0]} needs a run number as rlm-plan runs list shows it (decimal digits: 1, 2, ...), not ${JSON.stringify(text)}\n`,
        );
        assert.equal(refused.stdout, "");
      }
      const resumed = ws.cli("run", "--resume", text);
      assert.equal(resumed.code, 2);
      assert.equal(
        resumed.stderr.split("\n")[0],
        `rlm-plan: --resume needs a run number as rlm-plan runs list shows it (decimal digits: 1, 2, ...), not ${JSON.stringify(text)}`,
      );
    }
    const shown = ws.cli("runs", "show", "1");
    assert.equal(shown.code, 0, shown.stderr);
    assert.match(shown.stdout, /^run 1 /);
    const missing = ws.cli("runs", "show", "4");
    assert.equal(missing.code, 1);
    assert.equal(
      missing.stderr,
      `${JOURNAL_LINE}rlm-plan: there is no run 4 in examples/workspace/.rlm-plan/runs.sqlite\n`,
    );
  });
});
