// Amplification: small plans that reference one big value many times. The output budget refuses
// a 600 MB final value without building it, with the exact byte count; a tool is not handed
// 600 MB of arguments; sorting 4,000 references to one 12 KB text ends well inside its time
// limit. Memory stays far under 200 MB throughout.

import assert from "node:assert/strict";
import { test } from "node:test";
import { existsSync, mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { builtinTool } from "@rlm-plan/core/host/builtinTools";
import { createCommandTool } from "@rlm-plan/core/host/commandTool";
import { jsonByteLength } from "@rlm-plan/core/run/outputMeasure";
import { runPlan } from "@rlm-plan/core/run/startRun";
import type { RunHost } from "@rlm-plan/core/run/host";

const BIG = "x".repeat(30_000);
const REFS = 20_000;
const refs = (name: string, count: number) => Array.from({ length: count }, () => ({ ref: "input", name }));

function host(extra: Partial<RunHost> = {}): RunHost {
  return {
    inputs: { big: BIG, text: "y".repeat(12_000) },
    tools: new Map([
      ["sort", builtinTool("sort")],
      ["count_items", builtinTool("count_items")],
    ]),
    ...extra,
  };
}

const BUDGET = { max_output_bytes: 1_000_000, time_limit: 3 };

test("a final value of 20,000 references to 30 KB is refused by the output budget, not built", async () => {
  const before = process.memoryUsage().heapUsed;
  const plan = { steps: [{ op: "final", value: refs("big", REFS) }] };
  const outcome = await runPlan({ kind: "value", value: plan }, { capabilities: [], budget: BUDGET }, host());
  assert.equal(outcome.ok, false);
  if (outcome.ok) return;
  assert.equal(outcome.error.kind, "budget_exhausted");
  assert.equal(outcome.error.requested, REFS * (BIG.length + 2) + (REFS - 1) + 2);
  assert.ok(process.memoryUsage().heapUsed - before < 200 * 1024 * 1024);
});

test("a command tool is not started with 600 MB of arguments", async () => {
  const pidFile = join(mkdtempSync(join(tmpdir(), "rlm-plan-amplification-")), "started");
  const started = `require("fs").writeFileSync(${JSON.stringify(pidFile)}, "")`;
  // Outside the sandbox: the tool marks its start in a temporary folder of this test.
  const profile = { file: join(process.cwd(), "rlmplan.host.json"), dir: process.cwd(), sandbox: "off" as const };
  const tool = createCommandTool({ type: "command", command: [process.execPath, "-e", started] }, profile);
  const tools = new Map([["count_items", tool]]);
  const plan = {
    steps: [
      { op: "tool", name: "count_items", args: refs("big", REFS), bind: "n" },
      { op: "final", value: { ref: "var", name: "n" } },
    ],
  };
  const outcome = await runPlan(
    { kind: "value", value: plan },
    { capabilities: ["tool(count_items)"], budget: BUDGET },
    host({ tools }),
  );
  assert.equal(existsSync(pidFile), false, "the tool was started");
  assert.equal(outcome.ok, false);
  if (outcome.ok) return;
  assert.equal(outcome.error.kind, "tool_error");
  assert.equal(
    outcome.error.message,
    `tool "count_items" failed: was not started: its arguments are ${REFS * (BIG.length + 2) + REFS + 1} bytes of JSON, over the limit of 8388608; pass a context handle or a smaller value`,
  );
});

test("sorting 4,000 references to one 12 KB text finishes inside a 3 s time limit", async () => {
  const plan = {
    steps: [
      { op: "tool", name: "sort", args: refs("text", 4_000), bind: "s" },
      { op: "tool", name: "count_items", args: { ref: "var", name: "s" }, bind: "n" },
      { op: "final", value: { ref: "var", name: "n" } },
    ],
  };
  const outcome = await runPlan(
    { kind: "value", value: plan },
    { capabilities: ["tool(sort)", "tool(count_items)"], budget: { max_output_bytes: 100_000_000, time_limit: 3 } },
    host(),
  );
  assert.deepEqual(outcome.ok ? outcome.value : outcome.error, 4_000);
});

test("the measure is JSON.stringify's UTF-8 length, shared parts and all", () => {
  const shared = { é: ["a\u0000", 1.5e300, null, true, "😀"], k: undefined };
  const values: unknown[] = [shared, [shared, shared, [shared]], "", 0, -0, { a: [] }, [undefined, () => 1]];
  for (const value of values)
    assert.equal(jsonByteLength(value), Buffer.byteLength(JSON.stringify(value), "utf8"), JSON.stringify(value));
  assert.equal(jsonByteLength(undefined), undefined);
});

test("a built-in working synchronously past the time limit ends the run with time_limit_exceeded", async () => {
  const plan = {
    steps: [
      { op: "tool", name: "unique", args: refs("big", 50_000), bind: "u" },
      { op: "final", value: { ref: "var", name: "u" } },
    ],
  };
  const outcome = await runPlan(
    { kind: "value", value: plan },
    { capabilities: ["tool(unique)"], budget: { time_limit: 1 } },
    host({ tools: new Map([["unique", builtinTool("unique")]]) }),
  );
  assert.deepEqual(outcome.ok ? outcome.value : outcome.error, {
    phase: "execute",
    kind: "time_limit_exceeded",
    message: "the run exceeded its time limit of 1 s",
    path: ["steps", 0],
  });
});
