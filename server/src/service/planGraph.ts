// The plan graph request: the runtime's graph model of an analysed document (under the host
// profile in force: grants, and the steps its approval rules can hold), in its wire form (exact counts), with each step's offsets turned into LSP
// ranges. No graph rule lives here.

import { buildPlanGraph, graphToWire } from "@rlm-plan/core";
import type { AnalyzedPlan } from "./analyzedPlan";
import { planApprovalForecast } from "./approvalForecast";
import { lspRange } from "./diagnostics";
import type { PlanGraphParams, PlanGraphResult, PlanGraphStep, RlmPlanSettings } from "../protocol";

export function planGraph(plan: AnalyzedPlan, params: PlanGraphParams, settings: RlmPlanSettings): PlanGraphResult {
  const { analysis, document } = plan;
  const collapseDepth =
    typeof params.collapseDepth === "number" && Number.isInteger(params.collapseDepth) && params.collapseDepth >= 1
      ? params.collapseDepth
      : undefined;
  const above =
    typeof params.collapseAbove === "number" && Number.isInteger(params.collapseAbove) && params.collapseAbove >= 0
      ? params.collapseAbove
      : undefined;
  const known = { capabilitiesKnown: plan.host !== undefined, approvals: planApprovalForecast(plan)?.steps };
  let built = buildPlanGraph(analysis, { ...known, collapseDepth: above === undefined ? collapseDepth : undefined });
  if (above !== undefined && collapseDepth !== undefined && built.steps > above)
    built = buildPlanGraph(analysis, { ...known, collapseDepth });
  const graph = graphToWire(built);
  const nodes = graph.nodes.map((node): PlanGraph["nodes"][number] => {
    if (node.kind !== "step") return node;
    const op = analysis.document.rangeOf([...node.path, "op"]);
    const step: PlanGraphStep = {
      ...node,
      range: node.range ? lspRange(document, node.range) : null,
      opRange: op ? lspRange(document, op) : null,
    };
    return step;
  });
  return {
    uri: document.uri,
    version: document.version,
    graph: { ...graph, nodes },
    hostProblemsAsErrors: settings.hostProblemsAsErrors === true,
  };
}

type PlanGraph = PlanGraphResult["graph"];
