// A plan graph as Graphviz DOT: each nested plan a cluster (inside the cluster of the step
// that owns it), each step a box with its lines, order edges solid, data edges dashed and
// labelled with the variable; a step that can need approval doubly outlined in purple. Graphviz lays it out; `dot -Tsvg` draws it.

import { planCaption, stepApproval, stepLines, stepSummary } from "./labels";
import type { GraphStepNode, PlanGraph } from "./graphModel";
import { walkNesting } from "./nesting";

export function renderDot(graph: PlanGraph): string {
  const out = [
    "digraph plan {",
    '  graph [rankdir=TB, compound=true, fontname="Helvetica", fontsize=11];',
    '  node [shape=box, style="rounded", fontname="Helvetica", fontsize=11];',
    '  edge [fontname="Helvetica", fontsize=10];',
  ];
  const ids = walkNesting(graph, {
    plan(node, id, indent, body) {
      out.push(`${indent}subgraph cluster_${id} {`, `${indent}  label=${quote(planCaption(node))}; style=dashed;`);
      body();
      out.push(`${indent}}`);
    },
    step(node, id, indent, body) {
      const attributes = nodeAttributes(node, graph);
      if (!body) {
        out.push(`${indent}${id} [${attributes}];`);
        return;
      }
      // A step that owns plans: a cluster holding the step's own box and its plans.
      out.push(
        `${indent}subgraph cluster_${id} {`,
        `${indent}  label=""; style=solid;`,
        `${indent}  ${id} [${attributes}];`,
      );
      body();
      out.push(`${indent}}`);
    },
  });
  for (const edge of graph.edges) {
    const from = ids.get(edge.from);
    const to = ids.get(edge.to);
    if (!from || !to) continue;
    out.push(
      edge.kind === "data"
        ? `  ${from} -> ${to} [style=dashed, color="#0969da", label=${quote(edge.variable ?? "")}];`
        : `  ${from} -> ${to};`,
    );
  }
  out.push("}");
  return `${out.join("\n")}\n`;
}

function nodeAttributes(node: GraphStepNode, graph: PlanGraph): string {
  const attributes = [
    `label=${quote(stepLines(node).join("\n"))}`,
    `tooltip=${quote(stepSummary(node, graph))}`,
    `id=${quote(node.id)}`,
  ];
  if (node.problems.some((problem) => !problem.hostDependent)) attributes.push('color="#cf222e"', "penwidth=2");
  else if (node.overBudget.length > 0) attributes.push('color="#9a6700"', 'style="rounded,dashed"', "penwidth=2");
  // Its own attributes, so a problem's or the budget's colour still shows: a second outline.
  if (stepApproval(node)) attributes.push("peripheries=2", 'fontcolor="#8250df"', 'class="needs-approval"');
  return attributes.join(", ");
}

/** A DOT string: quotes and backslashes escaped, line breaks as `\n`. */
function quote(value: string): string {
  return `"${value.replace(/\\/g, "\\\\").replace(/"/g, '\\"').replace(/\n/g, "\\n")}"`;
}
