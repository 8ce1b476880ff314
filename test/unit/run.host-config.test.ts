// The host's configuration as a run sees it: inputs and context options are checked by
// preflight before anything runs, and each context option when an operation runs, after the
// handle, as the reference does.

import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { ContextStore } from "@rlm-plan/core/context/store";
import { parsePlan } from "@rlm-plan/core/plan/parse";
import { validatePlan, type ValidatedPlan } from "@rlm-plan/core/plan/validate";
import type { RunHost } from "@rlm-plan/core/run/host";
import { executePlan } from "@rlm-plan/core/run/interpreter";
import type { RunOutcome } from "@rlm-plan/core/run/transitions";

function validated(plan: unknown, capabilities: string[]): ValidatedPlan {
  const parsed = parsePlan({ kind: "value", value: plan });
  assert.ok(parsed.plan, JSON.stringify(parsed.problems));
  const result = validatePlan(parsed.plan, { capabilities, budget: "default" });
  assert.ok(result.ok, JSON.stringify(result.problems));
  return result.validated;
}

const SEARCH_INPUT = validated(
  {
    steps: [
      { op: "context", handle: { ref: "input", name: "doc" }, action: { type: "search", pattern: "a" }, bind: "hits" },
      { op: "final", value: { ref: "var", name: "hits" } },
    ],
  },
  ["context(search)"],
);

/** The same search, on a value that is not a handle. */
const SEARCH_LITERAL = validated(
  {
    steps: [
      { op: "context", handle: "not a handle", action: { type: "search", pattern: "a" }, bind: "hits" },
      { op: "final", value: { ref: "var", name: "hits" } },
    ],
  },
  ["context(search)"],
);

function host(overrides: Partial<RunHost>): RunHost {
  const store = new ContextStore();
  return { inputs: { doc: store.registerText("alpha\nbeta") }, contexts: store, ...overrides };
}

function errorOf(outcome: RunOutcome): Record<string, unknown> {
  assert.equal(outcome.ok, false, JSON.stringify(outcome));
  return outcome.ok ? {} : { ...outcome.error };
}

describe("preflight: the host's configuration", () => {
  test("inputs given as null are refused, not taken as no inputs", async () => {
    const outcome = await executePlan(SEARCH_INPUT, host({ inputs: null }));
    const { phase, kind, detail } = errorOf(outcome);
    assert.deepStrictEqual(
      { phase, kind, detail },
      {
        phase: "preflight",
        kind: "invalid_runtime",
        detail: "invalid_field(inputs,null)",
      },
    );
    assert.deepStrictEqual(outcome.transitions, []);
    assert.equal(outcome.budget_remaining.context_ops, 32);
  });

  test("context options that are not an object are refused before anything runs", async () => {
    for (const [options, expected] of [
      [null, "invalid_context_options(null)"],
      ["fast", "invalid_context_options(fast)"],
      [[1], "invalid_context_options([1])"],
      [7, "invalid_context_options(7)"],
    ] as const) {
      const outcome = await executePlan(SEARCH_INPUT, host({ contextLimits: options }));
      const { phase, kind, detail } = errorOf(outcome);
      assert.deepStrictEqual(
        { phase, kind, detail },
        { phase: "preflight", kind: "invalid_runtime", detail: expected },
      );
      assert.equal(outcome.budget_remaining.steps, 64);
    }
  });
});

describe("context options when an operation runs", () => {
  test("a null limit fails the operation with invalid_limit after charging it", async () => {
    for (const options of [{ maxResults: null }, { maxBytes: null }, { timeLimit: null }, { timeLimit: "x" }]) {
      const outcome = await executePlan(SEARCH_INPUT, host({ contextLimits: options }));
      const { phase, kind, cause } = errorOf(outcome);
      assert.deepStrictEqual(
        { phase, kind, cause: { ...(cause as object), message: undefined } },
        {
          phase: "execute",
          kind: "context_error",
          cause: { operation: "options", kind: "invalid_limit", message: undefined },
        },
        JSON.stringify(options),
      );
      assert.deepStrictEqual(outcome.transitions, []);
      assert.equal(outcome.budget_remaining.steps, 63);
      assert.equal(outcome.budget_remaining.context_ops, 31);
    }
  });

  test("a bad handle is reported before bad limits", async () => {
    const outcome = await executePlan(SEARCH_LITERAL, host({ contextLimits: { maxResults: 0, timeLimit: null } }));
    const { kind, cause } = errorOf(outcome);
    assert.equal(kind, "context_error");
    assert.deepStrictEqual(
      [(cause as Record<string, unknown>).operation, (cause as Record<string, unknown>).kind],
      ["resolve", "invalid_handle"],
    );
  });

  test("valid options, and options left out, run the operation", async () => {
    const both = [
      { index: 0, value: "alpha" },
      { index: 1, value: "beta" },
    ];
    for (const [options, value] of [
      [undefined, both],
      [{}, both],
      [{ maxBytes: 64, timeLimit: 0.5 }, both],
      [{ maxResults: 1, maxBytes: 64, timeLimit: 3 }, both.slice(0, 1)],
    ] as const) {
      const outcome = await executePlan(SEARCH_INPUT, host({ contextLimits: options }));
      assert.equal(outcome.ok, true, JSON.stringify(outcome));
      assert.deepStrictEqual(outcome.ok && outcome.value, value);
    }
  });
});
