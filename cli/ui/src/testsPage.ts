// The Tests page: every test case the journal has runs of (FILE#CASE), its recent verdicts newest
// first (each a link to its run), and the cases that flip (flaky) first. The core reads the
// history and says which are flaky (journal/caseVerdicts.ts); this page only draws it.

import type { CaseHistory } from "@rlm-plan/core/journal";
import { getJson } from "./api";
import { fill, h, status, table, when } from "./dom";

export async function testsPage(main: HTMLElement, query: URLSearchParams): Promise<void> {
  const q = query.get("q") ?? "";
  const search = h("input", { type: "search", name: "q", placeholder: "test file or case", value: q });
  const form = h(
    "form",
    { class: "filters", role: "search", "aria-label": "Filter test cases" },
    h("label", {}, h("span", {}, "Case"), search),
    h("button", { type: "submit" }, "Filter"),
  );
  form.addEventListener("submit", (event) => {
    event.preventDefault();
    const value = search.value.trim();
    location.hash = `/tests${value ? `?${new URLSearchParams({ q: value })}` : ""}`;
  });
  const list = h("div", { id: "tests-list" });
  fill(main, h("h1", {}, "Tests"), form, list);
  await drawCases(list, q);
}

/** The list alone, again (a change in the journal): the filter and its focus stay. */
export async function refreshTests(main: HTMLElement, query: URLSearchParams): Promise<void> {
  const list = main.querySelector("#tests-list");
  if (list) await drawCases(list as HTMLElement, query.get("q") ?? "");
}

async function drawCases(list: HTMLElement, q: string): Promise<void> {
  let cases: CaseHistory[];
  try {
    cases = await getJson<CaseHistory[]>(`/api/tests${q ? `?${new URLSearchParams({ q })}` : ""}`);
  } catch (error) {
    fill(
      list,
      h("p", { class: "error", role: "alert" }, `The test runs could not be read: ${(error as Error).message}`),
    );
    return;
  }
  if (cases.length === 0) {
    fill(
      list,
      h("p", { class: "muted" }, q ? "No test case matches." : "No test run recorded yet: rlm-plan test records one."),
    );
    return;
  }
  const flaky = cases.filter((c) => c.flaky).length;
  const rows = cases.map((c) => {
    const last = c.runs[0];
    return [
      h("span", { class: "case" }, c.label),
      c.plan,
      c.flaky ? status("flaky") : last ? status(last.verdict) : "",
      last ? when(last.startedAt) : "",
      h(
        "ol",
        { class: "history", "aria-label": `Recent runs of ${c.label}, newest first` },
        ...c.runs.map((run) =>
          h(
            "li",
            {},
            h("a", { href: `#/run/${run.id}`, "aria-label": `Run ${run.id}: ${run.verdict}` }, status(run.verdict)),
          ),
        ),
      ),
    ];
  });
  fill(
    list,
    table(
      `${cases.length} test case${cases.length === 1 ? "" : "s"}, ${flaky} flaky (passed and failed at the same plan)`,
      ["Case", "Plan", "Now", "Last run", "Recent runs, newest first"],
      rows,
    ),
  );
}
