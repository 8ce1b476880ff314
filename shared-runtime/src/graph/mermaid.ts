// A plan graph as a Mermaid flowchart (what GitHub renders in a README or a pull request):
// nested plans as subgraphs, steps as rounded nodes with their lines, order edges solid, data
// edges dotted and labelled with the variable; a step that can need approval gets the class
// `approval` (a purple, doubled outline) besides a problem's or the budget's. Labels are quoted and entity-escaped. A step is
// linked to the first step of each plan it holds, never to the subgraph: Mermaid's layout (dagre)
// fails on edges to nested subgraphs ("Cannot set properties of undefined (setting 'rank')").

import { planCaption, stepApproval, stepLines } from "./labels";
import type { PlanGraph } from "./graphModel";
import { walkNesting } from "./nesting";

export function renderMermaid(graph: PlanGraph): string {
  const out = ["flowchart TD"];
  const marked: { problem: string[]; over: string[]; approval: string[] } = { problem: [], over: [], approval: [] };
  const owners: string[] = [];
  const ids = walkNesting(graph, {
    plan(node, id, indent, body) {
      out.push(`${indent}subgraph ${id}["${label(planCaption(node))}"]`, `${indent}  direction TB`);
      body();
      out.push(`${indent}end`);
    },
    step(node, id, indent, body) {
      out.push(`${indent}${id}("${label(stepLines(node).join("\n"))}")`);
      if (node.problems.some((problem) => !problem.hostDependent)) marked.problem.push(id);
      else if (node.overBudget.length > 0) marked.over.push(id);
      if (stepApproval(node)) marked.approval.push(id);
      if (!body) return;
      out.push(`${indent}subgraph ${id}_plans[" "]`, `${indent}  direction LR`);
      body();
      out.push(`${indent}end`);
      owners.push(node.id);
    },
  });
  for (const owner of owners) {
    for (const plan of graph.nodes.filter((node) => node.kind === "plan" && node.parent === owner)) {
      const first = graph.nodes.find((node) => node.parent === plan.id);
      if (first) out.push(`  ${ids.get(owner) ?? ""} --- ${ids.get(first.id) ?? ""}`);
    }
  }
  for (const edge of graph.edges) {
    const from = ids.get(edge.from);
    const to = ids.get(edge.to);
    if (!from || !to) continue;
    out.push(edge.kind === "data" ? `  ${from} -. "${label(edge.variable ?? "")}" .-> ${to}` : `  ${from} --> ${to}`);
  }
  out.push(
    "  classDef problem stroke:#cf222e,stroke-width:2px",
    "  classDef over stroke:#9a6700,stroke-width:2px,stroke-dasharray:6 2",
  );
  if (marked.problem.length > 0) out.push(`  class ${marked.problem.join(",")} problem`);
  if (marked.over.length > 0) out.push(`  class ${marked.over.join(",")} over`);
  if (marked.approval.length > 0)
    out.push(
      "  classDef approval stroke:#8250df,stroke-width:3px,color:#8250df",
      `  class ${marked.approval.join(",")} approval`,
    );
  return `${out.join("\n")}\n`;
}

/** Text inside a quoted Mermaid label: entity codes for what the syntax would read, `<br/>` for lines. */
function label(value: string): string {
  return value
    .replace(/&/g, "#amp;")
    .replace(/"/g, "#quot;")
    .replace(/</g, "#lt;")
    .replace(/>/g, "#gt;")
    .replace(/\n/g, "<br/>");
}
