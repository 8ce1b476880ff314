// The plan graph (the `rlmPlan/planGraph` request) against golden files, one per plan scenario
// (test/service/golden/plans/): the graph model in its wire form (nodes with their ranges, edges,
// exact counts), expanded fully and then with nested plans collapsed below depth 1. The document
// version is the harness's counter, so it is checked, not printed.

import assert from "node:assert/strict";
import { planGraph } from "@rlm-plan/language-server/service/planGraph";
import { scenarioGoldens } from "./support/scenarios";

scenarioGoldens("plan-graph", ({ plan, uri, readable }) => {
  const { version, ...expanded } = planGraph(plan, { uri }, {});
  assert.equal(version, plan.document.version);
  return [
    "expanded:",
    readable(expanded),
    "collapseDepth 1:",
    readable(planGraph(plan, { uri, collapseDepth: 1 }, { hostProblemsAsErrors: true }).graph),
  ].join("\n");
});
