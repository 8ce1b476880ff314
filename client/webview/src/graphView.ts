// The plan graph webview: lays the server's graph out with elkjs and draws it with the runtime's
// SVG renderer (a big graph only around what is in view: viewWindow.ts, windowDrawing.ts); pan and
// zoom, click to reveal a step, hover for its text (with each failed attempt), the editor's cursor as
// a highlight, run states as classes, failed attempts as a badge, export (SVG) and copy (PNG).

import { layoutPlanGraph, type Box, type GraphLayout } from "@rlm-plan/core/graph/layout";
import { graphFromWire, renderSvg, type PlanGraph } from "@rlm-plan/core/graph/render";
import { PAGE_MESSAGES_ID, type FromWebview, type StepRunState, type ToWebview } from "../../src/graph/messages";
import { loadElkOnDemand } from "./elkLoader";
import { postGraphEdit } from "./graphEditKeys";
import { copyImage } from "./imageCopy";
import { setRecordedRun } from "./rerunMenu";
import { attemptsBadge, failureText, runLabel } from "./runLabels";
import { around, BandIndex, holds, inView, LABELS_FROM_SCALE, WINDOWED_ABOVE_NODES } from "./viewWindow";
import { WindowDrawing } from "./windowDrawing";

interface VsCodeApi {
  postMessage(message: FromWebview): void;
}
declare function acquireVsCodeApi(): VsCodeApi;

/** When the script began to run (after the page and this bundle loaded), as Date.now() time. */
const scriptRan = performance.timeOrigin + performance.now();

// The page's first script took VS Code's API (a page gets it once) to say it was loading.
const vscode = (window as { rlmPlanVsCode?: VsCodeApi }).rlmPlanVsCode ?? acquireVsCodeApi();

loadElkOnDemand(document.currentScript as HTMLScriptElement | null);
const canvas = document.getElementById("canvas") as HTMLDivElement;
const stage = document.getElementById("stage") as HTMLDivElement;
const status = document.getElementById("status") as HTMLDivElement;
const tooltip = document.getElementById("tooltip") as HTMLDivElement;
const post = (message: FromWebview) => vscode.postMessage(message);

let graph: PlanGraph | undefined;
let layout: GraphLayout | undefined;
/** The part of a big graph in the page (the drawing's coordinates); undefined when it is drawn whole. */
let drawnWindow: Box | undefined;
/** A big graph's drawing, kept to the window around the view (undefined when the graph is drawn whole). */
let windowed: WindowDrawing | undefined;
/** Whether the boxes in the page carry their text (a big graph zoomed far out: not). */
let drawnLabels = true;
let selected: string | null = null;
let runStates: Readonly<Record<string, StepRunState>> = {};
let runSummary = "";
const view = { x: 16, y: 16, scale: 1 };
/** The room kept around a drawing that is fitted into the view. */
const MARGIN = 16;
/** A first drawing wider than its view is shrunk to fit, down to this scale; its top step is centred below it. */
const MIN_FIT_SCALE = 0.25;
let drawing = 0;
/** How long the last layout and drawing took (shown, and measured by the e2e test). */
let drawnMs = 0;

function applyView(): void {
  stage.style.transform = `translate(${view.x}px, ${view.y}px) scale(${view.scale})`;
  if (windowed) scheduleWindowCheck();
}

let windowCheck = 0;
let settleTimer: number | undefined;
/** How long a pan or zoom rests before what can wait is drawn (the boxes' text, a smaller window). */
const SETTLE_MS = 150;

/**
 * Once a frame at most: a big graph's window follows the view at once when the view leaves it;
 * what only changes its detail (the text shown or hidden past LABELS_FROM_SCALE, a window grown
 * far past the view after zooming out and in again) waits until the gesture rests, so that no
 * frame of a gesture draws the whole window again.
 */
function scheduleWindowCheck(): void {
  if (windowCheck) return;
  windowCheck = requestAnimationFrame(() => {
    windowCheck = 0;
    if (!windowed) return;
    const shown = viewBox();
    if (!drawnWindow || !holds(drawnWindow, shown)) return paint();
    window.clearTimeout(settleTimer);
    const wanted = around(shown);
    if (drawnLabels !== labelsWanted() || drawnWindow.width * drawnWindow.height > 4 * wanted.width * wanted.height)
      settleTimer = window.setTimeout(paint, SETTLE_MS);
  });
}

