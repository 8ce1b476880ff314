// Approval rules (docs/approvals.md): which calls a rule holds (by tool, provider or capability,
// narrowed by a pointer's value or a schema; the first rule wins), the profile's located errors
// for rules that cannot work, and the static forecast: the steps that can need approval and the
// worst-case count on three plans (retry, parallel, nested), by the cost rule's multiplicities.

import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { parseHostProfile, type HostProfileError } from "@rlm-plan/core/host";
import { approvalRuleFor, type ApprovalRule } from "@rlm-plan/core/host/approvalRules";
import { approvalForecast, approvalStepText } from "@rlm-plan/core/host/approvalSteps";
import { estimatePlan } from "@rlm-plan/core/plan/estimate";
import { worstCaseRuns } from "@rlm-plan/core/plan/estimate";
import { parsePlan } from "@rlm-plan/core/plan/parse";
import type { Plan } from "@rlm-plan/core/plan/ast";
import { DEFAULT_BUDGET } from "@rlm-plan/core/plan/budget";

const base = { approvers: ["alice"], timeout: 60 };

describe("approval rules: matching", () => {
  const rules: ApprovalRule[] = [
    { ...base, tool: "refund", when: { schema: { properties: { amount: { minimum: 100 } }, required: ["amount"] } } },
    { ...base, tool: "email", when: { pointer: "/to/0", equals: "ceo@example.com" } },
    { ...base, provider: "gpt" },
    { ...base, capability: "tool(merge)" },
    { ...base, tool: "refund" },
  ];
  const index = (kind: "tool" | "model", name: string, args: unknown) =>
    approvalRuleFor(rules, { kind, name, arguments: args as never, cost: kind === "tool" ? 0 : undefined })?.index;

  test("a schema condition, else the next rule naming the tool", () => {
    assert.equal(index("tool", "refund", { amount: 150 }), 0);
    assert.equal(index("tool", "refund", { amount: 50 }), 4);
  });
  test("a pointer's value, compared as JSON; a missing pointer does not match", () => {
    assert.equal(index("tool", "email", { to: ["ceo@example.com"] }), 1);
    assert.equal(index("tool", "email", { to: ["dev@example.com"] }), undefined);
    assert.equal(index("tool", "email", {}), undefined);
  });
  test("a provider and a capability", () => {
    assert.equal(index("model", "gpt", { prompt: "hi" }), 2);
    assert.equal(index("tool", "gpt", {}), undefined);
    assert.equal(index("tool", "merge", { pr: 7 }), 3);
    assert.equal(index("model", "merge", {}), undefined);
  });
  test("cost_above: a call whose worst case is above it, or unknown; at or below it, the next rule", () => {
    const byCost: ApprovalRule[] = [
      { ...base, provider: "gpt", cost_above: 0.5 },
      { ...base, capability: "model(gpt)", cost_above: 0.05, approvers: ["bob"] },
    ];
    const at = (cost: number | undefined) =>
      approvalRuleFor(byCost, { kind: "model", name: "gpt", arguments: { prompt: "hi" }, cost })?.index;
    assert.equal(at(0.5000001), 0);
    assert.equal(at(0.5), 1);
    assert.equal(at(0.06), 1);
    assert.equal(at(0.05), undefined);
    assert.equal(at(0), undefined);
    assert.equal(at(undefined), 0);
  });
});

/** The profile's errors as [jsonPath, line, column, message]. */
function errorsOf(approvals: unknown[]): [string, number, number, string][] {
  const text = JSON.stringify(
    { capabilities: ["tool(send)"], tools: { send: { type: "builtin", builtin: "count_items" } }, approvals },
    null,
    2,
  );
  const result = parseHostProfile(text, "/w/rlmplan.host.json");
  assert.equal(result.ok, false);
  return result.ok ? [] : result.errors.map((e: HostProfileError) => [e.jsonPath, e.line, e.column, e.message]);
}

