// The what-if delta's host-dependent parts (plan/whatIf.ts through the session's whatIfHost()):
// the worst case in money under the profile's prices, and the steps that can need approval under
// its rules with the worst-case number of approvals; each only when the profile says something of it.

import assert from "node:assert/strict";
import { test } from "node:test";
import { parseHostProfile } from "@rlm-plan/core/host";
import { planReachOfText, whatIfDelta, whatIfSentence, type PlanReach } from "@rlm-plan/core/plan";
import { analysisPolicy, whatIfHost } from "@rlm-plan/core/session";

const provider = { type: "openai-chat", baseUrl: "http://127.0.0.1:9/v1", model: "m", apiKeyEnv: "K" };
// A call with prompt "p": (1 + 8) input tokens at 1000 and 100 output tokens at 10 per million = 0.01.
const PRICED = { ...provider, price: { input_per_mtok: 1000, output_per_mtok: 10 }, maxTokens: 100 };

function hostOf(extra: Record<string, unknown>) {
  const text = JSON.stringify({
    capabilities: ["model(llm)", "model(free)", "tool(refund)", "tool(note)", "retry"],
    tools: {
      refund: { type: "builtin", builtin: "count_items" },
      note: { type: "builtin", builtin: "count_items" },
    },
    providers: { llm: PRICED, free: provider },
    approvals: [{ tool: "refund", approvers: ["alice"], timeout: 60 }],
    ...extra,
  });
  const result = parseHostProfile(text, "/w/rlmplan.host.json");
  assert.ok(result.ok, "the profile loads");
  return whatIfHost(result.profile, analysisPolicy(result.profile));
}

const HOST = hostOf({});
const model = (bind: string, provider = "llm") => ({ op: "model", provider, prompt: "p", bind });
const refund = (bind: string) => ({ op: "tool", name: "refund", args: [], bind });
const final = (name: string) => ({ op: "final", value: { ref: "var", name } });
const plan = (...steps: unknown[]) => JSON.stringify({ steps });

function reach(text: string, host = HOST): PlanReach {
  const found = planReachOfText(text, host);
  assert.ok(found, "the text holds a plan");
  return found;
}

const BASE = plan(model("a"), final("a"));
const RETRIED = plan(
  { op: "retry", attempts: 3, plan: { steps: [model("a"), refund("r"), final("a")] }, bind: "x" },
  final("x"),
);

test("a refund added in a retry of 3: the money and the approvals rise, the step is named by path and call", () => {
  const delta = whatIfDelta(reach(BASE), reach(RETRIED));
  assert.deepEqual(delta.money, { currency: "USD", before: { cost: 0.01 }, after: { cost: 0.03 } });
  assert.deepEqual(delta.approvals, {
    added: ["steps/0/plan/steps/1 tool(refund)"],
    removed: [],
    before: 0,
    after: 3,
  });
  assert.equal(delta.changed, true);
  assert.equal(
    whatIfSentence(delta),
    "this change adds retry, tool(refund), adds 1 step that can need approval (steps/0/plan/steps/1 tool(refund)) " +
      "and raises the worst case from 1 to 3 model calls, from 0 to 3 tool calls, from 2 to 11 steps, depth from 1 to 2, " +
      "from 0.01 to 0.03 USD and from 0 to 3 approvals",
  );
});

test("the way back: the step no longer there, the money and the approvals lowered", () => {
  const delta = whatIfDelta(reach(RETRIED), reach(BASE));
  assert.deepEqual(delta.approvals, { added: [], removed: ["steps/0/plan/steps/1 tool(refund)"], before: 3, after: 0 });
  assert.match(
    whatIfSentence(delta),
    /^this change no longer needs retry, tool\(refund\), no longer has 1 step that can need approval \(steps\/0\/plan\/steps\/1 tool\(refund\)\) and lowers the worst case .*, from 0\.03 to 0\.01 USD and from 3 to 0 approvals$/,
  );
});

test("a call of an unpriced provider makes the worst case in money unknown, with the reason", () => {
  const delta = whatIfDelta(reach(BASE), reach(plan(model("a"), model("b", "free"), final("a"))));
  assert.deepEqual(delta.money, {
    currency: "USD",
    before: { cost: 0.01 },
    after: { unknown: ['provider "free" has no price in the host profile'] },
  });
  assert.equal(
    whatIfSentence(delta),
    "this change adds model(free), raises the worst case from 1 to 2 model calls and from 2 to 3 steps " +
      'and changes the worst case in money from 0.01 USD to unknown (provider "free" has no price in the host profile)',
  );
});

test("the same money and approval steps are no change; a step moved is one removed and one added", () => {
  assert.equal(whatIfDelta(reach(RETRIED), reach(`// moved nothing\n${RETRIED}`)).changed, false);
  const moved = plan(
    { op: "tool", name: "note", args: [], bind: "n" },
    { op: "retry", attempts: 3, plan: { steps: [model("a"), refund("r"), final("a")] }, bind: "x" },
    final("x"),
  );
  const delta = whatIfDelta(reach(RETRIED), reach(moved));
  assert.deepEqual(delta.approvals, {
    added: ["steps/1/plan/steps/1 tool(refund)"],
    removed: ["steps/0/plan/steps/1 tool(refund)"],
    before: 3,
    after: 3,
  });
  assert.equal(delta.money, undefined);
});

test("a new plan: its approval steps, money and approvals in its worst case", () => {
  const delta = whatIfDelta("new", reach(RETRIED));
  assert.equal(
    whatIfSentence(delta),
    "this new plan needs model(llm), retry, tool(refund), has 1 step that can need approval (steps/0/plan/steps/1 tool(refund)) " +
      "and has a worst case of 3 model calls, 3 tool calls, 11 steps, depth 2, 0.03 USD and 3 approvals",
  );
  const unpriced = whatIfDelta("new", reach(plan(model("b", "free"), final("b"))));
  assert.match(
    whatIfSentence(unpriced),
    /, depth 1 and an unknown cost \(provider "free" has no price in the host profile\)$/,
  );
});

test("a profile that prices no provider says nothing of money; one without rules nothing of approvals", () => {
  const bare = hostOf({ providers: { llm: provider, free: provider }, approvals: undefined });
  const delta = whatIfDelta(reach(BASE, bare), reach(RETRIED, bare));
  assert.equal("money" in delta, false);
  assert.equal("approvals" in delta, false);
  assert.equal(
    whatIfSentence(delta),
    "this change adds retry, tool(refund) and raises the worst case from 1 to 3 model calls, from 0 to 3 tool calls, " +
      "from 2 to 11 steps and depth from 1 to 2",
  );
});
