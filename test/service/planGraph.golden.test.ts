// The plan graph (the `rlmPlan/planGraph` request) against golden files, one per plan scenario
// (test/service/golden/plans/) and per fixture of plan-graph/: the graph model in its wire form
// (nodes with their ranges, edges, exact counts), expanded fully and then with nested plans
// collapsed below depth 1; a fixture's `//! params: {...}` (the request's collapseDepth and
// collapseAbove, as JSON) adds the graph that request answers. The document version is the
// harness's counter, so it is checked, not printed.

import assert from "node:assert/strict";
import { planGraph } from "@rlm-plan/language-server/service/planGraph";
import { jsonDirective } from "./support/golden";
import { scenarioGoldens } from "./support/scenarios";

scenarioGoldens("plan-graph", ({ fixture, plan, uri, readable }) => {
  const { version, ...expanded } = planGraph(plan, { uri }, {});
  assert.equal(version, plan.document.version);
  const sections = [
    "expanded:",
    readable(expanded),
    "collapseDepth 1:",
    readable(planGraph(plan, { uri, collapseDepth: 1 }, { hostProblemsAsErrors: true }).graph),
  ];
  const params = jsonDirective(fixture, "params") as Record<string, unknown> | undefined;
  if (params)
    sections.push(`params ${fixture.directives.params}:`, readable(planGraph(plan, { ...params, uri }, {}).graph));
  return sections.join("\n");
});