function labelsWanted(): boolean {
  return !windowed || view.scale >= LABELS_FROM_SCALE;
}

/**
 * The canvas's place and size, measured again after the page's size changes: read from the page
 * in every frame and wheel turn of a gesture, it made the browser recompute the page's style
 * first (for the transform just set).
 */
let canvasRect = { left: 0, top: 0, width: 0, height: 0 };

function canvasFrame(): typeof canvasRect {
  if (canvasRect.width === 0) {
    const { left, top } = canvas.getBoundingClientRect();
    canvasRect = { left, top, width: canvas.clientWidth, height: canvas.clientHeight };
  }
  return canvasRect;
}

/** The part of the drawing the canvas shows. */
function viewBox(): Box {
  const { width, height } = canvasFrame();
  return inView(view, width, height);
}

/**
 * Puts the drawing in the page: whole, or for a big graph the part around the view. The page's
 * stylesheet (nonce'd) styles it; the SVG's own <style> is for exports, and its steps' <title>s
 * give way to the hover text. Run states and the selection are marked on what is drawn.
 */
function paint(): void {
  if (!graph || !layout) return;
  drawnLabels = labelsWanted();
  if (windowed) {
    window.clearTimeout(settleTimer);
    drawnWindow = around(viewBox());
    applyStates(windowed.draw(drawnWindow, drawnLabels));
  } else {
    drawnWindow = undefined;
    stage.innerHTML = renderSvg(graph, layout, { titles: false }).replace(/<style>[\s\S]*?<\/style>/, "");
    applyStates();
  }
  markSelected();
}

/**
 * The first drawing's view: at full size and centred when it fits the view's width; shrunk to
 * fit when it does not; below MIN_FIT_SCALE, its top step centred (never cut off at the right).
 */
function fitView(layout: GraphLayout, top: Box | undefined): void {
  const frame = canvas.getBoundingClientRect();
  if (frame.width <= 0) return; // not laid out yet: the view keeps its defaults
  const room = frame.width - 2 * MARGIN;
  view.scale = layout.width <= room ? 1 : Math.max(MIN_FIT_SCALE, room / layout.width);
  view.y = MARGIN;
  const width = layout.width * view.scale;
  if (width <= room) view.x = (frame.width - width) / 2;
  else if (top) view.x = frame.width / 2 - (top.x + top.width / 2) * view.scale;
  else view.x = MARGIN;
  stage.style.transform = `translate(${view.x}px, ${view.y}px) scale(${view.scale})`;
}

async function draw(next: PlanGraph, title: string, receivedAt: number): Promise<void> {
  const ticket = ++drawing;
  const started = performance.now();
  const laidOut = await layoutPlanGraph(next);
  if (ticket !== drawing) return; // a newer graph arrived while this one was laid out
  const first = graph === undefined;
  graph = next;
  layout = laidOut;
  windowed =
    next.nodes.length > WINDOWED_ABOVE_NODES
      ? new WindowDrawing(stage, next, laidOut, new BandIndex(next, laidOut))
      : undefined;
  document.title = title;
  // Fitted first: a big graph's window is the part of it in the fitted view.
  if (first) fitView(laidOut, laidOut.boxes.get(next.nodes.find((node) => node.kind === "step")?.id ?? ""));
  paint();
  const states = markedSteps();
  drawnMs = performance.now() - started;
  updateStatus();
  post({
    type: "rendered",
    ms: drawnMs,
    steps: next.steps,
    nodes: next.nodes.length,
    states,
    receivedAt,
    drawnAt: performance.timeOrigin + performance.now(),
  });
}

function updateStatus(): void {
  if (!graph) return;
  const hidden = graph.hiddenSteps > 0 ? ` (+${graph.hiddenSteps} in collapsed steps)` : "";
  const problems = graph.problems.length > 0 ? ` · ${graph.problems.map((p) => p.message).join("; ")}` : "";
  const run = runSummary ? ` · ${runSummary}` : "";
  status.textContent = `${graph.steps} steps${hidden} · drawn in ${Math.round(drawnMs)} ms${run}${problems}`;
}

