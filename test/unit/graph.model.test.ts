// The plan graph model: exact nodes (ids, parents, ops, bindings, worst cases, the run's total,
// budget marks, capability grants, problems) and exact edges (order and data flow) for nested,
// parallel and retry plans, and collapsing beyond a depth.

import assert from "node:assert/strict";
import { test } from "node:test";
import { analyzePlanText, type AnalysisPolicy } from "@rlm-plan/core/analysis";
import { buildPlanGraph, type GraphOptions, type GraphStepNode } from "@rlm-plan/core/graph";

const V = (name: string) => ({ ref: "var", name });
const search = (bind: string) => ({
  op: "context",
  handle: { ref: "input", name: "doc" },
  action: { type: "search", pattern: "x" },
  bind,
});
const model = (bind: string, prompt: unknown = "p") => ({ op: "model", provider: "analyst", prompt, bind });
const final = (value: unknown) => ({ op: "final", value });

function graphOf(plan: unknown, policy: AnalysisPolicy = {}, options: GraphOptions = {}) {
  const text = JSON.stringify(plan, null, 2);
  return { text, graph: buildPlanGraph(analyzePlanText(text, policy), options) };
}

function steps(graph: ReturnType<typeof graphOf>["graph"]): GraphStepNode[] {
  return graph.nodes.filter((node): node is GraphStepNode => node.kind === "step");
}

const nested = {
  steps: [
    search("hits"),
    { op: "rlm", plan: { steps: [model("answer", V("hits")), final(V("answer"))] }, bind: "report" },
    final({ r: V("report"), h: V("hits") }),
  ],
};

test("a nested plan: one node per step and plan, parents, worst cases and the run's total", () => {
  const { graph } = graphOf(nested);
  assert.deepEqual(
    graph.nodes.map((n) => [n.kind, n.id, n.parent ?? null, n.kind === "step" ? n.op : n.label]),
    [
      ["plan", "plan", null, "plan"],
      ["step", "steps/0", "plan", "context"],
      ["step", "steps/1", "plan", "rlm"],
      ["plan", "steps/1/plan", "steps/1", "sub-plan"],
      ["step", "steps/1/plan/steps/0", "steps/1/plan", "model"],
      ["step", "steps/1/plan/steps/1", "steps/1/plan", "final"],
      ["step", "steps/2", "plan", "final"],
    ],
  );
  assert.deepEqual(
    steps(graph).map((n) => [
      n.bind ?? null,
      n.detail,
      n.depth,
      n.worstCase.steps,
      n.runningTotal.steps,
      n.runningTotal.model_calls,
    ]),
    [
      ["hits", 'search "x"', 1, 1, 1, 0],
      ["report", "sub-plan of 2", 1, 3, 4, 1],
      ["answer", "model(analyst)", 2, 1, 3, 1],
      [null, "final value", 2, 1, 4, 1],
      [null, "final value", 1, 1, 5, 1],
    ],
  );
  assert.equal(graph.steps, 5);
  assert.equal(graph.hiddenSteps, 0);
  assert.deepEqual(graph.total, {
    steps: 5,
    depth: 2,
    parallel_width: 0,
    model_calls: 1,
    tool_calls: 0,
    context_ops: 1,
  });
});

test("edges: order inside each plan, and data from the binding step to each reader (once per variable)", () => {
  const { graph } = graphOf(nested);
  assert.deepEqual(
    graph.edges.map((e) => `${e.kind} ${e.from} -> ${e.to}${e.variable ? ` ${e.variable}` : ""}`),
    [
      "order steps/1/plan/steps/0 -> steps/1/plan/steps/1",
      "order steps/0 -> steps/1",
      "order steps/1 -> steps/2",
      "data steps/0 -> steps/1/plan/steps/0 hits",
      "data steps/1/plan/steps/0 -> steps/1/plan/steps/1 answer",
      // An object's entries are read in key order (the normalizer sorts them, as the reference does).
      "data steps/0 -> steps/2 hits",
      "data steps/1 -> steps/2 report",
    ],
  );
});

test("ranges point at each step's object in the text", () => {
  const { text, graph } = graphOf(nested);
  const node = steps(graph).find((n) => n.id === "steps/1/plan/steps/0");
  assert.ok(node?.range);
  const source = text.slice(node.range.offset, node.range.offset + node.range.length);
  assert.deepEqual(JSON.parse(source), model("answer", V("hits")));
});

