// The "Compare Runs" page's script: each run's plan graph laid out and drawn by the core's
// renderer (as the graph view draws it), its steps given the diff's style, and the table of
// per-step differences. Everything comes from the data block the extension wrote into the page.

import { layoutPlanGraph } from "@rlm-plan/core/graph/layout";
import { graphFromWire, renderSvg } from "@rlm-plan/core/graph/render";
import type { StepDiff } from "@rlm-plan/core/journal";
import { COMPARE_DATA_ID, type CompareMessage, type CompareSide } from "../../src/compare/compareMessages";
import { loadElkOnDemand } from "./elkLoader";

loadElkOnDemand(document.currentScript as HTMLScriptElement | null);

const compare = JSON.parse(document.getElementById(COMPARE_DATA_ID)?.textContent ?? "null") as CompareMessage | null;
if (compare) void show(compare);

async function show({ a, b, diff }: CompareMessage): Promise<void> {
  const first = diff.firstDivergence;
  const summary = document.getElementById("summary") as HTMLElement;
  const { same, changed, added, removed } = diff.summary;
  summary.textContent = diff.agree
    ? `Runs ${diff.a.id} and ${diff.b.id} agree: ${same} steps alike.`
    : `Runs ${diff.a.id} and ${diff.b.id} differ: first at ${first ? first.pointer : "the end"} · ${changed} changed, ${added} added, ${removed} removed, ${same} alike.`;
  table(diff.steps, first);
  await Promise.all([side("side-a", a), side("side-b", b)]);
}

async function side(id: string, data: CompareSide): Promise<void> {
  const section = document.getElementById(id) as HTMLElement;
  const heading = document.createElement("h2");
  heading.textContent = data.title;
  section.append(heading);
  if (!data.graph) {
    section.append("This run's plan could not be drawn.");
    return;
  }
  const graph = graphFromWire(data.graph);
  const drawing = document.createElement("div");
  // The core's own SVG of the core's own graph (its texts escaped there), as the graph view inserts it.
  drawing.innerHTML = renderSvg(graph, await layoutPlanGraph(graph));
  for (const step of Array.from(drawing.querySelectorAll<SVGGElement>("g.step"))) {
    const mark = data.marks[step.dataset.id ?? ""];
    if (mark && mark !== "same") step.classList.add(`diff-${mark}`);
  }
  section.append(drawing);
}

function table(steps: readonly StepDiff[], first: StepDiff | null): void {
  const element = document.getElementById("steps") as HTMLTableElement;
  const head = element.createTHead().insertRow();
  for (const title of ["Step", "Change", "Differs in", "Run A", "Run B"]) {
    const th = document.createElement("th");
    th.textContent = title;
    head.append(th);
  }
  const body = element.createTBody();
  for (const step of steps) {
    const row = body.insertRow();
    row.className = step === first || step.pointer === first?.pointer ? "first" : step.change;
    cell(row, step.pointer, "code");
    cell(row, step.pointer === first?.pointer ? `${step.change} (first divergence)` : step.change).className = "change";
    cell(row, step.differs.join(", "));
    cell(row, outcome(step.a));
    cell(row, outcome(step.b));
  }
}

function cell(row: HTMLTableRowElement, text: string, wrap?: "code"): HTMLTableCellElement {
  const td = row.insertCell();
  if (wrap) {
    const code = document.createElement("code");
    code.textContent = text;
    td.append(code);
  } else td.textContent = text;
  return td;
}

function outcome(step: StepDiff["a"]): string {
  if (!step) return "(not in this plan)";
  const bind = step.bind === null ? "" : ` → ${step.bind}`;
  const value = step.value ? ` = ${step.value.preview}` : "";
  const error = step.error ? ` [${step.error.kind}] ${step.error.message}` : "";
  const took = step.durationMs === null ? "" : ` · ${step.durationMs} ms`;
  return `${step.operation}${bind}: ${step.status}${value}${error}${took}`;
}
