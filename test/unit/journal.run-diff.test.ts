// The core of `rlm-plan runs diff` (journal/runDiff.ts) on journal entries built by hand: values
// compared as canonical JSON (key order never a difference, timing never one), retry attempts and
// parallel branches as the path taken, the first divergence in execution order, steps added and
// removed between plan versions placed where they ran, and a resumed run read by its last segment.

import assert from "node:assert/strict";
import { createHash } from "node:crypto";
import { describe, test } from "node:test";
import type { JsonObject, JsonValue } from "@rlm-plan/core/json";
import type { RecordedCall, RecordedEvent, RunDetail } from "@rlm-plan/core/journal/queries";
import { diffRuns } from "@rlm-plan/core/journal/runDiff";
import { valueSummary } from "@rlm-plan/core/journal/recordedSteps";

const sha = (text: string) => createHash("sha256").update(text).digest("hex");

const tool = (name: string, bind: string) => ({ op: "tool", name, args: {}, bind });
const FINAL = { op: "final", value: 1 };

type Happening = readonly [type: string, path: (string | number)[], operation?: string, extra?: JsonObject];

/** A run as runDetail reads it: its plan, its events (in order), its calls, its value. */
function entry(
  id: number,
  plan: object,
  happenings: readonly Happening[],
  calls: readonly Partial<RecordedCall>[] = [],
  details: JsonObject = { value: 1 },
  segmentOf: (seq: number) => number = () => 1,
): RunDetail {
  const operations = new Map<string, string>();
  const events: RecordedEvent[] = happenings.map(([type, path, operation, extra], i) => {
    const key = JSON.stringify(path);
    if (operation) operations.set(key, operation);
    const event: JsonObject = {
      type,
      path,
      operation: operations.get(key) ?? "final",
      bind: null,
      depth: 1,
      elapsed_ms: i * 7,
      ...(type === "step_started" ? {} : { duration_ms: 3 + id }),
      ...(type === "step_failed" || type === "attempt_failed"
        ? { error: { phase: "execute", kind: "tool_error", message: "down" } }
        : {}),
      ...extra,
    };
    return { seq: i + 1, segment: segmentOf(i + 1), replayed: false, event };
  });
  return {
    id,
    uid: `u${id}`,
    origin: "cli",
    label: null,
    plan: "p.rlmplan.json",
    planFile: "/w/p.rlmplan.json",
    status: "error" in details ? "failed" : "ok",
    stage: "execute",
    errorKind: null,
    startedAt: "2026-12-05T00:00:00.000Z",
    endedAt: "2026-12-05T00:00:01.000Z",
    elapsedMs: 100 * id,
    segments: 1,
    mocked: false,
    planDigest: sha(JSON.stringify(plan)),
    planText: JSON.stringify(plan, null, 2),
    hostFile: null,
    hostDigest: null,
    hostText: null,
    pid: 1,
    machine: "m",
    forkOf: null,
    forks: [],
    details,
    events,
    calls: calls.map((c, i) => ({
      seq: i + 1,
      segment: 1,
      kind: "tool",
      name: "t",
      model: null,
      path: ["steps", 0],
      occurrence: 1,
      key: "k",
      request: {},
      status: "ok",
      replayable: true,
      elapsedMs: 0,
      durationMs: i,
      ...c,
    })),
  };
}

/** The events of a step that ran and ended ok. */
const ok = (path: (string | number)[], operation: string): Happening[] => [
  ["step_started", path, operation],
  ["step_finished", path],
];

