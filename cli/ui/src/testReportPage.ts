// The HTML test report (`rlm-plan test --format html`): the cases with their verdicts, and each
// case's page (#/case/N): its failures with expected and actual, then its run as the run page
// draws it. Everything from the report the page carries; no server, no network.

import type { TestReportCase, TestReportView } from "../../src/ui/uiApi";
import { duration, fill, h, link, status, table } from "./dom";
import { runPage } from "./runPage";

/** Draws the route (#/case/N or the list) of the report into `main`. */
export function testReportPage(main: HTMLElement, report: TestReportView, hash: string): void {
  const n = /^#\/case\/(\d+)$/.exec(hash)?.[1];
  const one = n === undefined ? undefined : report.cases[Number(n)];
  if (one) {
    document.title = `${one.ok ? "pass" : "FAIL"} ${one.id} · rlm-plan`;
    casePage(main, one);
    main.dataset["ready"] = "case";
    return;
  }
  document.title = `Tests: ${report.passed} passed, ${report.failed} failed · rlm-plan`;
  const rows = report.cases.map((c, i) => [
    link(`/case/${i}`, c.id),
    status(c.ok ? "pass" : "fail"),
    duration(c.durationMs),
    c.answered,
    c.failures.map((f) => f.message).join("; "),
  ]);
  fill(
    main,
    h("h1", {}, `Tests: ${report.passed} passed, ${report.failed} failed`),
    h("p", { class: "muted" }, `${report.cases.length} cases in ${duration(report.durationMs)}`),
    table("Each case, in the order they ran", ["Case", "Verdict", "Time", "Answered by", "Failures"], rows),
  );
  main.dataset["ready"] = "tests";
}

function casePage(main: HTMLElement, c: TestReportCase): void {
  const failures = c.failures.map((f) =>
    h(
      "li",
      {},
      h("p", {}, h("strong", {}, f.assertion), `: ${f.message}`),
      f.expected !== null ? h("div", {}, h("h3", {}, "Expected"), h("pre", { class: "value" }, f.expected)) : null,
      f.actual !== null ? h("div", {}, h("h3", {}, "Actual"), h("pre", { class: "value" }, f.actual)) : null,
    ),
  );
  const run = h("div", { class: "case-run" });
  fill(
    main,
    h("p", {}, link("/", "All cases")),
    h("h1", {}, `${c.id} `, status(c.ok ? "pass" : "fail")),
    h("p", {}, `Written at ${c.place}; ran ${duration(c.durationMs)}, answered by ${c.answered}.`),
    c.failures.length > 0
      ? h("section", { "aria-label": "Failures" }, h("h2", {}, "Failures"), h("ol", { class: "failures" }, ...failures))
      : null,
    c.run ? run : h("p", { class: "muted" }, `No run to show: ${c.unrecorded ?? "it was not recorded"}.`),
  );
  if (c.run) runPage(run, c.run, true);
}
