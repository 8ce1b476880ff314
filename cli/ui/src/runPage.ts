// A run's page: what it was and how it ended, its plan graph with each step's state (the SVG the
// core's renderer drew, with the editor's classes), a timeline of steps and calls, each step's
// value or error at FILE:LINE:COL with the plan's text, failed attempts, its fork parent and
// children, and spent against the static worst case. The same page draws an HTML export.

import type { RunView, RunViewStep } from "../../src/ui/uiApi";
import { duration, fill, h, link, status, table, when } from "./dom";

/** Draws `view` into `main`; `standalone` (an export) has no links to other runs' pages. */
export function runPage(main: HTMLElement, view: RunView, standalone = false): void {
  const { run } = view;
  const file = run.planFile ?? run.plan;
  const runLink = (id: number) => (standalone ? `run ${id}` : link(`/run/${id}`, `run ${id}`));
  const facts: [string, Node | string][] = [
    ["Plan", `${file} (sha256 ${view.planDigest.slice(0, 12)})`],
    ["Started", `${when(run.startedAt)}${run.elapsedMs !== null ? `, ran ${duration(run.elapsedMs)}` : ""}`],
    ["From", `${run.origin}${run.label !== null ? ` ${run.label}` : ""}${run.mocked ? " (mocked)" : ""}`],
  ];
  if (view.hostFile) facts.push(["Host profile", view.hostFile]);
  if (view.forkOf) facts.push(["Forked from", h("span", {}, runLink(view.forkOf.run), ` at ${view.forkOf.step}`)]);
  if (view.forks.length > 0)
    facts.push([
      "Forks",
      h("span", {}, ...view.forks.flatMap((fork, i) => [i > 0 ? ", " : "", runLink(fork.id), ` at ${fork.step}`])),
    ]);
  const sections: Node[] = [
    h("h1", {}, `Run ${run.id} `, status(run.status)),
    h("dl", { class: "facts" }, ...facts.flatMap(([term, value]) => [h("dt", {}, term), h("dd", {}, value)])),
  ];
  if (view.error)
    sections.push(
      h(
        "p",
        { class: "run-error", role: "note" },
        `Error [${view.error.phase}/${view.error.kind}]: ${view.error.message}`,
      ),
    );
  if (!standalone)
    sections.push(
      h(
        "p",
        { class: "actions" },
        link(`/compare/${run.forkOf?.run ?? Math.max(1, run.id - 1)}/${run.id}`, "Compare with another run…"),
      ),
    );
  sections.push(graphSection(view), timelineSection(view), stepsSection(view, file));
  const failed = failedSection(view);
  if (failed) sections.push(failed);
  if (view.value !== null)
    sections.push(
      h(
        "section",
        { "aria-labelledby": "value-h" },
        h("h2", { id: "value-h" }, "Value"),
        h("pre", { class: "value" }, view.value),
      ),
    );
  sections.push(countersSection(view));
  if (view.planText !== null) sections.push(planTextSection(view.planText, file));
  fill(main, ...sections);
  main.dataset["status"] = run.status;
}

function graphSection(view: RunView): HTMLElement {
  const figure = h("figure", { class: "graph", "aria-label": "Plan graph with each step's state" });
  if (view.graphSvg === null) figure.append(h("p", { class: "muted" }, "The plan's text gives no graph."));
  else {
    // The core's renderer escapes every label and attribute (graph/svg.ts); parsed as SVG, never as HTML.
    const svg = new DOMParser().parseFromString(view.graphSvg, "image/svg+xml").documentElement;
    if (svg.nodeName === "svg") {
      svg.setAttribute("role", "group");
      svg.setAttribute("aria-label", "Plan graph");
      for (const step of svg.querySelectorAll("g.step")) {
        const found = view.steps.find((s) => s.id === step.getAttribute("data-id"));
        step.setAttribute("role", "img");
        step.setAttribute(
          "aria-label",
          `${found?.pointer ?? step.getAttribute("data-id") ?? ""} ${step.getAttribute("data-op") ?? ""}: ${found ? found.status : "not run"}`,
        );
      }
      figure.append(document.importNode(svg, true));
      // Enter on a step brings its row in the steps' table into view.
      for (const step of figure.querySelectorAll("g.step")) {
        const found = view.steps.find((s) => s.id === step.getAttribute("data-id"));
        step.addEventListener("keydown", (event) => {
          if ((event as KeyboardEvent).key === "Enter" && found) document.getElementById(rowId(found))?.focus();
        });
      }
    }
  }
  const legend = h(
    "p",
    { class: "legend" },
    ...["ok", "failed", "running", "cancelled", "skipped"].map((s) => h("span", { class: `key key-${s}` }, s)),
  );
  return h("section", { "aria-labelledby": "graph-h" }, h("h2", { id: "graph-h" }, "Graph"), figure, legend);
}

