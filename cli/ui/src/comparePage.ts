// Two runs side by side, as `runs diff` compares them (the core's journal/runDiff.ts): the
// verdict, the first divergence at FILE:LINE:COL, and each step that differs with both runs'
// outcomes.

import type { StepOutcome } from "@rlm-plan/core/journal";
import type { RunCompare } from "../../src/ui/uiApi";
import { getJson } from "./api";
import { duration, fill, h, link, status, table } from "./dom";

export async function comparePage(main: HTMLElement, a: string, b: string): Promise<void> {
  const form = h("form", { class: "filters", "aria-label": "Runs to compare" });
  const input = (name: string, value: string, label: string) =>
    h("label", {}, h("span", {}, label), h("input", { type: "number", min: "1", name, value, required: "" }));
  form.append(input("a", a, "Run A"), input("b", b, "Run B"), h("button", { type: "submit" }, "Compare"));
  form.addEventListener("submit", (event) => {
    event.preventDefault();
    const data = new FormData(form);
    location.hash = `/compare/${String(data.get("a"))}/${String(data.get("b"))}`;
  });
  const result = h("div", { id: "compare" });
  fill(main, h("h1", {}, `Compare run ${a} with run ${b}`), form, result);
  let diff: RunCompare;
  try {
    diff = await getJson<RunCompare>(`/api/diff?a=${encodeURIComponent(a)}&b=${encodeURIComponent(b)}`);
  } catch (error) {
    fill(
      result,
      h("p", { class: "error", role: "alert" }, `The runs could not be compared: ${(error as Error).message}`),
    );
    return;
  }
  const s = diff.summary;
  const differing = s.changed + s.added + s.removed;
  const verdict = diff.agree
    ? `No differences (${s.steps} steps alike).`
    : differing === 0
      ? "The steps agree; the runs ended differently."
      : `${differing} of ${s.steps} steps differ (${s.changed} changed, ${s.added} added, ${s.removed} removed).`;
  const side = (run: RunCompare["a"]) =>
    h(
      "div",
      { class: "side" },
      h("h2", {}, link(`/run/${run.id}`, `Run ${run.id}`), " ", status(run.status)),
      h("p", {}, `${run.planFile ?? run.plan}, ${duration(run.elapsedMs)}`),
      run.error
        ? h("p", { class: "run-error" }, `[${run.error.phase}/${run.error.kind}] ${run.error.message}`)
        : h("p", {}, `value ${run.value?.preview ?? "–"}`),
    );
  const parts: Node[] = [
    h("p", { class: `verdict ${diff.agree ? "agree" : "differ"}`, role: "status" }, verdict),
    h("div", { class: "sides" }, side(diff.a), side(diff.b)),
  ];
  if (diff.firstDivergence) {
    const step = diff.firstDivergence;
    const outcome = step.b ?? step.a;
    const file = (step.b ? diff.b : diff.a).planFile ?? diff.b.plan;
    parts.push(
      h(
        "p",
        { class: "divergence" },
        `First divergence: ${file}${outcome?.line ? `:${outcome.line}:${outcome.column ?? 1}` : ""} ${step.pointer} ${outcome?.operation ?? ""}`,
      ),
    );
  }
  const rows = diff.steps
    .filter((step) => step.change !== "same")
    .map((step) => [
      step.pointer,
      step.change,
      step.change === "changed" ? step.differs.join(", ") : "step",
      outcomeCell(step.a),
      outcomeCell(step.b),
    ]);
  if (rows.length > 0)
    parts.push(
      table(
        "The steps that differ, side by side",
        ["Step", "Change", "What", `Run ${diff.a.id}`, `Run ${diff.b.id}`],
        rows,
      ),
    );
  fill(result, ...parts);
}

function outcomeCell(outcome: StepOutcome | null): Node | string {
  if (!outcome) return "–";
  const lines = [
    `${outcome.operation}${outcome.bind === null ? "" : ` → ${outcome.bind}`}: ${outcome.status}`,
    outcome.error
      ? `[${outcome.error.phase}/${outcome.error.kind}] ${outcome.error.message}`
      : outcome.value
        ? `value ${outcome.value.preview}`
        : "",
    outcome.failedAttempts > 0 ? `${outcome.failedAttempts} failed attempts` : "",
    outcome.calls
      .map((c) => `${c.kind} ${c.name} ×${c.count}${c.failed > 0 ? ` (${c.failed} failed)` : ""}`)
      .join(", "),
  ].filter((line) => line !== "");
  return h("span", { class: "outcome" }, ...lines.flatMap((line, i) => [i > 0 ? h("br") : null, line]));
}