describe("approval rules: located errors", () => {
  test("a rule names exactly one call, one the profile has", () => {
    assert.deepEqual(errorsOf([{ ...base }]), [
      ["/approvals/0", 12, 5, 'approval rule 0 names no call: give it "tool", "provider" or "capability"'],
    ]);
    assert.deepEqual(errorsOf([{ ...base, tool: "send", provider: "p" }]), [
      [
        "/approvals/0",
        12,
        5,
        'approval rule 0 names "tool" and "provider": give it one of them (one rule per call it holds)',
      ],
      ["/approvals/0/provider", 18, 19, 'there is no provider "p" in "providers"'],
    ]);
    assert.equal(
      errorsOf([{ ...base, capability: "rlm" }])[0]?.[3],
      'an approval rule holds calls: its capability is tool(NAME) or model(PROVIDER), not "rlm"',
    );
    assert.deepEqual(errorsOf([{ ...base, tool: "sned" }]), [
      ["/approvals/0/tool", 17, 15, 'there is no tool "sned" in "tools" or "mcpServers"'],
    ]);
  });
  test("a quorum its approvers can meet, a condition that compiles, a timeout", () => {
    assert.deepEqual(errorsOf([{ ...base, tool: "send", quorum: 2 }]), [
      [
        "/approvals/0/quorum",
        18,
        17,
        'the quorum 2 cannot be met by 1 approver: name at least 2 in "approvers" or lower "quorum"',
      ],
    ]);
    assert.deepEqual(errorsOf([{ ...base, tool: "send", when: { schema: { type: "nope" } } }]), [
      [
        "/approvals/0/when/schema",
        19,
        19,
        "the condition is not a valid JSON Schema: schema is invalid: data/type must be equal to one of the allowed values, data/type must be array, data/type must match a schema in anyOf",
      ],
    ]);
    assert.deepEqual(errorsOf([{ ...base, tool: "send", cost_above: 5 }]), [
      [
        "/approvals/0/cost_above",
        18,
        7,
        '"cost_above" holds model calls by their worst-case cost, and a tool call costs no money: name a "provider" (or model(PROVIDER)), or drop "cost_above"',
      ],
    ]);
    assert.equal(
      errorsOf([{ ...base, capability: "tool(send)", cost_above: -1 }])[0]?.[3],
      'item 1."cost_above" in "approvals" must be at least 0, got the number -1',
    );
    assert.deepEqual(errorsOf([{ tool: "send", approvers: ["a"] }]), [
      [
        "/approvals/0",
        12,
        5,
        'item 1 in "approvals" is missing "timeout": seconds the run waits for the quorum after asking; then on_timeout applies.',
      ],
    ]);
  });
});

function plan(value: unknown): Plan {
  const parsed = parsePlan({ kind: "value", value });
  assert.ok(parsed.plan, JSON.stringify(parsed.problems));
  return parsed.plan;
}

let binds = 0;
const send = (to: unknown) => ({ op: "tool", name: "send", args: { to }, bind: `r${++binds}` });
const other = { op: "tool", name: "lookup", args: {}, bind: "looked" };
const final = { op: "final", value: 1 };
const RULES: ApprovalRule[] = [{ ...base, tool: "send" }];

