// Concurrent parallel branches under one shared budget, tested with tools that resolve in an
// order the test scripts (never with timing): results stay in branch order, counters are exact,
// at most max_parallel branches are in flight, the first failing branch cancels its siblings
// (a real tool process tree is killed, nothing is left behind), and cancelling the whole run
// mid-parallel ends it. Sequential mode keeps the reference's order.

import assert from "node:assert/strict";
import { existsSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { after, describe, test } from "node:test";
import { startRun } from "@rlm-plan/core/run/startRun";
import { type JsonValue, type RunEvent } from "@rlm-plan/core";
import { type RunHost, type ToolHandler } from "@rlm-plan/core/run/host";
import { type StartRunOptions } from "@rlm-plan/core/run/runContract";
import { createCommandTool, ProcessTracker } from "@rlm-plan/core/host";
import { processState } from "@rlm-plan/core/host/processGroup";
import { createOpenAIChatProvider } from "@rlm-plan/core/providers/openaiChat";
import { startChatServer } from "../support/chatServer";

const ROOT = resolve(__dirname, "..", "..", "..");
const TOOLS = join(ROOT, "test", "fixtures", "tools");
const dir = mkdtempSync(join(tmpdir(), "rlm-plan-parallel-"));
after(() => rmSync(dir, { recursive: true, force: true }));

/** A tool whose calls wait until the test releases them, by the `id` in their arguments. */
class Gate {
  readonly started: number[] = [];
  readonly aborted: number[] = [];
  private readonly waiting = new Map<number, (value: JsonValue) => void>();
  private readonly onStart: (() => void)[] = [];

  readonly tool: ToolHandler = (args, context) => {
    const id = (args as { id: number }).id;
    this.started.push(id);
    context.signal.addEventListener("abort", () => this.aborted.push(id), { once: true });
    this.onStart.splice(0).forEach((wake) => wake());
    return new Promise<JsonValue>((resolvePromise) => this.waiting.set(id, resolvePromise));
  };

  /** Completes call `id`, then lets the run go as far as it can before the next event. */
  async release(id: number, value: JsonValue = id): Promise<void> {
    const resolvePromise = this.waiting.get(id);
    assert.ok(resolvePromise, `call ${id} is not waiting (started: ${this.started.join(", ")})`);
    this.waiting.delete(id);
    resolvePromise(value);
    await new Promise((wake) => setImmediate(wake));
  }

  /** Resolves once `count` calls have started (checked after each start, so never by time). */
  async startedCount(count: number): Promise<void> {
    while (this.started.length < count) await new Promise<void>((wake) => this.onStart.push(wake));
    // Let the interpreter's own continuations run too.
    await new Promise((wake) => setImmediate(wake));
  }
}

const toolStep = (id: number, bind = "r") => ({ op: "tool", name: "t", args: { id }, bind });
const branch = (id: number) => ({ steps: [toolStep(id), { op: "final", value: { ref: "var", name: "r" } }] });
const parallelPlan = (ids: number[]) => ({
  steps: [
    { op: "parallel", plans: ids.map(branch), bind: "all" },
    { op: "final", value: { ref: "var", name: "all" } },
  ],
});
/** Two branches: `step` in the first, a tool "boom" (which fails when the test says) in the second. */
const beside = (step: object) => ({
  steps: [
    {
      op: "parallel",
      plans: [
        { steps: [step, { op: "final", value: 1 }] },
        {
          steps: [
            { op: "tool", name: "boom", args: {}, bind: "y" },
            { op: "final", value: 2 },
          ],
        },
      ],
      bind: "all",
    },
    { op: "final", value: { ref: "var", name: "all" } },
  ],
});
const POLICY = { capabilities: ["tool(t)", "tool(boom)", "parallel"], budget: "default" };

function start(plan: unknown, host: RunHost, options: Partial<StartRunOptions> = {}) {
  return startRun({ source: { kind: "value", value: plan }, policy: POLICY, host, ...options });
}

describe("parallel: concurrent branches", () => {
  test("calls overlap; results are in branch order whatever order they complete in", async () => {
    const gate = new Gate();
    const run = start(parallelPlan([0, 1, 2]), { tools: new Map([["t", gate.tool]]) });
    await gate.startedCount(3);
    assert.deepEqual(gate.started, [0, 1, 2], "all three are in flight before any completes");
    await gate.release(2, "two");
    await gate.release(0, "zero");
    await gate.release(1, "one");
    const { outcome } = await run.done;
    assert.ok(outcome.ok);
    assert.deepEqual(outcome.value, ["zero", "one", "two"]);
    // Transitions are in completion order; the list has the reference's fields only.
    assert.deepEqual(
      outcome.transitions.map((t) => [t.sequence, t.operation, t.bind]),
      [
        [1, "tool(t)", "r"],
        [2, "final", null],
        [3, "tool(t)", "r"],
        [4, "final", null],
        [5, "tool(t)", "r"],
        [6, "final", null],
        [7, "parallel", "all"],
        [8, "final", null],
      ],
    );
    assert.deepEqual(outcome.budget_remaining, {
      steps: 56,
      model_calls: 8,
      tool_calls: 13,
      context_ops: 32,
      // Each branch binds and returns its value; the list is bound and returned once more.
      output_bytes: 65536 - 2 * '"two""zero""one"'.length - 2 * '["zero","one","two"]'.length,
    });
  });

  test("events name each branch's step by its path", async () => {
    const gate = new Gate();
    const events: RunEvent[] = [];
    const run = start(
      parallelPlan([0, 1]),
      { tools: new Map([["t", gate.tool]]) },
      {
        observers: [{ event: (e) => events.push(e) }],
      },
    );
    await gate.startedCount(2);
    await gate.release(1);
    await gate.release(0);
    assert.ok((await run.done).outcome.ok);
    const finished = events.filter((e) => e.type === "step_finished").map((e) => e.path.join("/"));
    assert.deepEqual(finished, [
      "steps/0/plans/1/steps/0",
      "steps/0/plans/1/steps/1",
      "steps/0/plans/0/steps/0",
      "steps/0/plans/0/steps/1",
      "steps/0",
      "steps/1",
    ]);
  });

  test("no more than max_parallel branches in flight: the next starts when one ends", async () => {
    const gate = new Gate();
    const run = start(parallelPlan([0, 1, 2]), { tools: new Map([["t", gate.tool]]) }, { budget: { max_parallel: 2 } });
    await gate.startedCount(2);
    assert.deepEqual(gate.started, [0, 1]);
    await gate.release(1);
    await gate.startedCount(3);
    assert.deepEqual(gate.started, [0, 1, 2]);
    await gate.release(2);
    await gate.release(0);
    const { outcome } = await run.done;
    assert.ok(outcome.ok);
    assert.deepEqual(outcome.value, [0, 1, 2]);
  });

  test("a shared budget is exact: the branch that finds it spent fails, the others are cancelled", async () => {
    const gate = new Gate();
    const events: RunEvent[] = [];
    const run = start(
      parallelPlan([0, 1, 2, 3]),
      { tools: new Map([["t", gate.tool]]) },
      { budget: { max_tool_calls: 3 }, observers: [{ event: (e) => events.push(e) }] },
    );
    const { outcome } = await run.done;
    assert.deepEqual(gate.started, [0, 1, 2], "three calls were made; the fourth never reached the tool");
    assert.deepEqual(gate.aborted.sort(), [0, 1, 2], "the failing branch cancelled the three in flight");
    assert.ok(!outcome.ok);
    assert.deepEqual(outcome.error, {
      phase: "execute",
      kind: "budget_exhausted",
      budget: "tool_calls",
      message: "the run used up its tool calls budget",
      path: ["steps", 0, "plans", 3, "steps", 0],
    });
    assert.equal(outcome.budget_remaining.tool_calls, 0);
    assert.equal(outcome.budget_remaining.steps, 64 - 1 - 4);
    assert.deepEqual(outcome.transitions, []);
    const failed = events.filter((e) => e.type === "step_failed").map((e) => [e.path.join("/"), e.error.kind]);
    assert.deepEqual(failed.slice(0, 2), [
      ["steps/0/plans/3/steps/0", "budget_exhausted"],
      ["steps/0/plans/0/steps/0", "cancelled"],
    ]);
    assert.deepEqual(failed[failed.length - 1], ["steps/0", "budget_exhausted"]);
  });

  test("a failing branch kills a sibling's tool process tree before the step fails", async () => {
    const tracker = new ProcessTracker();
    const pidFile = join(dir, "tree.pid");
    // Outside the sandbox: the test follows the tree by the host pids it writes.
    const host = { file: join(dir, "rlmplan.host.json"), dir, sandbox: "off" as const };
    const tree = createCommandTool({ type: "command", command: [process.execPath, join(TOOLS, "tree.js")] }, host, {
      tracker,
    });
    // Fails once the sibling's process tree is up (it writes its pids), so the order is scripted.
    const boom: ToolHandler = async () => {
      while (!existsSync(pidFile)) await new Promise((wake) => setTimeout(wake, 10));
      throw new Error("boom");
    };
    const plan = beside({ op: "tool", name: "t", args: { pidFile }, bind: "x" });
    try {
      const { outcome } = await start(plan, {
        tools: new Map([
          ["t", tree],
          ["boom", boom],
        ]),
      }).done;
      assert.ok(!outcome.ok);
      assert.deepEqual(
        [outcome.error.kind, outcome.error.tool, outcome.error.path],
        ["tool_error", "boom", ["steps", 0, "plans", 1, "steps", 0]],
      );
      const pids = JSON.parse(readFileSync(pidFile, "utf8")) as { child: number; grandchild: number };
      // No waiting here: the step failed only after the sibling's whole process group was gone.
      // (a killed process its dead parent left may stay a zombie until init reaps it: not running).
      assert.deepEqual(
        [pids.child, pids.grandchild].map((pid) => processState(pid) !== "running"),
        [true, true],
      );
    } finally {
      await tracker.closeAll();
    }
  });

  test("a failing branch aborts a sibling's HTTP request to its provider", async () => {
    let arrived!: () => void;
    const requestArrived = new Promise<void>((wake) => (arrived = wake));
    const server = await startChatServer([
      {
        kind: "dynamic",
        answer: () => {
          arrived();
          return { kind: "slow", delayMs: 60_000, then: { kind: "ok", text: "too late" } };
        },
      },
    ]);
    try {
      const provider = createOpenAIChatProvider({ type: "openai-chat", baseUrl: server.baseUrl, model: "m" }, {});
      const boom: ToolHandler = async () => {
        await requestArrived;
        throw new Error("boom");
      };
      const plan = beside({ op: "model", provider: "p", prompt: "hi", bind: "x" });
      const { outcome } = await startRun({
        source: { kind: "value", value: plan },
        policy: { capabilities: ["model(p)", "tool(boom)", "parallel"] },
        host: { tools: new Map([["boom", boom]]), providers: new Map([["p", provider]]) },
      }).done;
      assert.ok(!outcome.ok);
      assert.deepEqual([outcome.error.kind, outcome.error.tool], ["tool_error", "boom"]);
      // The server learns of the aborted request when its socket closes; wait for that event.
      while (server.abandoned() === 0) await new Promise((wake) => setTimeout(wake, 10));
      assert.equal(server.abandoned(), 1);
      assert.equal(server.requests.length, 1);
    } finally {
      await server.close();
    }
  });

  test("cancelling the run mid-parallel ends every branch with kind cancelled", async () => {
    const gate = new Gate();
    const controller = new AbortController();
    const run = start(parallelPlan([0, 1]), { tools: new Map([["t", gate.tool]]) }, { signal: controller.signal });
    await gate.startedCount(2);
    controller.abort();
    const { outcome } = await run.done;
    assert.ok(!outcome.ok);
    assert.deepEqual([outcome.error.kind, outcome.error.message], ["cancelled", "the run was cancelled"]);
    assert.deepEqual(gate.aborted.sort(), [0, 1]);
    assert.deepEqual(outcome.transitions, []);
  });
});

describe("parallel: sequential mode (the reference's order)", () => {
  test("one branch at a time, in order", async () => {
    const gate = new Gate();
    const run = start(parallelPlan([0, 1]), { tools: new Map([["t", gate.tool]]) }, { parallel: "sequential" });
    await gate.startedCount(1);
    assert.deepEqual(gate.started, [0]);
    await gate.release(0);
    await gate.startedCount(2);
    await gate.release(1);
    const { outcome } = await run.done;
    assert.ok(outcome.ok);
    assert.deepEqual(
      outcome.transitions.map((t) => t.operation),
      ["tool(t)", "final", "tool(t)", "final", "parallel", "final"],
    );
  });
});