function stepElement(id: string): SVGGElement | undefined {
  for (const element of Array.from(stage.querySelectorAll<SVGGElement>("g.step")))
    if (element.dataset.id === id) return element;
  return undefined;
}

const RUN_CLASSES = ["running", "ok", "failed", "cancelled", "skipped", "failed-attempts"];

/** How many of the graph's steps have a run state (drawn or not). */
function markedSteps(): number {
  return graph?.nodes.filter((node) => node.kind === "step" && runStates[node.id]).length ?? 0;
}

/** Marks each drawn step (or just `elements`, the ones a window's move added) with its run state. */
function applyStates(elements: readonly Element[] = Array.from(stage.querySelectorAll("g.step"))): void {
  for (const element of elements as SVGGElement[]) {
    element.classList.remove(...RUN_CLASSES);
    for (const old of Array.from(element.querySelectorAll("text.run, text.attempts"))) old.remove();
    const state = element.dataset.id ? runStates[element.dataset.id] : undefined;
    if (!state) continue;
    element.classList.add(state.state);
    const rect = element.querySelector("rect");
    if (!rect) continue;
    const x = Number(rect.getAttribute("x"));
    // Just above the box, in the gap between layers: the step's own lines stay readable.
    const y = String(Number(rect.getAttribute("y")) - 3);
    const label = document.createElementNS("http://www.w3.org/2000/svg", "text");
    label.setAttribute("class", "run");
    label.setAttribute("x", String(x + Number(rect.getAttribute("width")) - 6));
    label.setAttribute("y", y);
    label.setAttribute("text-anchor", "end");
    label.textContent = runLabel(state);
    element.appendChild(label);
    const attempts = attemptsBadge(state);
    if (!attempts) continue;
    element.classList.add("failed-attempts");
    const badge = document.createElementNS("http://www.w3.org/2000/svg", "text");
    badge.setAttribute("class", "attempts");
    // Just below the box: above it is the run's label, which a narrow box has no room beside.
    badge.setAttribute("x", String(x + 6));
    badge.setAttribute("y", String(Number(rect.getAttribute("y")) + Number(rect.getAttribute("height")) + 11));
    badge.textContent = attempts;
    element.appendChild(badge);
  }
}

/** Marks the selected step, when it is drawn. */
function markSelected(): void {
  for (const element of Array.from(stage.querySelectorAll("g.step.selected"))) element.classList.remove("selected");
  const element = selected ? stepElement(selected) : undefined;
  element?.classList.add("selected");
}

function highlight(id: string | null, reveal: boolean): void {
  selected = id;
  markSelected();
  const box = id ? layout?.boxes.get(id) : undefined;
  if (!reveal || !box) return;
  // Bring the node into view when it is outside it (drawn or not: a big graph draws it once
  // there); otherwise leave the view alone.
  const shown = viewBox();
  if (holds(shown, box)) return;
  view.x += (shown.x + shown.width / 2 - (box.x + box.width / 2)) * view.scale;
  view.y += (shown.y + shown.height / 2 - (box.y + box.height / 2)) * view.scale;
  applyView();
}

/** The exported SVG: the whole drawing with its own stylesheet and titles, and the run's states. */
function exportedSvg(): string {
  if (!graph || !layout) return "";
  const document = new DOMParser().parseFromString(renderSvg(graph, layout), "image/svg+xml");
  for (const element of Array.from(document.querySelectorAll("g.step"))) {
    const state = runStates[element.getAttribute("data-id") ?? ""];
    if (state) element.setAttribute("class", `${element.getAttribute("class") ?? ""} ${state.state}`);
  }
  return new XMLSerializer().serializeToString(document);
}

/** The number of the last graph drawn (a graph sent early and again is drawn once). */
let lastGraph = -1;

/** What the extension sent, posted or written into the page (the messages there when it was set). */
function received(message: ToWebview): void {
  switch (message.type) {
    case "graph":
      if (message.seq !== undefined) {
        if (message.seq <= lastGraph) break;
        lastGraph = message.seq;
      }
      draw(graphFromWire(message.graph), message.title, performance.timeOrigin + performance.now()).catch(
        (error: unknown) => post({ type: "error", message: error instanceof Error ? error.message : String(error) }),
      );
      break;
    case "select":
      highlight(message.id, true);
      break;
    case "run":
      runStates = message.states;
      runSummary = message.summary;
      applyStates();
      updateStatus();
      break;
    case "hover":
      if (hovered === message.id)
        showTooltip([failureText(runStates[message.id]), message.text].filter(Boolean).join("\n\n"));
      break;
    case "export":
      post({ type: "svg", text: exportedSvg() });
      break;
    case "copyImage":
      void copyImage(exportedSvg(), post);
      break;
    case "rerunMenu":
      setRecordedRun(message.recorded);
      break;
  }
}

