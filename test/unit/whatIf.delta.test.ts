// The what-if delta (plan/whatIf.ts): a plan at its base beside the plan now, as the sets it
// reaches and its worst case's changed figures, and the one sentence every front end prints.

import assert from "node:assert/strict";
import { test } from "node:test";
import { planReachOfText, whatIfDelta, whatIfSentence, type PlanReach, type ReachHost } from "@rlm-plan/core/plan";

const model = (bind: string) => ({ op: "model", provider: "openrouter", prompt: "p", bind });
const final = (name: string) => ({ op: "final", value: { ref: "var", name } });
const plan = (...steps: unknown[]) => JSON.stringify({ steps });

function reach(text: string, host?: ReachHost): PlanReach {
  const found = planReachOfText(text, host);
  assert.ok(found, "the text holds a plan");
  return found;
}

const BASE = plan(
  { op: "context", handle: { ref: "input", name: "doc" }, action: { type: "search", pattern: "x" }, bind: "hits" },
  model("a"),
  final("a"),
);

test("a tool added inside a retry: its capability, the tool, the MCP server it leads to, and the worst case's rises, calls first", () => {
  const head = plan(
    { op: "retry", attempts: 4, plan: { steps: [model("a"), final("a")] }, bind: "r" },
    { op: "tool", name: "billing.refund", args: {}, bind: "t" },
    final("r"),
  );
  const servers = (tool: string) => (tool.startsWith("billing.") ? "billing" : undefined);
  const delta = whatIfDelta(reach(BASE, { serverOf: servers }), reach(head, { serverOf: servers }));
  assert.deepEqual(delta, {
    base: "present",
    capabilities: { added: ["retry", "tool('billing.refund')"], removed: ["context(search)"] },
    tools: { added: ["billing.refund"], removed: [] },
    providers: { added: [], removed: [] },
    mcpServers: { added: ["billing"], removed: [] },
    worstCase: [
      { counter: "model_calls", label: "model calls", before: 1, after: 4 },
      { counter: "tool_calls", label: "tool calls", before: 0, after: 1 },
      { counter: "context_ops", label: "context operations", before: 1, after: 0 },
      { counter: "steps", label: "steps", before: 3, after: 11 },
      { counter: "depth", label: "depth", before: 1, after: 2 },
    ],
    changed: true,
  });
  assert.equal(
    whatIfSentence(delta),
    "this change adds retry, tool('billing.refund'), no longer needs context(search), reaches MCP server billing, " +
      "raises the worst case from 1 to 4 model calls, from 0 to 1 tool calls, from 3 to 11 steps and depth from 1 to 2 " +
      "and lowers the worst case from 1 to 0 context operations",
  );
});

test("the issue's example reads as the issue wrote it", () => {
  const base = plan(...Array.from({ length: 12 }, (_, i) => model(`m${i}`)), final("m0"));
  const head = plan(
    { op: "retry", attempts: 40, plan: { steps: [model("a"), final("a")] }, bind: "r" },
    { op: "tool", name: "refund", args: {}, bind: "t" },
    final("r"),
  );
  const delta = whatIfDelta(reach(base), reach(head));
  assert.equal(
    whatIfSentence({ ...delta, worstCase: delta.worstCase.filter((row) => row.counter === "model_calls") }),
    "this change adds retry, tool(refund) and raises the worst case from 12 to 40 model calls",
  );
});

test("removing a provider's step lowers the worst case and drops its capability and provider", () => {
  const head = plan(
    { op: "context", handle: { ref: "input", name: "doc" }, action: { type: "search", pattern: "x" }, bind: "hits" },
    final("hits"),
  );
  const delta = whatIfDelta(reach(BASE), reach(head));
  assert.deepEqual(delta.providers, { added: [], removed: ["openrouter"] });
  assert.equal(
    whatIfSentence(delta),
    "this change no longer needs model(openrouter) and lowers the worst case from 1 to 0 model calls and from 3 to 2 steps",
  );
});

test("a change that reaches and costs the same is unchanged, whatever else moved", () => {
  const reordered = `// a comment\n${JSON.stringify(JSON.parse(BASE), null, 2)}`;
  const delta = whatIfDelta(reach(BASE), reach(reordered));
  assert.equal(delta.changed, false);
  assert.deepEqual(delta.worstCase, []);
  assert.equal(whatIfSentence(delta), "this change changes no capability, tool or worst-case figure");
});

test("a plan the base lacks is new: what it needs and its worst case, not a rise from nothing", () => {
  const delta = whatIfDelta("new", reach(BASE));
  assert.equal(delta.base, "new");
  assert.deepEqual(delta.capabilities, { added: ["context(search)", "model(openrouter)"], removed: [] });
  assert.equal(
    whatIfSentence(delta),
    "this new plan needs context(search), model(openrouter) and has a worst case of 1 model calls, 1 context operations, 3 steps and depth 1",
  );
});

test("a base that holds no plan is compared as empty, and the sentence says so", () => {
  assert.equal(planReachOfText("{ not json"), undefined);
  const delta = whatIfDelta("unreadable", reach(BASE));
  assert.equal(delta.base, "unreadable");
  assert.match(
    whatIfSentence(delta),
    /^this change adds context\(search\), model\(openrouter\) .* \(the base version holds no readable plan\)$/,
  );
});

test("worst cases past 2^53 are compared and printed exactly", () => {
  let inner: unknown = { steps: [model("a"), final("a")] };
  for (let i = 0; i < 4; i++)
    inner = { steps: [{ op: "retry", attempts: 100000, plan: inner, bind: `r${i}` }, final(`r${i}`)] };
  const head = JSON.stringify(inner);
  const delta = whatIfDelta(reach(BASE), reach(head));
  const calls = delta.worstCase.find((row) => row.counter === "model_calls");
  assert.deepEqual(calls, { counter: "model_calls", label: "model calls", before: 1, after: 100000000000000000000n });
  assert.match(whatIfSentence(delta), /from 1 to 100000000000000000000 model calls/);
});