test("capabilities: granted unless the validator denied them; unknown without a host", () => {
  const policy = { capabilities: ["context(search)", "rlm"] };
  const known = steps(graphOf(nested, policy, { capabilitiesKnown: true }).graph);
  assert.deepEqual(
    known.map((n) => [n.capability ?? null, n.granted ?? null, n.problems.map((p) => p.code)]),
    [
      ["context(search)", true, []],
      ["rlm", true, []],
      // Its prompt is the search's list of hits, certainly not text: a type problem of the node too.
      ["model(analyst)", false, ["capability_denied", "invalid_prompt"]],
      [null, null, []],
      [null, null, []],
    ],
  );
  const unknown = steps(graphOf(nested).graph);
  assert.deepEqual(
    unknown.map((n) => n.granted),
    [undefined, undefined, undefined, undefined, undefined],
  );
});

test("over budget: steps whose running total passes a limit are marked, from the first one on", () => {
  const { graph } = graphOf(nested, { budget: { max_steps: 3 } });
  assert.deepEqual(
    steps(graph).map((n) => [n.id, n.overBudget]),
    [
      ["steps/0", []],
      ["steps/1", ["steps"]],
      ["steps/1/plan/steps/0", []],
      ["steps/1/plan/steps/1", ["steps"]],
      ["steps/2", ["steps"]],
    ],
  );
  assert.deepEqual(
    graph.problems.map((p) => [p.code, p.hostDependent]),
    [["budget_exceeded", true]],
  );
});

test("parallel branches and retry attempts: compound nodes, labels and multiplied costs", () => {
  const plan = {
    steps: [
      { op: "parallel", plans: [{ steps: [model("a"), final(V("a"))] }, { steps: [final(1)] }], bind: "both" },
      { op: "retry", attempts: 3, plan: { steps: [model("b", V("both")), final(V("b"))] }, bind: "tried" },
      final(V("tried")),
    ],
  };
  const { graph } = graphOf(plan);
  assert.deepEqual(
    graph.nodes.filter((n) => n.kind === "plan").map((n) => [n.id, n.parent ?? null, n.label, n.worstCase.steps]),
    [
      ["plan", null, "plan", 12],
      ["steps/0/plans/0", "steps/0", "branch 1 of 2", 2],
      ["steps/0/plans/1", "steps/0", "branch 2 of 2", 1],
      ["steps/1/plan", "steps/1", "retry ×3", 2],
    ],
  );
  assert.deepEqual(
    steps(graph).map((n) => [n.id, n.detail, n.worstCase.steps, n.runningTotal.steps, n.runningTotal.model_calls]),
    [
      ["steps/0", "2 branches", 4, 4, 1],
      ["steps/0/plans/0/steps/0", "model(analyst)", 1, 2, 1],
      ["steps/0/plans/0/steps/1", "final value", 1, 3, 1],
      ["steps/0/plans/1/steps/0", "final value", 1, 4, 1],
      ["steps/1", "up to ×3", 7, 11, 4],
      // Two earlier attempts (2 steps each) are spent before the last attempt's steps.
      ["steps/1/plan/steps/0", "model(analyst)", 1, 10, 4],
      ["steps/1/plan/steps/1", "final value", 1, 11, 4],
      ["steps/2", "final value", 1, 12, 4],
    ],
  );
  assert.deepEqual(
    graph.edges.filter((e) => e.kind === "data").map((e) => `${e.from} -> ${e.to} ${e.variable}`),
    [
      "steps/0/plans/0/steps/0 -> steps/0/plans/0/steps/1 a",
      "steps/0 -> steps/1/plan/steps/0 both",
      "steps/1/plan/steps/0 -> steps/1/plan/steps/1 b",
      "steps/1 -> steps/2 tried",
    ],
  );
});

test("collapse: plans deeper than the collapse depth stay inside their step, counted as hidden", () => {
  const { graph } = graphOf(nested, {}, { collapseDepth: 1 });
  assert.deepEqual(
    graph.nodes.map((n) => n.id),
    ["plan", "steps/0", "steps/1", "steps/2"],
  );
  const rlm = steps(graph)[1];
  assert.deepEqual(rlm?.collapsed, { steps: 2 });
  assert.equal(rlm?.worstCase.steps, 3);
  assert.equal(graph.hiddenSteps, 2);
  assert.deepEqual(
    graph.edges.map((e) => e.id),
    ["order:steps/0->steps/1", "order:steps/1->steps/2", "data:steps/0->steps/2:hits", "data:steps/1->steps/2:report"],
  );
});

test("a file that is not a plan: no nodes, its problems on the graph", () => {
  const graph = buildPlanGraph(analyzePlanText("{ not json"));
  assert.deepEqual(graph.nodes, []);
  assert.equal(graph.steps, 0);
  assert.ok(graph.problems.length > 0);
  assert.equal(graph.problems[0]?.hostDependent, false);
});
