// `rlm-plan graph FILE [--format svg|dot|mermaid|json]`: the plan as a picture, from the same graph
// model the editor draws, under the host profile (grants, budget, and the steps its approval
// rules can hold: the session's forecast). SVG is laid out with the same engine as the editor's
// view (elkjs); DOT and Mermaid leave the layout to Graphviz and Mermaid; JSON is the model itself. The picture goes to stdout (or
// --output FILE); problems that stop a graph go to stderr as check prints them. Exit 0 with a
// graph (problems in the plan are drawn on their steps), 1 when the file gives no graph, 2 usage.

import { writeFileSync } from "node:fs";
import { buildPlanGraph, type PlanGraph } from "@rlm-plan/core/graph";
import { renderDot, renderMermaid } from "@rlm-plan/core/graph/render";
import { parseGraphArgs, type GraphFormat } from "./args";
import { hostErrorLines, sessionFor } from "./checkSession";
import { jsonText, problemLines, readErrorLine, usageErrorText, type Io } from "./output";
import { readErrorOf, reportText } from "./report";

export async function graphCommand(argv: readonly string[], io: Io): Promise<number> {
  const command = parseGraphArgs(argv);
  if (command.kind === "usage") {
    io.err(usageErrorText(command.message, "graph"));
    return 2;
  }
  if (command.kind === "help") {
    io.out(`${GRAPH_HELP}\n`);
    return 0;
  }
  const { file } = command;
  const resolved = sessionFor(file, command, io.sink.mask);
  if (!resolved.ok) {
    if ("readError" in resolved) {
      io.err(readErrorLine(file, readErrorOf(resolved.code, resolved.readError)));
      return 1;
    }
    io.err(hostErrorLines(resolved.errors));
    return 2;
  }
  const { session } = resolved;
  const policy = session.policy;
  const report = reportText(file, session.text ?? "", policy);
  // The analysis is absent only for a model reply, which this command does not read.
  const graph = report.analysis
    ? buildPlanGraph(report.analysis, {
        capabilitiesKnown: policy.capabilities !== undefined,
        collapseDepth: command.collapseDepth,
        approvals: session.approvalForecast()?.steps,
      })
    : undefined;
  if (graph === undefined || graph.nodes.length === 0) {
    io.err(`${report.problems.flatMap((problem) => problemLines(file, problem, io.style)).join("\n")}\n`);
    io.err(`rlm-plan: ${file}: no plan to draw\n`);
    return 1;
  }
  const picture = await render(graph, command.format);
  // A label shows the start of whatever the plan holds, a key written in it too: masked in a file as on stdout.
  if (command.output !== undefined) writeFileSync(command.output, io.sink.mask.mask(picture));
  else if (command.format === "svg") io.sink.stdout.xml(picture);
  else if (command.format === "json") io.sink.stdout.json(picture);
  else io.out(picture);
  return 0;
}

async function render(graph: PlanGraph, format: GraphFormat): Promise<string> {
  switch (format) {
    case "json":
      return jsonText(graph);
    case "dot":
      return renderDot(graph);
    case "mermaid":
      return renderMermaid(graph);
    case "svg": {
      // The layout engine is loaded only for SVG: it is most of the CLI's start-up otherwise.
      const { layoutPlanGraph } = await import("@rlm-plan/core/graph/layout");
      const { renderSvg } = await import("@rlm-plan/core/graph/render");
      return renderSvg(graph, await layoutPlanGraph(graph));
    }
  }
}

export const GRAPH_HELP = `usage: rlm-plan graph FILE [--format svg|dot|mermaid|json] [--output FILE] [--collapse-depth N]
                      [--host FILE] [--capabilities LIST] [--budget JSON|default]

Draws the plan: a node per step (op, binding, worst case; marked when over budget, with a
problem, or when an approval rule of the host profile can hold it, with how often at worst),
nested plans (rlm, retry, parallel branches) inside their step, order edges and data edges
(from the step that binds a variable to each step that reads it).

  --format svg|dot|mermaid|json
                            svg (default): laid out with elkjs, themeable with CSS variables;
                            dot: Graphviz; mermaid: a flowchart for Markdown (GitHub renders it);
                            json: the graph model (nodes, edges, worst cases, approvals)
  --output FILE             write the picture to FILE instead of stdout
  --collapse-depth N        draw nested plans down to depth N (the root plan is 1); deeper ones
                            stay inside their step, counted
  --host, --capabilities, --budget   as for check: what grants, budget and approval marks are
                            drawn against`;
