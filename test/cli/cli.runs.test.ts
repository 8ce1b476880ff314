// `rlm-plan runs` after real `rlm-plan run` processes: every run is recorded by default (and not
// with --no-journal), `list` with its filters and --json, `show`, `export`, `prune`; two runs
// writing the same journal at once lose nothing.

import assert from "node:assert/strict";
import { spawn } from "node:child_process";
import { existsSync } from "node:fs";
import { join } from "node:path";
import { describe, test } from "node:test";
import { childOutput } from "../support/childOutput";
import { CLI, cliWorkspace } from "../support/cliWorkspace";

const ws = cliWorkspace("runs");
ws.write(
  "rlmplan.host.json",
  JSON.stringify({
    capabilities: ["tool(count_items)", "checkpoint"],
    budget: { max_steps: 100, max_tool_calls: 60 },
    tools: { count_items: { type: "builtin", builtin: "count_items" } },
  }),
);
ws.write(
  "plans/count.rlmplan.json",
  JSON.stringify({
    steps: [
      { op: "tool", name: "count_items", args: [1, 2, 3], bind: "n" },
      { op: "final", value: { ref: "var", name: "n" } },
    ],
  }),
);
ws.write("plans/broken.rlmplan.json", JSON.stringify({ steps: [{ op: "tool", name: "nope", args: 1, bind: "x" }] }));
// Forty steps: two of these at once interleave their writes.
ws.write(
  "plans/long.rlmplan.json",
  JSON.stringify({
    steps: [
      ...Array.from({ length: 39 }, (_, i) => ({ op: "tool", name: "count_items", args: [i], bind: `v${i}` })),
      { op: "final", value: { ref: "var", name: "v38" } },
    ],
  }),
);

function cliAsync(...args: string[]) {
  const child = spawn(process.execPath, [CLI, ...args], {
    cwd: ws.dir,
    env: { ...process.env, NO_COLOR: "1" },
    stdio: ["ignore", "pipe", "pipe"],
  });
  return childOutput(child);
}

