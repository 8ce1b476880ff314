// The Runs page: every run of the journal, newest first, filtered by plan, status, origin and
// time and searched, redrawn when the journal changes (the event stream in app.ts).

import type { RunSummary } from "@rlm-plan/core/journal";
import { getJson } from "./api";
import { duration, fill, h, link, status, table, when } from "./dom";

const FILTERS = [
  { name: "status", label: "Status", options: ["", "running", "interrupted", "ok", "failed", "cancelled"] },
  { name: "origin", label: "Origin", options: ["", "cli", "editor", "debugger", "test", "worker"] },
  { name: "since", label: "Started", options: ["", "1h", "24h", "7d", "30d"] },
] as const;

const SINCE_WORDS: Record<string, string> = {
  "": "any time",
  "1h": "last hour",
  "24h": "last day",
  "7d": "last 7 days",
  "30d": "last 30 days",
};

/** Draws the page into `main` with the filters in `query` (the route's query). */
export async function runsPage(main: HTMLElement, query: URLSearchParams): Promise<void> {
  const form = h("form", { class: "filters", role: "search", "aria-label": "Filter runs" });
  const field = (label: string, control: HTMLElement) => h("label", {}, h("span", {}, label), control);
  const search = h("input", {
    type: "search",
    name: "q",
    placeholder: "run, plan, case, error",
    value: query.get("q") ?? "",
  });
  const plan = h("input", { type: "text", name: "plan", placeholder: "plan file", value: query.get("plan") ?? "" });
  form.append(field("Search", search), field("Plan", plan));
  for (const filter of FILTERS) {
    const select = h("select", { name: filter.name });
    for (const option of filter.options) {
      const word = filter.name === "since" ? (SINCE_WORDS[option] ?? option) : option || "any";
      const element = h("option", { value: option }, word);
      if ((query.get(filter.name) ?? "") === option) element.selected = true;
      select.append(element);
    }
    form.append(field(filter.label, select));
  }
  form.append(h("button", { type: "submit" }, "Filter"));
  form.addEventListener("submit", (event) => {
    event.preventDefault();
    const params = new URLSearchParams();
    for (const [name, value] of new FormData(form))
      if (typeof value === "string" && value !== "") params.set(name, value);
    location.hash = `/runs${params.size > 0 ? `?${params}` : ""}`;
  });
  const list = h("div", { id: "runs-list" });
  fill(main, h("h1", {}, "Runs"), form, list);
  await drawList(list, query);
}

/** The list alone, again (a change in the journal): the filters and their focus stay. */
export async function refreshRuns(main: HTMLElement, query: URLSearchParams): Promise<void> {
  const list = main.querySelector("#runs-list");
  if (list) await drawList(list as HTMLElement, query);
}

async function drawList(list: HTMLElement, query: URLSearchParams): Promise<void> {
  const params = new URLSearchParams();
  for (const name of ["q", "plan", "status", "origin", "since"]) {
    const value = query.get(name);
    if (value) params.set(name, value);
  }
  let runs: RunSummary[];
  try {
    runs = await getJson<RunSummary[]>(`/api/runs?${params}`);
  } catch (error) {
    fill(list, h("p", { class: "error", role: "alert" }, `The runs could not be read: ${(error as Error).message}`));
    return;
  }
  if (runs.length === 0) {
    fill(
      list,
      h(
        "p",
        { class: "muted" },
        params.size > 0 ? "No run matches." : "No run recorded yet: rlm-plan run PLAN records one.",
      ),
    );
    return;
  }
  const rows = runs.map((run) => [
    link(`/run/${run.id}`, `Run ${run.id}`),
    status(run.status),
    when(run.startedAt),
    duration(run.elapsedMs),
    `${run.planFile ?? run.plan}${run.mocked ? " (mocked)" : ""}`,
    run.errorKind ?? "",
    h(
      "span",
      {},
      run.origin,
      run.label !== null ? ` ${run.label}` : "",
      run.forkOf
        ? h("span", {}, ", fork of ", link(`/run/${run.forkOf.run}`, `run ${run.forkOf.run}`), ` at ${run.forkOf.step}`)
        : null,
    ),
  ]);
  // Tokens and money as `runs list` shows them: a column once a listed run called a model.
  const spent = runs.some((run) => run.usage !== undefined);
  if (spent)
    rows.forEach((row, i) => {
      const usage = runs[i]?.usage;
      const mark = usage?.estimated ? "~" : "";
      row.push(
        usage === undefined
          ? ""
          : `${mark}${usage.inputTokens}+${usage.outputTokens}${usage.cost === null ? "" : `, ${usage.cost} ${usage.currency ?? ""}`.trimEnd()}`,
      );
    });
  fill(
    list,
    table(
      `${runs.length} run${runs.length === 1 ? "" : "s"}, newest first`,
      ["Run", "Status", "Started", "Time", "Plan", "Error", "From", ...(spent ? ["Tokens and cost"] : [])],
      rows,
    ),
  );
}
