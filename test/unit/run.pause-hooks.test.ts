// The interpreter's pause points for debuggers: beforeStep sees every step in order with its
// path, frames (rlm, parallel branch, retry attempt), bindings, budget and checkpoints; it can
// hold the run, and held time does not count against the time limit unless asked; onStepFailed
// reports a failure once, where it happened; evaluate reads the scope without changing it.

import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { runPlan } from "@rlm-plan/core/run/startRun";
import { type JsonValue } from "@rlm-plan/core";
import { type PlanSource } from "@rlm-plan/core/plan/parse";
import { type RunFrame, type StepPause } from "@rlm-plan/core/run/pause";
import { type RunHost } from "@rlm-plan/core/run/host";

const GRANTED = { capabilities: ["tool(echo)", "tool(flaky)", "rlm", "parallel", "retry", "checkpoint"] };

function source(steps: unknown[]): PlanSource {
  return { kind: "value", value: { steps } };
}

/** The host grants GRANTED with this budget. */
const within = (budget: object) => ({ ...GRANTED, budget });

function host(): RunHost {
  let flakyCalls = 0;
  return {
    tools: new Map([
      ["echo", (args: JsonValue) => args],
      [
        "flaky",
        () => {
          flakyCalls++;
          if (flakyCalls === 1) throw new Error("first call fails");
          return { ok: true };
        },
      ],
    ]),
  };
}

const v = (name: string) => ({ ref: "var", name });
/** Two attempts at the flaky tool, which fails on its first call only. */
const flakyRetry = (bind: string) => ({
  op: "retry",
  attempts: 2,
  plan: {
    steps: [
      { op: "tool", name: "flaky", args: {}, bind: "r" },
      { op: "final", value: v("r") },
    ],
  },
  bind,
});
const frameText = (frames: readonly RunFrame[]) =>
  frames
    .map((f) =>
      f.kind === "branch" ? `branch ${f.branch}` : f.kind === "attempt" ? `attempt ${f.attempt}/${f.attempts}` : f.kind,
    )
    .join(" > ");

