// The plan graph as JSON carries it (the language server's reply, the webview's messages): both
// go through JSON.stringify, which has no bigint, so an exact count beyond 2^53 travels as its
// decimal string and `graphFromWire` restores it. Every count below that stays a plain number.

import type { Count, Estimate } from "../plan/estimate";
import type { GraphApproval, GraphPlanNode, GraphStepNode, PlanGraph } from "./graphModel";

/** A count on the wire: a number, or the decimal digits of one beyond 2^53. */
export type WireCount = number | string;

export type WireEstimate = { readonly [K in keyof Estimate]: Estimate[K] extends number ? number : WireCount };

export interface WireApproval extends Omit<GraphApproval, "worstCase"> {
  readonly worstCase: WireCount;
}

export interface WireStepNode extends Omit<GraphStepNode, "worstCase" | "runningTotal" | "approval" | "collapsed"> {
  readonly worstCase: WireEstimate;
  readonly runningTotal: WireEstimate;
  readonly approval?: WireApproval;
  readonly collapsed?: {
    readonly steps: number;
    readonly approvals?: { readonly steps: number; readonly worstCase: WireCount };
  };
}

export interface WirePlanNode extends Omit<GraphPlanNode, "worstCase"> {
  readonly worstCase: WireEstimate;
}

export interface WireGraph extends Omit<PlanGraph, "nodes" | "total"> {
  readonly nodes: readonly (WireStepNode | WirePlanNode)[];
  readonly total: WireEstimate | undefined;
}

/** The graph with every count JSON can carry exactly. */
export function graphToWire(graph: PlanGraph): WireGraph {
  return mapCounts(graph, (count) => (typeof count === "bigint" ? count.toString() : count)) as WireGraph;
}

/** The graph back with exact counts (bigints where the wire has digits). */
export function graphFromWire(wire: WireGraph): PlanGraph {
  return mapCounts(wire, (count) => (typeof count === "string" ? BigInt(count) : count)) as PlanGraph;
}

/** The estimate fields that are counts (the others are small numbers either way). */
const COUNTS = ["steps", "model_calls", "tool_calls", "context_ops"] as const;

type AnyEstimate = Estimate | WireEstimate;

/** The graph with each estimate's counts converted; everything else as it was. */
function mapCounts(
  graph: PlanGraph | WireGraph,
  convert: (count: Count | WireCount) => Count | WireCount,
): PlanGraph | WireGraph {
  const estimate = (from: AnyEstimate): AnyEstimate => {
    const to: Record<string, unknown> = { ...from };
    for (const key of COUNTS) to[key] = convert(from[key]);
    return to as unknown as AnyEstimate;
  };
  return {
    ...graph,
    nodes: graph.nodes.map((node) =>
      node.kind === "step"
        ? {
            ...node,
            worstCase: estimate(node.worstCase),
            runningTotal: estimate(node.runningTotal),
            ...(node.approval ? { approval: { ...node.approval, worstCase: convert(node.approval.worstCase) } } : {}),
            ...(node.collapsed?.approvals
              ? {
                  collapsed: {
                    ...node.collapsed,
                    approvals: { ...node.collapsed.approvals, worstCase: convert(node.collapsed.approvals.worstCase) },
                  },
                }
              : {}),
          }
        : { ...node, worstCase: estimate(node.worstCase) },
    ),
    total: graph.total && estimate(graph.total),
  } as PlanGraph | WireGraph;
}
