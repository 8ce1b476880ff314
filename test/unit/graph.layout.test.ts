// The plan graph's layout: nested plans inside their step and parallel branches left to right
// in plan order (elkjs), and long plans with nothing nested shown placed as a column (every
// box below the one before, centred, inside the plan; every edge routed).

import assert from "node:assert/strict";
import { test } from "node:test";
import { analyzePlanText } from "@rlm-plan/core/analysis";
import { buildPlanGraph } from "@rlm-plan/core/graph/graphModel";
import { COLUMN_LAYOUT_STEPS, layoutPlanGraph, type Box } from "@rlm-plan/core/graph/layout";

const inside = (inner: Box, outer: Box) =>
  inner.x >= outer.x &&
  inner.y >= outer.y &&
  inner.x + inner.width <= outer.x + outer.width &&
  inner.y + inner.height <= outer.y + outer.height;

test("nested plans lie inside their step; parallel branches left to right in plan order", async () => {
  const branch = (bind: string) => ({
    steps: [
      { op: "model", provider: "m", prompt: "p", bind },
      { op: "final", value: 1 },
    ],
  });
  const text = JSON.stringify({
    steps: [
      { op: "parallel", plans: [branch("a"), branch("b"), branch("c")], bind: "all" },
      { op: "final", value: { ref: "var", name: "all" } },
    ],
  });
  const graph = buildPlanGraph(analyzePlanText(text));
  const layout = await layoutPlanGraph(graph);
  const box = (id: string) => layout.boxes.get(id) as Box;
  assert.equal(layout.boxes.size, graph.nodes.length);
  for (const node of graph.nodes) if (node.parent) assert.ok(inside(box(node.id), box(node.parent)), node.id);
  const xs = [0, 1, 2].map((i) => box(`steps/0/plans/${i}`).x);
  assert.ok(xs[0]! < xs[1]! && xs[1]! < xs[2]!, `branches in order: ${xs.join(", ")}`);
  assert.ok(box("steps/1").y >= box("steps/0").y + box("steps/0").height, "the final below the parallel step");
  for (const edge of graph.edges) assert.ok((layout.routes.get(edge.id)?.length ?? 0) >= 2, edge.id);
});

test("a long flat plan is a column: in order, centred, no overlaps, inside the plan, every edge routed", async () => {
  const count = COLUMN_LAYOUT_STEPS + 50;
  const steps: unknown[] = [];
  for (let i = 0; i < count - 1; i++)
    steps.push({ op: "tool", name: "t", args: i === 0 ? 1 : { ref: "var", name: `v${i - 1}` }, bind: `v${i}` });
  steps.push({ op: "final", value: { ref: "var", name: "v0" } });
  const graph = buildPlanGraph(analyzePlanText(JSON.stringify({ steps })));
  const layout = await layoutPlanGraph(graph);
  const plan = layout.boxes.get("plan") as Box;
  const boxes = graph.nodes.slice(1).map((node) => layout.boxes.get(node.id) as Box);
  assert.equal(boxes.length, count);
  const centre = boxes[0]!.x + boxes[0]!.width / 2;
  boxes.forEach((box, i) => {
    assert.ok(inside(box, plan), `step ${i} inside the plan`);
    assert.equal(box.x + box.width / 2, centre, `step ${i} centred`);
    if (i > 0) assert.ok(box.y >= boxes[i - 1]!.y + boxes[i - 1]!.height + 20, `step ${i} below step ${i - 1}`);
  });
  assert.equal(layout.routes.size, graph.edges.length);
  // The final reads v0, far above it: routed along the plan's left side, not through the steps.
  const long = layout.routes.get(`data:steps/0->steps/${count - 1}:v0`) ?? [];
  assert.equal(long.length, 4);
  assert.ok(long.every((point) => point.x <= boxes[0]!.x));
  assert.equal(layout.width, plan.width + 24);
});