function timelineSection(view: RunView): HTMLElement {
  const started = view.steps.filter((step) => step.startedMs !== null);
  const end = Math.max(
    1,
    view.run.elapsedMs ?? 0,
    ...started.map((s) => (s.startedMs ?? 0) + (s.durationMs ?? 0)),
    ...view.calls.map((c) => c.startedMs + c.durationMs),
  );
  const bar = (start: number, length: number | null, kind: string, label: string) => {
    const line = h("li", { class: `lane ${kind}` }, h("span", { class: "lane-label" }, label));
    const track = h("span", { class: "track", "aria-hidden": "true" });
    const fill = h("span", { class: "bar" });
    // Set through the CSSOM: the policy admits no style attribute.
    fill.style.marginLeft = `${(start / end) * 100}%`;
    fill.style.width = `${Math.max(0.5, ((length ?? end - start) / end) * 100)}%`;
    track.append(fill);
    line.append(
      track,
      h("span", { class: "lane-time" }, `${duration(start)} +${length === null ? "…" : duration(length)}`),
    );
    return line;
  };
  const lanes: HTMLElement[] = [];
  for (const step of started.sort((a, b) => (a.startedMs ?? 0) - (b.startedMs ?? 0))) {
    lanes.push(
      bar(
        step.startedMs ?? 0,
        step.durationMs,
        `step ${step.status.replace(/ /g, "-")}`,
        `${step.pointer} ${step.operation} (${step.status})`,
      ),
    );
    for (const call of view.calls.filter((c) => c.step === step.pointer))
      lanes.push(
        bar(
          call.startedMs,
          call.durationMs,
          `call ${call.status === "ok" ? "ok" : "failed"}`,
          `  ${call.kind} ${call.name}${call.model ? ` (${call.model})` : ""}: ${call.status}`,
        ),
      );
  }
  return h(
    "section",
    { "aria-labelledby": "timeline-h" },
    h("h2", { id: "timeline-h" }, "Timeline"),
    lanes.length === 0
      ? h("p", { class: "muted" }, "No step started.")
      : h("ol", { class: "timeline", "aria-label": `Steps and calls over ${duration(end)}` }, ...lanes),
  );
}

function rowId(step: RunViewStep): string {
  return `step-${step.id.replace(/[^A-Za-z0-9_-]/g, "_")}`;
}

function stepsSection(view: RunView, file: string): HTMLElement {
  const rows = view.steps.map((step) => [
    step.pointer,
    `${step.operation}${step.bind !== null ? ` → ${step.bind}` : ""}`,
    status(step.status),
    `${step.attempts}${step.failedAttempts > 0 ? ` (${step.failedAttempts} failed)` : ""}`,
    duration(step.durationMs),
    step.line === null
      ? ""
      : h("a", { href: `#L${step.line}`, class: "place" }, `${file}:${step.line}:${step.column ?? 1}`),
    step.error
      ? `[${step.error.phase}/${step.error.kind}] ${step.error.message}`
      : step.value
        ? step.value.preview
        : "",
  ]);
  // Tokens and money, once the journal records them (recordedSteps.ts' StepUsage): a column of their own.
  const usage = view.steps.some((step) => step.usage !== null || step.worstCase !== null);
  const currency = view.worstCase.currency;
  if (usage)
    rows.forEach((row, i) => {
      const step = view.steps[i];
      const spent = step?.usage;
      row.push(
        spent
          ? `${spent.inputTokens} in, ${spent.outputTokens} out${spent.cost === null ? "" : `, ${spent.cost} ${view.run.usage?.currency ?? currency}`}${spent.estimated ? " (~)" : ""}`
          : "",
        step ? stepWorstText(step, currency) : "",
      );
    });
  const steps = table(
    "Each step: how it ended, where it is, what it bound or why it failed",
    [
      "Step",
      "Operation",
      "Status",
      "Attempts",
      "Time",
      "At",
      "Value or error",
      ...(usage ? ["Tokens and cost", "Worst case"] : []),
    ],
    rows,
  );
  view.steps.forEach((step, i) => {
    const row = steps.tBodies[0]?.rows[i];
    if (row) {
      row.id = rowId(step);
      row.tabIndex = -1;
    }
  });
  // A place link moves to the line in the plan's text (a route would take the hash).
  steps.addEventListener("click", (event) => {
    const anchor = (event.target as Element).closest("a.place");
    if (!anchor) return;
    event.preventDefault();
    const line = document.getElementById((anchor.getAttribute("href") ?? "").slice(1));
    line?.scrollIntoView({ block: "center" });
    line?.focus();
  });
  return h("section", { "aria-labelledby": "steps-h" }, h("h2", { id: "steps-h" }, "Steps"), steps);
}

