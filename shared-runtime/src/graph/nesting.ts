// The walk the text formats (DOT, Mermaid) share: nodes nested as the graph nests them, the
// root plan's steps at the top level, each node with a short id (`n3`) that is safe in any
// syntax, and each level indented by two spaces.

import type { GraphNode, GraphPlanNode, GraphStepNode, PlanGraph } from "./graphModel";

export interface NestingVisitor {
  /** A nested plan: write its opening, call `body()` for what it holds, write its closing. */
  plan(node: GraphPlanNode, id: string, indent: string, body: () => void): void;
  /** A step; `body` is undefined when it holds no plans. */
  step(node: GraphStepNode, id: string, indent: string, body: (() => void) | undefined): void;
}

export function walkNesting(graph: PlanGraph, visitor: NestingVisitor): ReadonlyMap<string, string> {
  const children = new Map<string, GraphNode[]>();
  for (const node of graph.nodes)
    if (node.parent !== undefined) {
      const list = children.get(node.parent);
      if (list) list.push(node);
      else children.set(node.parent, [node]);
    }
  const ids = new Map(graph.nodes.map((node, i) => [node.id, `n${i}`]));
  const visit = (node: GraphNode, indent: string): void => {
    const inner = children.get(node.id) ?? [];
    const body = () => {
      for (const child of inner) visit(child, `${indent}  `);
    };
    const id = ids.get(node.id) as string;
    if (node.kind === "step") visitor.step(node, id, indent, inner.length > 0 ? body : undefined);
    else if (node.role === "root") for (const child of inner) visit(child, indent);
    else visitor.plan(node, id, indent, body);
  };
  for (const node of graph.nodes) if (node.parent === undefined) visit(node, "  ");
  return ids;
}