window.addEventListener("message", (event: MessageEvent<ToWebview>) => received(event.data));

// Click reveals the step; keyboard: Enter on a focused node does the same.
const stepOf = (target: EventTarget | null) => (target as Element | null)?.closest?.<SVGGElement>("g.step") ?? null;
stage.addEventListener("click", (event) => {
  const element = stepOf(event.target);
  if (element?.dataset.id && !dragged) post({ type: "reveal", id: element.dataset.id });
});
stage.addEventListener("keydown", (event) => {
  const element = stepOf(event.target);
  if (event.key === "Enter" && element?.dataset.id) post({ type: "reveal", id: element.dataset.id });
});
stage.addEventListener("keydown", (event) => postGraphEdit(event, stepOf(event.target)?.dataset.id ?? selected, post));

// Hover: ask the language server (through the extension) for the step's hover text.
let hovered: string | undefined;
let hoverTimer: number | undefined;
let pointer = { x: 0, y: 0 };
stage.addEventListener("mousemove", (event) => {
  pointer = { x: event.clientX, y: event.clientY };
  const id = stepOf(event.target)?.dataset.id;
  if (id === hovered) return;
  hovered = id;
  tooltip.hidden = true;
  window.clearTimeout(hoverTimer);
  if (!id) return;
  // The run's failures show at once; the server's hover text joins them when it comes.
  const failures = failureText(runStates[id]);
  if (failures) showTooltip(failures);
  hoverTimer = window.setTimeout(() => post({ type: "hover", id }), 250);
});
stage.addEventListener("mouseleave", () => {
  hovered = undefined;
  tooltip.hidden = true;
});

function showTooltip(text: string): void {
  tooltip.textContent = text;
  tooltip.style.left = `${pointer.x + 12}px`;
  tooltip.style.top = `${pointer.y + 12}px`;
  tooltip.hidden = false;
}

// Pan by dragging the background, zoom with the wheel around the pointer.
let drag: { x: number; y: number } | undefined;
let dragged = false;
canvas.addEventListener("pointerdown", (event) => {
  drag = { x: event.clientX, y: event.clientY };
  dragged = false;
});
window.addEventListener("pointermove", (event) => {
  if (!drag) return;
  const dx = event.clientX - drag.x;
  const dy = event.clientY - drag.y;
  if (Math.abs(dx) + Math.abs(dy) > 3) dragged = true;
  if (!dragged) return;
  view.x += dx;
  view.y += dy;
  drag = { x: event.clientX, y: event.clientY };
  applyView();
});
window.addEventListener("pointerup", () => {
  drag = undefined;
});
canvas.addEventListener(
  "wheel",
  (event) => {
    event.preventDefault();
    const factor = Math.exp(-event.deltaY * 0.0015);
    const scale = Math.min(4, Math.max(0.05, view.scale * factor));
    const frame = canvasFrame();
    const px = event.clientX - frame.left;
    const py = event.clientY - frame.top;
    view.x = px - ((px - view.x) * scale) / view.scale;
    view.y = py - ((py - view.y) * scale) / view.scale;
    view.scale = scale;
    applyView();
  },
  { passive: false },
);

// A big graph's window follows the view's size too.
window.addEventListener("resize", () => {
  canvasRect.width = 0; // measured again when next read
  applyView();
});

applyView();
post({ type: "ready", pageStarted: performance.timeOrigin, scriptRan });
// The messages the page was set with (graphPage.ts): the first graph drawn now, with no trip
// through VS Code after the page is there.
try {
  const written = document.getElementById(PAGE_MESSAGES_ID)?.textContent;
  for (const message of written ? (JSON.parse(written) as ToWebview[]) : []) received(message);
} catch (error) {
  post({ type: "error", message: error instanceof Error ? error.message : String(error) });
}