function failedSection(view: RunView): HTMLElement | undefined {
  const retried = view.steps.filter((step) => step.failedAttempts > 0);
  const calls = view.calls.filter((call) => call.status !== "ok");
  if (retried.length === 0 && calls.length === 0) return undefined;
  return h(
    "section",
    { "aria-labelledby": "failed-h" },
    h("h2", { id: "failed-h" }, "Failed attempts"),
    h(
      "ul",
      {},
      ...retried.map((step) =>
        h(
          "li",
          {},
          `${step.pointer} ${step.operation}: ${step.failedAttempts} failed attempt${step.failedAttempts === 1 ? "" : "s"} of ${step.attempts}`,
        ),
      ),
      ...calls.map((call) =>
        h("li", {}, `${call.step} ${call.kind} ${call.name}: ${call.status}${call.error ? `: ${call.error}` : ""}`),
      ),
    ),
  );
}

function countersSection(view: RunView): HTMLElement {
  const cell = (value: number | null) => (value === null ? "–" : String(value));
  const rows: string[][] = view.counters.map((c) => [
    c.name.replace(/_/g, " "),
    cell(c.spent),
    cell(c.estimate),
    cell(c.budget),
  ]);
  rows.push(...moneyRows(view));
  const worst = view.worstCase;
  return h(
    "section",
    { "aria-labelledby": "spent-h" },
    h("h2", { id: "spent-h" }, "Spent"),
    table("Spent against the static worst case and the budget", ["Counter", "Spent", "Worst case", "Budget"], rows),
    worst.unknown !== null
      ? h("p", { class: "muted" }, `The worst case in tokens and money is unknown: ${worst.unknown}.`)
      : null,
  );
}

/**
 * Tokens and money spent (the run's model calls, as `runs show` sums them) against the worst case
 * recomputed from the plan and host profile the run recorded; "unknown (why)" where a figure has none.
 */
function moneyRows(view: RunView): string[][] {
  const worst = view.worstCase;
  const usage = view.run.usage;
  if (worst.modelSteps === 0 && usage === undefined) return [];
  const mark = usage?.estimated ? "~" : "";
  const known = (value: number | null, reason: string | null, text = String(value)) =>
    value === null ? `unknown (${reason ?? "no figure"})` : text;
  const money = (amount: number) => `${amount} ${worst.currency}`;
  const spentMoney = () => {
    if (usage === undefined) return money(0);
    if (usage.unpriced === 0) return money(usage.cost ?? 0);
    const calls = `${usage.unpriced} unpriced call${usage.unpriced === 1 ? "" : "s"}`;
    return `unknown (${usage.cost === null ? calls : `${money(usage.cost)} + ${calls}`})`;
  };
  return [
    ["input tokens", `${mark}${usage?.inputTokens ?? 0}`, known(worst.inputTokens, worst.tokensReason), "–"],
    ["output tokens", `${mark}${usage?.outputTokens ?? 0}`, known(worst.outputTokens, worst.tokensReason), "–"],
    [
      "cost",
      spentMoney(),
      known(worst.cost, worst.costReason, money(worst.cost ?? 0)),
      worst.maxCost === null ? "–" : money(worst.maxCost),
    ],
  ];
}

/** A model step's worst case in the steps' table: "1 call, at most 10+10 tokens and 2 EUR". */
function stepWorstText(step: RunViewStep, currency: string): string {
  const worst = step.worstCase;
  if (worst === null) return "";
  const calls = `${worst.runs} call${worst.runs === 1 ? "" : "s"}`;
  const tokens = `${worst.inputTokens}+${worst.outputTokens === null ? "?" : worst.outputTokens} tokens`;
  if (worst.cost === null) return `${calls}, at most ${tokens}; cost unknown (${worst.reason ?? "no figure"})`;
  return `${calls}, at most ${tokens} and ${worst.cost} ${currency}`;
}

function planTextSection(text: string, file: string): HTMLElement {
  const lines = text.split("\n");
  const list = h("ol", { class: "plan-text", "aria-label": `${file}, as the run ran it` });
  lines.forEach((line, i) => list.append(h("li", { id: `L${i + 1}`, tabindex: "-1" }, h("code", {}, line || " "))));
  return h("section", { "aria-labelledby": "plan-h" }, h("h2", { id: "plan-h" }, "Plan text"), list);
}