describe("beforeStep", () => {
  test("sees each step in order with its path, frames, bindings, budget and checkpoints", async () => {
    const seen: string[] = [];
    const pauses: StepPause[] = [];
    const outcome = await runPlan(
      source([
        { op: "tool", name: "echo", args: { n: 1 }, bind: "a" },
        { op: "checkpoint", label: "one" },
        {
          op: "rlm",
          plan: { steps: [{ op: "final", value: { ref: "field", value: v("a"), key: "n" } }] },
          bind: "b",
        },
        {
          op: "parallel",
          plans: [{ steps: [{ op: "final", value: 1 }] }, { steps: [{ op: "final", value: 2 }] }],
          bind: "c",
        },
        flakyRetry("d"),
        { op: "final", value: [v("b"), v("c")] },
      ]),
      GRANTED,
      host(),
      {
        // The debugger's order: one branch after another (concurrent branches pause interleaved).
        parallel: "sequential",
        beforeStep: (pause) => {
          pauses.push(pause);
          seen.push(
            `${pause.path.join(".")} | ${frameText(pause.frames)} | ${[...pause.bindings.keys()].join(",")} | ${pause.budget.remaining.steps} | ${pause.checkpoints.join(",")}`,
          );
        },
      },
    );
    assert.equal(outcome.ok, true);
    assert.deepEqual(seen, [
      "steps.0 | root |  | 64 | ",
      "steps.1 | root | a | 63 | ",
      "steps.2 | root | a | 62 | one",
      "steps.2.plan.steps.0 | root > rlm | a | 61 | one",
      "steps.3 | root | a,b | 60 | one",
      "steps.3.plans.0.steps.0 | root > branch 0 | a,b | 59 | one",
      "steps.3.plans.1.steps.0 | root > branch 1 | a,b | 58 | one",
      "steps.4 | root | a,b,c | 57 | one",
      "steps.4.plan.steps.0 | root > attempt 1/2 | a,b,c | 56 | one",
      "steps.4.plan.steps.0 | root > attempt 2/2 | a,b,c | 55 | one",
      "steps.4.plan.steps.1 | root > attempt 2/2 | a,b,c,r | 54 | one",
      "steps.5 | root | a,b,c,d | 53 | one",
    ]);
    // The rlm frame names the step that opened it; the pause's bindings are a snapshot.
    assert.deepEqual(pauses[3]?.frames[1], { kind: "rlm", path: ["steps", 2, "plan"], step: ["steps", 2] });
    assert.deepEqual({ ...(pauses[1]?.bindings.get("a") as object) }, { n: 1 });
  });

  test("evaluate reads the scope the step runs in and reports errors as values", async () => {
    const answers: unknown[] = [];
    await runPlan(
      source([
        { op: "tool", name: "echo", args: { n: { m: 7 } }, bind: "a" },
        { op: "final", value: v("a") },
      ]),
      GRANTED,
      host(),
      {
        beforeStep: (pause) => {
          if (pause.path[1] !== 1) return;
          answers.push(
            pause.evaluate({ kind: "field", base: { kind: "var", name: "a", path: [] }, key: "n", path: [] }),
          );
          answers.push(pause.evaluate({ kind: "var", name: "zz", path: [] }));
        },
      },
    );
    assert.deepEqual(JSON.parse(JSON.stringify(answers[0])), { ok: true, value: { m: 7 } });
    assert.deepEqual(answers[1], {
      ok: false,
      error: { phase: "execute", kind: "unbound_variable", variable: "zz", message: 'variable "zz" is not bound' },
    });
  });

  const held = (ms: number) => () => new Promise<void>((resolve) => setTimeout(resolve, ms));
  const twoSteps = source([
    { op: "tool", name: "echo", args: 1, bind: "a" },
    { op: "final", value: v("a") },
  ]);
  const shortTime = within({ time_limit: 0.15 });

  test("time held by a debugger does not count against the time limit by default", async () => {
    const outcome = await runPlan(twoSteps, shortTime, host(), { beforeStep: held(400) });
    assert.equal(outcome.ok, true, JSON.stringify(outcome));
    // The run's clock stopped too: both holds (800 ms) are outside elapsed_ms.
    assert.ok(outcome.transitions.every((t) => t.elapsed_ms < 150));
  });

  test("with countPausedTime the held time counts and the run runs out of time", async () => {
    const outcome = await runPlan(twoSteps, shortTime, host(), { beforeStep: held(400), countPausedTime: true });
    assert.equal(outcome.ok, false);
    assert.equal(!outcome.ok && outcome.error.kind, "time_limit_exceeded");
  });

  test("cancelling ends a held run", async () => {
    const controller = new AbortController();
    const outcome = await runPlan(twoSteps, shortTime, host(), {
      signal: controller.signal,
      beforeStep: () => {
        controller.abort();
        return new Promise<void>(() => undefined);
      },
    });
    assert.equal(!outcome.ok && outcome.error.kind, "cancelled");
  });

  test("a hook that throws changes nothing", async () => {
    const outcome = await runPlan(twoSteps, shortTime, host(), {
      beforeStep: () => {
        throw new Error("listener bug");
      },
    });
    assert.deepEqual(outcome.ok && outcome.value, 1);
  });
});

describe("onStepFailed", () => {
  test("reports a failure once, at the innermost step, with its scope, also when a retry absorbs it", async () => {
    const failures: string[] = [];
    const outcome = await runPlan(
      source([
        {
          op: "rlm",
          plan: {
            steps: [flakyRetry("x"), { op: "final", value: { ref: "field", value: v("x"), key: "nope" } }],
          },
          bind: "y",
        },
        { op: "final", value: v("y") },
      ]),
      GRANTED,
      host(),
      {
        onStepFailed: (pause, error) => {
          failures.push(
            `${error.kind} at ${pause.path.join(".")} in ${frameText(pause.frames)} with ${[...pause.bindings.keys()].join(",")}`,
          );
        },
      },
    );
    assert.equal(!outcome.ok && outcome.error.kind, "missing_field");
    assert.deepEqual(failures, [
      "tool_error at steps.0.plan.steps.0.plan.steps.0 in root > rlm > attempt 1/2 with ",
      "missing_field at steps.0.plan.steps.1 in root > rlm with x",
    ]);
  });

  test("budget exhaustion is a failure of the step that could not start", async () => {
    const failures: string[] = [];
    await runPlan(
      source([
        { op: "tool", name: "echo", args: 1, bind: "a" },
        { op: "tool", name: "echo", args: 2, bind: "b" },
        { op: "final", value: v("b") },
      ]),
      GRANTED,
      host(),
      // The run's own budget (the static check passed with the host's): one tool call only.
      {
        budget: { max_tool_calls: 1 },
        onStepFailed: (pause, error) => void failures.push(`${error.kind} at ${pause.path.join(".")}`),
      },
    );
    assert.deepEqual(failures, ["budget_exhausted at steps.1"]);
  });
});