describe("rlm-plan runs", () => {
  test("a run is recorded and listed; show and export tell it whole; filters; prune", () => {
    const ran = ws.cli("run", "plans/count.rlmplan.json");
    assert.equal(ran.code, 0, ran.stderr);
    assert.equal(ran.stdout, "3\n");
    assert.match(ran.stderr, /\nrlm-plan: recorded as run 1 in \.rlm-plan \(rlm-plan runs show 1\)\n$/);
    assert.equal(existsSync(join(ws.dir, ".rlm-plan", ".gitignore")), true);

    const failed = ws.cli("run", "--json", "plans/broken.rlmplan.json");
    assert.equal(failed.code, 1);
    assert.equal((JSON.parse(failed.stdout.trim().split("\n").pop() as string) as { run: number }).run, 2);

    const listed = ws.cli("runs", "list");
    assert.equal(listed.code, 0, listed.stderr);
    const rows = listed.stdout.trimEnd().split("\n");
    assert.match(rows[0] ?? "", /^RUN {2}STATUS {2}STARTED +TIME {2}PLAN {17}ERROR {9}FROM$/);
    assert.match(
      rows[1] ?? "",
      /^ {2}2 {2}failed {2}\d{4}-\d\d-\d\d \d\d:\d\d:\d\dZ +\d+ ms {2}broken\.rlmplan\.json {2}invalid_plan {2}cli$/,
    );
    assert.match(
      rows[2] ?? "",
      /^ {2}1 {2}ok {6}\d{4}-\d\d-\d\d \d\d:\d\d:\d\dZ +\d+ ms {2}count\.rlmplan\.json {17}cli$/,
    );
    assert.equal(rows.length, 3);

    const json = JSON.parse(ws.cli("runs", "list", "--json", "--status", "ok").stdout) as Record<string, unknown>[];
    assert.deepEqual(
      json.map((r) => [r["id"], r["status"], r["plan"], r["origin"], r["segments"], r["mocked"]]),
      [[1, "ok", "count.rlmplan.json", "cli", 1, false]],
    );
    const byPlan = JSON.parse(ws.cli("runs", "list", "--json", "--plan", "plans/broken.rlmplan.json").stdout) as {
      id: number;
    }[];
    assert.deepEqual(
      byPlan.map((r) => r.id),
      [2],
    );
    const since = JSON.parse(ws.cli("runs", "list", "--json", "--since", "2099-01-01").stdout) as unknown[];
    assert.deepEqual(since, []);

    const shown = ws.cli("runs", "show", "1");
    assert.equal(shown.code, 0, shown.stderr);
    const text = shown.stdout.replace(/ +\d+ ms/g, " N ms");
    assert.match(text, /^run 1 {2}ok {2}from cli\n/);
    // Each transition ends with its step's path, as run --from --step takes it.
    assert.match(
      text,
      /\ntransitions:\n {2}1 {2}tool\(count_items\) {2}-> n {2}ok N ms {2}steps\/0\n {2}2 {2}final {20}ok N ms {2}steps\/1\n/,
    );
    assert.match(text, /\nvalue: 3\n/);
    assert.ok(
      text.includes(
        [
          "              spent  estimate (worst case)  budget",
          "  steps           2                      2     100",
          "  model calls     0                      0       8",
          "  tool calls      1                      1      60",
          "  context ops     0                      0      32",
        ].join("\n"),
      ),
      text,
    );
    assert.match(text, /\ncalls: 0 model, 1 tool/);

    const exported = JSON.parse(ws.cli("runs", "export", "1").stdout) as Record<string, unknown>;
    assert.equal(exported["status"], "ok");
    assert.deepEqual(
      (exported["calls"] as Record<string, unknown>[]).map((c) => [c["kind"], c["name"], c["request"], c["reply"]]),
      [["tool", "count_items", { arguments: [1, 2, 3], kind: "tool", tool: "count_items" }, 3]],
    );
    assert.equal((exported["events"] as unknown[]).length, 6);
    assert.match(String(exported["planText"]), /count_items/);

    const missing = ws.cli("runs", "show", "99");
    assert.equal(missing.code, 1);
    assert.equal(
      missing.stderr,
      "rlm-plan: journal .rlm-plan/runs.sqlite\nrlm-plan: there is no run 99 in .rlm-plan/runs.sqlite\n",
    );

    const pruned = ws.cli("runs", "prune", "--keep", "1");
    assert.equal(pruned.stderr, "rlm-plan: journal .rlm-plan/runs.sqlite\nrlm-plan: pruned 1 run\n");
    assert.deepEqual(
      (JSON.parse(ws.cli("runs", "list", "--json").stdout) as { id: number }[]).map((r) => r.id),
      [2],
    );
  });

  test("--no-journal records nothing; usage errors are said", () => {
    const other = cliWorkspace("runs-off");
    other.write("rlmplan.host.json", JSON.stringify({ capabilities: [] }));
    other.write("p.rlmplan.json", JSON.stringify({ steps: [{ op: "final", value: 1 }] }));
    const ran = other.cli("run", "--no-journal", "p.rlmplan.json");
    assert.equal(ran.code, 0, ran.stderr);
    assert.doesNotMatch(ran.stderr, /recorded/);
    assert.equal(existsSync(join(other.dir, ".rlm-plan")), false);
    assert.equal(
      other.cli("runs", "list").stderr,
      "rlm-plan: journal .rlm-plan/runs.sqlite\nrlm-plan: no runs recorded in .rlm-plan yet\n",
    );
    const bad = other.cli("runs", "list", "--status", "weird");
    assert.equal(bad.code, 2);
    assert.equal(bad.stderr, "rlm-plan: --status needs one of running, interrupted, waiting, ok, failed, cancelled\n");
    assert.equal(other.cli("runs", "show").code, 2);
  });

  test("two runs writing the journal at once: both recorded whole", async () => {
    const [a, b] = await Promise.all([
      cliAsync("run", "--json", "plans/long.rlmplan.json"),
      cliAsync("run", "--json", "plans/long.rlmplan.json"),
    ]);
    assert.equal(a.code, 0, a.stderr);
    assert.equal(b.code, 0, b.stderr);
    const ids = [a, b].map((r) => (JSON.parse(r.stdout.trim().split("\n").pop() as string) as { run: number }).run);
    assert.notEqual(ids[0], ids[1]);
    for (const id of ids) {
      const run = JSON.parse(ws.cli("runs", "export", String(id)).stdout) as {
        status: string;
        events: unknown[];
        calls: unknown[];
      };
      assert.equal(run.status, "ok");
      assert.equal(run.events.length, 40 * 3);
      assert.equal(run.calls.length, 39);
    }
  });
});