describe("runs diff, the core", () => {
  test("a value is its canonical JSON: key order is never a difference, nor is time", () => {
    const plan = { steps: [tool("t", "a"), FINAL] };
    const events = [...ok(["steps", 0], "tool(t)"), ...ok(["steps", 1], "final")];
    const a = entry(1, plan, events, [{ reply: { x: 1, y: [2, { b: 1, a: 2 }] } }]);
    const b = entry(2, plan, events, [{ reply: { y: [2, { a: 2, b: 1 }], x: 1 } }]);
    const diff = diffRuns(a, b);
    assert.equal(diff.agree, true);
    assert.equal(diff.firstDivergence, null);
    assert.deepEqual(diff.summary, { steps: 2, same: 2, changed: 0, added: 0, removed: 0 });
    const canonical = '{"x":1,"y":[2,{"a":2,"b":1}]}';
    assert.deepEqual(diff.steps[0]?.a?.value, { sha256: sha(canonical), preview: canonical });
    assert.notEqual(diff.steps[0]?.a?.durationMs, diff.steps[0]?.b?.durationMs);
  });

  test("a preview is the canonical text's first 40 characters", () => {
    const long = "x".repeat(50);
    assert.deepEqual(valueSummary({ s: long }), {
      sha256: sha(`{"s":"${long}"}`),
      preview: `{"s":"${"x".repeat(34)}…`,
    });
  });

  test("retry attempts and parallel branches are the path taken", () => {
    const plan = {
      steps: [
        { op: "retry", attempts: 2, plan: { steps: [tool("t", "a"), FINAL] }, bind: "r" },
        { op: "parallel", plans: [{ steps: [FINAL] }, { steps: [FINAL] }], bind: "p" },
        FINAL,
      ],
    };
    const inner = ["steps", 0, "plan", "steps", 0];
    const branch = (i: number) => ["steps", 1, "plans", i, "steps", 0];
    const once: Happening[] = [
      ["step_started", ["steps", 0], "retry"],
      ...ok(inner, "tool(t)"),
      ["step_finished", ["steps", 0]],
    ];
    const twice: Happening[] = [
      ["step_started", ["steps", 0], "retry"],
      ["step_started", inner, "tool(t)"],
      ["step_failed", inner],
      ["attempt_failed", ["steps", 0]],
      ...ok(inner, "tool(t)"),
      ["step_finished", ["steps", 0]],
    ];
    const parallel = (branches: number[]): Happening[] => [
      ["step_started", ["steps", 1], "parallel"],
      ...branches.flatMap((i) => ok(branch(i), "final")),
      ["step_finished", ["steps", 1]],
      ...ok(["steps", 2], "final"),
    ];
    const a = entry(1, plan, [...once, ...parallel([1, 0])]);
    const b = entry(2, plan, [...twice, ...parallel([1])]);
    const diff = diffRuns(a, b);
    assert.deepEqual(
      diff.steps.map((s) => [s.pointer, s.change, s.differs]),
      [
        ["/steps/0", "changed", ["attempts"]],
        ["/steps/0/plan/steps/0", "changed", ["attempts"]],
        ["/steps/1", "changed", ["branches"]],
        // A's order: branch 1 started first.
        ["/steps/1/plans/1/steps/0", "same", []],
        ["/steps/1/plans/0/steps/0", "changed", ["status"]],
        ["/steps/2", "same", []],
      ],
    );
    const retryA = diff.steps[0]?.a;
    const retryB = diff.steps[0]?.b;
    assert.deepEqual(
      [retryA?.attempts, retryA?.failedAttempts, retryB?.attempts, retryB?.failedAttempts],
      [1, 0, 1, 1],
    );
    assert.deepEqual([diff.steps[1]?.a?.attempts, diff.steps[1]?.b?.attempts], [1, 2]);
    assert.deepEqual([diff.steps[2]?.a?.branches, diff.steps[2]?.b?.branches], [[0, 1], [1]]);
    assert.equal(diff.steps[4]?.b?.status, "not run");
    // The retry differs because the step in it did: the innermost is where the runs went apart.
    assert.equal(diff.firstDivergence?.pointer, "/steps/0/plan/steps/0");
    assert.equal(diff.agree, false);
  });

  test("the first divergence is the first step in execution order, not in plan order", () => {
    const plan = { steps: [{ op: "parallel", plans: [{ steps: [FINAL] }, { steps: [FINAL] }], bind: "p" }, FINAL] };
    const branch = (i: number) => ["steps", 0, "plans", i, "steps", 0];
    const run = (failing: number): Happening[] => [
      ["step_started", ["steps", 0], "parallel"],
      ...ok(branch(1), "final"),
      ["step_started", branch(0), "final"],
      failing === 0 ? ["step_failed", branch(0)] : ["step_finished", branch(0)],
      ["step_finished", ["steps", 0]],
      ...ok(["steps", 1], "final"),
    ];
    const diff = diffRuns(entry(1, plan, run(-1)), entry(2, plan, run(0)));
    assert.equal(diff.firstDivergence?.pointer, "/steps/0/plans/0/steps/0");
    assert.deepEqual(diff.firstDivergence?.differs, ["status", "error"]);
    assert.deepEqual(diff.firstDivergence?.b?.error, { phase: "execute", kind: "tool_error", message: "down" });
  });

  test("a step in one plan version only is added or removed, placed where it ran", () => {
    const before = { steps: [tool("t", "a"), FINAL] };
    const after = { steps: [tool("t", "a"), tool("u", "b"), FINAL] };
    const a = entry(1, before, [...ok(["steps", 0], "tool(t)"), ...ok(["steps", 1], "final")]);
    const b = entry(2, after, [
      ...ok(["steps", 0], "tool(t)"),
      ...ok(["steps", 1], "tool(u)"),
      ...ok(["steps", 2], "final"),
    ]);
    const diff = diffRuns(a, b);
    assert.equal(diff.samePlan, false);
    assert.deepEqual(
      diff.steps.map((s) => [s.pointer, s.change, s.differs]),
      [
        ["/steps/0", "same", []],
        // A's root final (the run's value) against B's tool step (no call recorded: no value).
        ["/steps/1", "changed", ["operation", "value"]],
        ["/steps/2", "added", []],
      ],
    );
    assert.deepEqual(diff.summary, { steps: 3, same: 1, changed: 1, added: 1, removed: 0 });
    assert.equal(diff.firstDivergence?.pointer, "/steps/1");
    // Its place in B's plan text (pretty-printed: the third step opens on line 15).
    assert.deepEqual([diff.steps[2]?.b?.line, diff.steps[2]?.b?.column], [15, 5]);
    const back = diffRuns(b, a);
    assert.deepEqual(
      back.steps.map((s) => [s.pointer, s.change]),
      [
        ["/steps/0", "same"],
        ["/steps/1", "changed"],
        ["/steps/2", "removed"],
      ],
    );
  });

  test("the calls: names and counts, failures, and requests that differ under the same name", () => {
    const plan = { steps: [tool("t", "a"), FINAL] };
    const events = [...ok(["steps", 0], "tool(t)"), ...ok(["steps", 1], "final")];
    const a = entry(1, plan, events, [{ key: "k1", reply: 1 }]);
    const b = entry(2, plan, events, [{ key: "k2", reply: 1 }]);
    const diff = diffRuns(a, b);
    assert.deepEqual(diff.firstDivergence?.differs, ["calls"]);
    assert.deepEqual(diff.firstDivergence?.a?.calls, [{ kind: "tool", name: "t", model: null, count: 1, failed: 0 }]);
    assert.deepEqual([diff.firstDivergence?.a?.requests, diff.firstDivergence?.b?.requests], [["k1"], ["k2"]]);
  });

  test("the runs' ends: the same steps but another error is still a difference", () => {
    const plan = { steps: [FINAL] };
    const events = ok(["steps", 0], "final");
    const error = (message: string): JsonObject => ({ error: { phase: "execute", kind: "k", message } as JsonValue });
    const diff = diffRuns(entry(1, plan, events, [], error("one")), entry(2, plan, events, [], error("two")));
    assert.equal(diff.firstDivergence, null);
    assert.equal(diff.agree, false);
    assert.deepEqual(diff.b.error, { phase: "execute", kind: "k", message: "two" });
  });

  test("a resumed run is read by its last segment, which replays the earlier one", () => {
    const plan = { steps: [tool("t", "a"), FINAL] };
    const first: Happening[] = [
      ["step_started", ["steps", 0], "tool(t)"],
      ["step_failed", ["steps", 0]],
    ];
    const whole = [...ok(["steps", 0], "tool(t)"), ...ok(["steps", 1], "final")];
    const resumed = entry(1, plan, [...first, ...whole], [], { value: 1 }, (seq) => (seq <= 2 ? 1 : 2));
    const diff = diffRuns(resumed, entry(2, plan, whole));
    assert.equal(diff.agree, true);
    assert.equal(diff.steps[0]?.a?.attempts, 1);
  });
});