describe("approval forecast: the steps and the worst case", () => {
  const cases = {
    retry: plan({
      steps: [other, { op: "retry", bind: "tried", attempts: 3, plan: { steps: [send("a"), final] } }, final],
    }),
    parallel: plan({
      steps: [
        { op: "parallel", bind: "both", plans: [{ steps: [send("a"), final] }, { steps: [other, send("b"), final] }] },
        final,
      ],
    }),
    nested: plan({
      steps: [
        send("first"),
        {
          op: "rlm",
          bind: "inner",
          plan: {
            steps: [
              {
                op: "retry",
                bind: "tried",
                attempts: 2,
                plan: {
                  steps: [
                    {
                      op: "parallel",
                      bind: "both",
                      plans: [{ steps: [send("x"), final] }, { steps: [send("y"), final] }],
                    },
                    final,
                  ],
                },
              },
              final,
            ],
          },
        },
        final,
      ],
    }),
  };
  const shown = (p: Plan) => {
    const forecast = approvalForecast(p, RULES);
    return { worst: forecast.worstCase, steps: forecast.steps.map((s) => [approvalStepText(s), s.worstCase]) };
  };

  test("a retry multiplies by its attempts", () => {
    assert.deepEqual(shown(cases.retry), { worst: 3, steps: [["steps/1/plan/steps/0", 3]] });
  });
  test("a parallel counts every branch", () => {
    assert.deepEqual(shown(cases.parallel), {
      worst: 2,
      steps: [
        ["steps/0/plans/0/steps/0", 1],
        ["steps/0/plans/1/steps/1", 1],
      ],
    });
  });
  test("nested: an rlm's retry of a parallel", () => {
    assert.deepEqual(shown(cases.nested), {
      worst: 5,
      steps: [
        ["steps/0", 1],
        ["steps/1/plan/steps/0/plan/steps/0/plans/0/steps/0", 2],
        ["steps/1/plan/steps/0/plan/steps/0/plans/1/steps/0", 2],
      ],
    });
  });
  test("the count is the cost rule's: counting every tool step gives the estimate's tool calls", () => {
    for (const p of Object.values(cases)) {
      const runs = [...worstCaseRuns(p, (s) => s.op === "tool").values()];
      assert.equal(
        runs.reduce((a, b) => Number(a) + Number(b), 0),
        estimatePlan(p).tool_calls,
      );
    }
  });
  test("a condition on literal arguments is decided before the run; on computed ones it may hold", () => {
    const conditional: ApprovalRule[] = [{ ...base, tool: "send", when: { pointer: "/to", equals: "ceo" } }];
    const p = plan({ steps: [send("ceo"), send("dev"), send({ ref: "input", name: "to" }), final] });
    assert.deepEqual(
      approvalForecast(p, conditional).steps.map((s) => [approvalStepText(s), s.conditional]),
      [
        ["steps/0", false],
        ["steps/2", true],
      ],
    );
    assert.equal(approvalForecast(p, []).worstCase, 0);
  });
  test("cost_above: a model step counts when its worst case can be above it", () => {
    // gpt: 1 USD per million tokens in and out; 1000 tokens out. A literal prompt of 2 bytes is
    // (2 + 8) + 1000 tokens = 0.00101 USD; a computed one is bounded by max_output_bytes.
    const costs = {
      currency: "EUR",
      providers: new Map([["gpt", { price: { input_per_mtok: 1, output_per_mtok: 1 }, maxTokens: 1000 }]]),
    };
    const budget = { ...DEFAULT_BUDGET, max_output_bytes: 100_000 };
    const ask = (prompt: unknown, b: string) => ({ op: "model", provider: "gpt", prompt, bind: b });
    const p = plan({ steps: [ask("hi", "a"), ask({ ref: "input", name: "q" }, "b"), final] });
    const forecast = (cost_above: number, money = true) =>
      approvalForecast(p, [{ ...base, provider: "gpt", cost_above }], money ? { costs, budget } : undefined).steps.map(
        (s) => [approvalStepText(s), s.condition ?? null],
      );
    assert.deepEqual(forecast(0.001), [
      ["steps/0", null],
      ["steps/1", "its worst case is above 0.001 EUR"],
    ]);
    assert.deepEqual(forecast(0.00101), [["steps/1", "its worst case is above 0.00101 EUR"]]);
    // (100000 + 8 + 1000) tokens at 1 per million: 0.101008; at or above it no step can be held.
    assert.deepEqual(forecast(0.101007), [["steps/1", "its worst case is above 0.101007 EUR"]]);
    assert.deepEqual(forecast(0.101008), []);
    // A provider without a price: the run cannot know the cost and holds every call.
    const free = approvalForecast(p, [{ ...base, provider: "gpt", cost_above: 0.5 }], {
      costs: { currency: "EUR", providers: new Map([["gpt", {}]]) },
      budget,
    });
    assert.deepEqual(
      free.steps.map((s) => [approvalStepText(s), s.conditional]),
      [
        ["steps/0", false],
        ["steps/1", false],
      ],
    );
    // Without the profile's prices here every step's cost is unknown: each may be held.
    assert.deepEqual(forecast(0.5, false), [
      ["steps/0", "its worst case is above 0.5"],
      ["steps/1", "its worst case is above 0.5"],
    ]);
  });
});
