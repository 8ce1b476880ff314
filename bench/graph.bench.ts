// The plan graph on the generated plans (plans.ts: flat and nested, 100 and 1,000 steps): the
// graph model (buildPlanGraph), the elkjs layout and the SVG drawing, each beside the editor's
// analysis of the same text (analyzePlanText), the baseline a graph is built from; and the model
// with every tool step marked for approval (the forecast under a rule on `echo`, then the model),
// as the language server builds it under a profile with rules. The webview does the layout and the
// drawing; this measures them in Node, the same code.
//
//   npx tsc -b && node bench/out/graph.bench.js

import { cpus } from "node:os";
import { analyzePlanText } from "@rlm-plan/core/analysis";
import { buildPlanGraph } from "@rlm-plan/core/graph/graphModel";
import { layoutPlanGraph } from "@rlm-plan/core/graph/layout";
import { renderSvg } from "@rlm-plan/core/graph/svg";
import { approvalForecast } from "@rlm-plan/core/host/approvalSteps";
import { awaitedCalls, calls, measure } from "./measure";
import { planText, type PlanShape } from "./plans";

async function main(): Promise<void> {
  console.log(`plan graph · node ${process.version} · ${cpus()[0]?.model ?? "cpu"} × ${cpus().length}`);
  console.log(
    "shape   steps  analysis ms  model ms (×)  approvals ms (×)  layout ms (×)  svg ms (×)  collapsed@2 layout ms",
  );
  const rules = [{ tool: "echo", approvers: ["ada"], timeout: 60 }];
  for (const shape of ["flat", "nested"] as PlanShape[]) {
    for (const steps of [100, 1000]) {
      const text = planText(shape, steps);
      const analysis = analyzePlanText(text);
      const graph = buildPlanGraph(analysis);
      const collapsed = buildPlanGraph(analysis, { collapseDepth: 2 });
      const layout = await layoutPlanGraph(graph);
      const marked = () => buildPlanGraph(analysis, { approvals: approvalForecast(analysis.plan!, rules).steps });
      const [base, model, approvals, laid, drawn, folded] = await measure(
        calls(() => analyzePlanText(text)),
        calls(() => buildPlanGraph(analysis)),
        calls(marked),
        awaitedCalls(() => layoutPlanGraph(graph)),
        calls(() => renderSvg(graph, layout)),
        awaitedCalls(() => layoutPlanGraph(collapsed)),
      );
      const ratio = (ms: number) => `(${(ms / base.ms).toFixed(2)})`;
      console.log(
        [
          shape.padEnd(7),
          String(graph.steps).padStart(5),
          base.ms.toFixed(2).padStart(12),
          `${model.ms.toFixed(2)} ${ratio(model.ms)}`.padStart(14),
          `${approvals.ms.toFixed(2)} ${ratio(approvals.ms)}`.padStart(18),
          `${laid.ms.toFixed(1)} ${ratio(laid.ms)}`.padStart(15),
          `${drawn.ms.toFixed(2)} ${ratio(drawn.ms)}`.padStart(12),
          `${folded.ms.toFixed(1)} (${collapsed.steps} shown)`.padStart(22),
        ].join(" "),
      );
    }
  }
}

void main();
