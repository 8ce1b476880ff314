// Worst cases beyond 2^53 on the plan graph: six nested retries of 1,000 attempts. The model's
// exact counts (bigints) reach every node, label and drawing digit for digit, and the wire form
// (decimal strings for JSON) gives back the same graph; approval counts as well.

import assert from "node:assert/strict";
import { test } from "node:test";
import { analyzePlanText } from "@rlm-plan/core/analysis";
import { exactJsonText } from "@rlm-plan/core/json";
import { buildPlanGraph, graphFromWire, graphToWire, type GraphStepNode } from "@rlm-plan/core/graph";
import { renderDot } from "@rlm-plan/core/graph/dot";
import { costText, budgetText, stepLines } from "@rlm-plan/core/graph/labels";
import { layoutPlanGraph } from "@rlm-plan/core/graph/layout";
import { renderMermaid } from "@rlm-plan/core/graph/mermaid";
import { renderSvg } from "@rlm-plan/core/graph/svg";
import { approvalForecast } from "@rlm-plan/core/host/approvalSteps";

function retries(levels: number): unknown {
  let plan: unknown = {
    steps: [
      { op: "tool", name: "t", args: {}, bind: "x" },
      { op: "final", value: { ref: "var", name: "x" } },
    ],
  };
  for (let i = 0; i < levels; i++)
    plan = {
      steps: [
        { op: "retry", attempts: 1000, plan, bind: "r" },
        { op: "final", value: { ref: "var", name: "r" } },
      ],
    };
  return plan;
}

const analysis = analyzePlanText(JSON.stringify(retries(6), null, 2), {});
const graph = buildPlanGraph(analysis);
const stepNodes = graph.nodes.filter((node): node is GraphStepNode => node.kind === "step");

test("the graph's counts are the model's exact bigints, and its budget marks its rows'", () => {
  assert.deepEqual(graph.total, {
    steps: 2002002002002002002n,
    depth: 7,
    parallel_width: 0,
    model_calls: 0,
    tool_calls: 1000000000000000000n,
    context_ops: 0,
  });
  const outer = stepNodes[0] as GraphStepNode;
  assert.equal(outer.id, "steps/0");
  assert.equal(outer.worstCase.steps, 2002002002002002001n);
  assert.equal(outer.runningTotal.tool_calls, 1000000000000000000n);
  assert.deepEqual(outer.overBudget, ["steps", "depth", "tool_calls"]);
  // The innermost tool step: 1000^6 runs of it, and the run's total when it ends for the last time.
  const tool = stepNodes.find((node) => node.op === "tool") as GraphStepNode;
  assert.equal(tool.worstCase.steps, 1);
  assert.equal(tool.runningTotal.tool_calls, 1000000000000000000n);
  // Everything but the seven final steps still to come (the innermost plan's and one per level).
  assert.equal(tool.runningTotal.steps, 2002002002002002002n - 7n);
});

test("labels print every digit", () => {
  assert.equal(costText(graph.total!), "2002002002002002002 steps · 1000000000000000000 tool");
  assert.equal(
    budgetText(graph.total!, graph.budget),
    "steps 2002002002002002002/64, depth 7/4, parallel width 0/8, model calls 0/8, " +
      "tool calls 1000000000000000000/16, context operations 0/32",
  );
});

test("the wire form goes through JSON exactly: digits beyond 2^53, numbers below", () => {
  const text = JSON.stringify(graphToWire(graph));
  const wire = graphToWire(graph);
  assert.deepEqual(wire.total, {
    steps: "2002002002002002002",
    depth: 7,
    parallel_width: 0,
    model_calls: 0,
    tool_calls: "1000000000000000000",
    context_ops: 0,
  });
  const innermost = wire.nodes.find((node) => node.kind === "step" && node.op === "tool");
  assert.deepEqual(innermost?.worstCase, {
    steps: 1,
    depth: 7,
    parallel_width: 0,
    model_calls: 0,
    tool_calls: 1,
    context_ops: 0,
  });
  const back = graphFromWire(JSON.parse(text) as typeof wire);
  assert.equal(back.total?.steps, 2002002002002002002n);
  // The same graph, key for key (JSON drops only undefined keys), written by the exact JSON writer.
  assert.equal(exactJsonText(back), exactJsonText(graph));
  assert.ok(exactJsonText(graph).includes('"total":{"steps":2002002002002002002,'));
});

test("DOT, Mermaid and SVG carry the exact figures", async () => {
  const label = "2002002002002002001 steps · 1000000000000000000 tool";
  assert.ok(renderDot(graph).includes(label), "DOT");
  assert.ok(
    renderMermaid(graph).includes(
      `n1("retry → r<br/>up to ×1000<br/>${label}<br/>over budget: steps, depth, tool_calls")`,
    ),
    "Mermaid",
  );
  const svg = renderSvg(graph, await layoutPlanGraph(graph));
  assert.ok(svg.includes('data-id="steps/0" data-op="retry" data-bind="r" data-steps="2002002002002002001"'), "SVG");
  assert.ok(svg.includes(`>${label}</text>`), "SVG label");
});

test("a step's approvals and a collapsed step's are exact too, on the wire and in the label", () => {
  const forecast = approvalForecast(analysis.plan!, [{ tool: "t", approvers: ["ada"], timeout: 60 }]);
  const marked = buildPlanGraph(analysis, { approvals: forecast.steps });
  const tool = marked.nodes.find((node): node is GraphStepNode => node.kind === "step" && node.op === "tool");
  assert.equal(tool?.approval?.worstCase, 1000000000000000000n);
  assert.equal(stepLines(tool!).at(-1), "needs approval ×1000000000000000000");
  const collapsed = buildPlanGraph(analysis, { approvals: forecast.steps, collapseDepth: 1 });
  const outer = collapsed.nodes.find((node): node is GraphStepNode => node.kind === "step");
  assert.deepEqual(outer?.collapsed, { steps: 12, approvals: { steps: 1, worstCase: 1000000000000000000n } });
  for (const graph of [marked, collapsed]) {
    const wire = JSON.parse(JSON.stringify(graphToWire(graph))) as ReturnType<typeof graphToWire>;
    assert.equal(exactJsonText(graphFromWire(wire)), exactJsonText(graph));
  }
  const wired = graphToWire(collapsed).nodes.find((node) => node.kind === "step" && node.collapsed);
  assert.deepEqual(wired?.kind === "step" && wired.collapsed, {
    steps: 12,
    approvals: { steps: 1, worstCase: "1000000000000000000" },
  });
});
