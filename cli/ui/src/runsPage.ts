// The Runs page: every run of the journal, newest first, filtered by plan, status, origin, time
// and cost and searched, redrawn when the journal changes (the event stream in app.ts). The
// filters live in the address (#/runs?status=failed&max_cost=0.5), so a filtered list can be shared.

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
  form.append(costFilter(query), h("button", { type: "submit" }, "Filter"));
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
  for (const name of ["q", "plan", "status", "origin", "since", "min_cost", "max_cost", "unknown_cost"]) {
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
  if (spent) rows.forEach((row, i) => row.push(usageText(runs[i]?.usage)));
  // The form beside the list names the currency its cost bounds are in.
  const unit = list.parentElement?.querySelector(".cost-unit");
  if (unit) unit.textContent = currencyNote(runs);
  fill(
    list,
    table(
      `${runs.length} run${runs.length === 1 ? "" : "s"}, newest first`,
      ["Run", "Status", "Started", "Time", "Plan", "Error", "From", ...(spent ? ["Tokens and cost"] : [])],
      rows,
    ),
  );
}

/**
 * The cost bounds: amounts in the runs' currency, as the column shows them. A run whose model
 * calls were not all priced has no known cost (the server's rule, journal/queries.ts' runCost):
 * a bound leaves it out unless "keep" is ticked; a run that called no model cost 0.
 */
function costFilter(query: URLSearchParams): HTMLElement {
  const amount = (name: string, label: string) =>
    h(
      "label",
      {},
      h("span", {}, label),
      h("input", {
        type: "number",
        name,
        min: "0",
        step: "any",
        inputmode: "decimal",
        class: "amount",
        value: query.get(name) ?? "",
        "aria-describedby": "cost-note",
      }),
    );
  const keep = h("input", { type: "checkbox", name: "unknown_cost", value: "keep", "aria-describedby": "cost-note" });
  keep.checked = query.get("unknown_cost") === "keep";
  return h(
    "fieldset",
    { class: "cost-filter" },
    h("legend", {}, "Cost ", h("span", { class: "cost-unit" })),
    amount("min_cost", "At least"),
    amount("max_cost", "At most"),
    h("label", { class: "check" }, keep, h("span", {}, "keep runs of unknown cost")),
    h(
      "p",
      { id: "cost-note", class: "muted note" },
      "A run with an unpriced model call has no known cost: a bound leaves it out unless kept. A run with no model call cost 0.",
    ),
  );
}

/** The currency the listed runs were priced in ("in EUR"), or that each has its own. */
function currencyNote(runs: readonly RunSummary[]): string {
  const currencies = [...new Set(runs.flatMap((run) => (run.usage?.currency ? [run.usage.currency] : [])))];
  if (currencies.length === 0) return "";
  return currencies.length === 1 ? `(in ${currencies[0]})` : "(in each run's own currency)";
}

/** A run's tokens and money: "~21+19, 4 EUR"; a cost that is not known says so, and why. */
function usageText(usage: RunSummary["usage"]): string {
  if (usage === undefined) return "no model call";
  const tokens = `${usage.estimated ? "~" : ""}${usage.inputTokens}+${usage.outputTokens}`;
  const money = (amount: number) => `${amount} ${usage.currency ?? ""}`.trimEnd();
  if (usage.unpriced === 0) return `${tokens}, ${money(usage.cost ?? 0)}`;
  const calls = `${usage.unpriced} unpriced call${usage.unpriced === 1 ? "" : "s"}`;
  return `${tokens}, cost unknown (${usage.cost === null ? calls : `${money(usage.cost)} + ${calls}`})`;
}
