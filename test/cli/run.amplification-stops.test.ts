// Amplification that outlived its run: a context map over a 100 MB file went on reading and
// building after the run's time limit had ended the run (the process took 7 s more and 300 MB),
// the run journal built the canonical text of a built-in's 600 MB argument list ("Invalid string
// length" after 20 s and 730 MB), and a million-item literal list overflowed the stack while the
// host was set up. Each now ends with its run, or is recorded by its size.

import assert from "node:assert/strict";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { test } from "node:test";
import { ContextStore } from "@rlm-plan/core/context/store";
import type { ContextRunner } from "@rlm-plan/core/run/host";
import { runPlan } from "@rlm-plan/core/run/startRun";
import { builtinTool } from "@rlm-plan/core/host/builtinTools";
import { cliWorkspace } from "../support/cliWorkspace";

const { dir, write, cli } = cliWorkspace("amplification-stops");
const LINES = 400_000;
const file = join(dir, "lines.txt");
writeFileSync(file, "abcdefghij".repeat(5).concat("\n").repeat(LINES));
const MAP = { type: "map", transform: "uppercase" } as const;
const WIDE = { maxResults: 100_000_000, maxBytes: 1_000_000_000 };

test("a map over a file stops reading once the run's signal aborts", async () => {
  const store = new ContextStore();
  const handle = await store.registerTextFile(file);
  const whole = await store.run(handle, MAP, WIDE);
  assert.equal(whole.ok && (whole.value as unknown[]).length, LINES + 1);
  const controller = new AbortController();
  controller.abort();
  const stopped = await store.run(handle, MAP, WIDE, controller.signal);
  assert.deepEqual(stopped.ok ? "it ran to the end" : stopped.error.kind, "stopped");
});

test("a run past its time limit leaves no context operation working behind it", async () => {
  const store = new ContextStore();
  const handle = await store.registerTextFile(file);
  let operation: ReturnType<ContextRunner["run"]> | undefined;
  const contexts: ContextRunner = {
    run: (h, action, options, signal) => (operation = store.run(h, action, options, signal)),
  };
  // The timer's turn comes between two chunks of the file; the map would need all of them.
  const slowTool = () => new Promise<number>((resolve) => setTimeout(() => resolve(1), 300));
  const plan = {
    steps: [
      {
        op: "parallel",
        plans: [
          {
            steps: [
              { op: "context", handle: { ref: "input", name: "file" }, action: MAP, bind: "m" },
              { op: "final", value: 1 },
            ],
          },
          {
            steps: [
              { op: "tool", name: "slow", args: 1, bind: "s" },
              { op: "final", value: 2 },
            ],
          },
        ],
        bind: "both",
      },
      { op: "final", value: { ref: "var", name: "both" } },
    ],
  };
  const outcome = await runPlan(
    { kind: "value", value: plan },
    { capabilities: ["context(map)", "tool(slow)", "parallel"], budget: { time_limit: 0.05 } },
    { inputs: { file: handle }, contexts, contextLimits: WIDE, tools: new Map([["slow", slowTool]]) },
  );
  assert.equal(!outcome.ok && outcome.error.kind, "time_limit_exceeded");
  const left = await operation;
  assert.deepEqual(
    left?.ok ? `${(left.value as unknown[]).length} lines mapped after the run ended` : left?.error.kind,
    "stopped",
  );
});

test("the journal records a built-in's 600 MB argument list by its size, and the run ends on its budget", () => {
  write(
    "rlmplan.host.json",
    JSON.stringify({
      capabilities: ["tool(sort)"],
      budget: { time_limit: 30, max_output_bytes: 100_000_000 },
      inputs: { big: { type: "value", value: "x".repeat(30_000) } },
      tools: { sort: { type: "builtin", builtin: "sort" } },
    }),
  );
  const refs = Array.from({ length: 20_000 }, () => ({ ref: "input", name: "big" }));
  write(
    "sort.rlmplan.json",
    JSON.stringify({
      steps: [
        { op: "tool", name: "sort", args: refs, bind: "s" },
        { op: "final", value: 1 },
      ],
    }),
  );
  const run = cli("run", "sort.rlmplan.json");
  assert.equal(run.code, 1);
  assert.equal(
    run.stderr.split("\n")[1],
    "sort.rlmplan.json:1:11: run failed: a value of 600060001 bytes does not fit the 100000000 output bytes left [execute/budget_exhausted]",
  );
  const shown = cli("runs", "show", "1", "--json");
  assert.equal(shown.code, 0, shown.stderr);
  const calls = (JSON.parse(shown.stdout) as { calls: { request: unknown; replayable: boolean }[] }).calls;
  assert.deepEqual(
    calls.map((c) => [c.request, c.replayable]),
    [[{ kind: "tool", omitted_bytes: 600060043, tool: "sort" }, false]],
  );
});

test("a literal list of a million numbers is sorted, not a stack overflow while the host is set up", async () => {
  const numbers = Array.from({ length: 1_000_000 }, (_, i) => (i * 7919) % 1_000_003);
  const plan = {
    steps: [
      { op: "tool", name: "sort", args: numbers, bind: "s" },
      { op: "final", value: { ref: "var", name: "s" } },
    ],
  };
  const outcome = await runPlan(
    { kind: "value", value: plan },
    { capabilities: ["tool(sort)"], budget: { time_limit: 60, max_output_bytes: 100_000_000 } },
    async () => ({ ok: true, built: { host: { tools: new Map([["sort", builtinTool("sort")]]) } } }),
  );
  assert.ok(outcome.ok, JSON.stringify(!outcome.ok && outcome.error));
  const sorted = outcome.value as number[];
  assert.deepEqual([sorted.length, sorted.slice(0, 3)], [1_000_000, [0, 1, 2]]);
});
