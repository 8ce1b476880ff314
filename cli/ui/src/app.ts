// The run browser's page script (`rlm-plan ui`; bundled by scripts/bundle-cli.mjs into
// cli/dist/ui/ui.js): routes by the address's hash (#/runs, #/run/3, #/compare/3/4), redraws the
// Runs page when the server's event stream says the journal changed, and, in an HTML export,
// draws the one run the page carries instead (a test report: its cases, testReportPage.ts).

import { EXPORT_DATA_ID, TEST_REPORT_DATA_ID, type RunView, type TestReportView } from "../../src/ui/uiApi";
import { getJson } from "./api";
import { approvalsPage, refreshApprovals } from "./approvalsPage";
import { comparePage } from "./comparePage";
import { fleetPage } from "./fleetPage";
import { fill, h } from "./dom";
import { refreshRuns, runsPage } from "./runsPage";
import { refreshTests, testsPage } from "./testsPage";
import { testReportPage } from "./testReportPage";
import { runPage } from "./runPage";

const main = document.getElementById("main") as HTMLElement;
const live = document.getElementById("live") as HTMLElement;

function route(): { page: string; args: string[]; query: URLSearchParams } {
  const [path = "", query = ""] = location.hash.replace(/^#/, "").split("?");
  const [page = "runs", ...args] = path.split("/").filter((part) => part !== "");
  return { page, args, query: new URLSearchParams(query) };
}

/** Draws the route's page; `live` (a change in the journal) leaves the focus where the user has it. */
async function draw(live = false): Promise<void> {
  const { page, args, query } = route();
  try {
    if (page === "run" && args[0]) {
      document.title = `Run ${args[0]} · rlm-plan`;
      runPage(main, await getJson<RunView>(`/api/runs/${encodeURIComponent(args[0])}`));
    } else if (page === "fleet") {
      document.title = "Fleet · rlm-plan";
      await fleetPage(main);
    } else if (page === "approvals") {
      document.title = "Approvals · rlm-plan";
      await approvalsPage(main);
    } else if (page === "tests") {
      document.title = "Tests · rlm-plan";
      await testsPage(main, query);
    } else if (page === "compare") {
      document.title = "Compare runs · rlm-plan";
      await comparePage(main, args[0] ?? "", args[1] ?? "");
    } else {
      document.title = "Runs · rlm-plan";
      await runsPage(main, query);
    }
  } catch (error) {
    fill(main, h("h1", {}, "Not found"), h("p", { class: "error", role: "alert" }, (error as Error).message));
  }
  if (!live) main.focus({ preventScroll: true });
  main.dataset["ready"] = page;
}

// The skip link moves the focus; as a link to #main it would be taken for a route.
document.querySelector("a.skip")?.addEventListener("click", (event) => {
  event.preventDefault();
  main.focus();
});

const exported = document.getElementById(EXPORT_DATA_ID);
const testReport = document.getElementById(TEST_REPORT_DATA_ID);
if (exported || testReport) {
  // An export: no server to ask, no other page of the browser to go to.
  document.querySelector("a.brand")?.removeAttribute("href");
  for (const other of document.querySelectorAll("nav a.page")) other.remove();
}
if (testReport) {
  // A test report: its cases and each case's page, routed by the hash within the file.
  const report = JSON.parse(testReport.textContent ?? "{}") as TestReportView;
  const drawReport = (moved: boolean) => {
    testReportPage(main, report, location.hash);
    if (moved) main.focus({ preventScroll: true });
  };
  window.addEventListener("hashchange", () => drawReport(true));
  drawReport(false);
} else if (exported) {
  // A run's export: one run, from the page itself.
  runPage(main, JSON.parse(exported.textContent ?? "{}") as RunView, true);
  main.dataset["ready"] = "run";
} else {
  // Draws one after another: a change of the journal heard while a run's page is still being
  // drawn (from rows read before it) is looked at once that draw is done, not lost.
  let drawn = Promise.resolve();
  const then = (next: () => Promise<void> | void) => (drawn = drawn.then(next, next));
  window.addEventListener("hashchange", () => void then(() => draw()));
  void then(() => draw());
  const events = new EventSource("/api/events");
  events.addEventListener("runs", () => {
    live.textContent = `Journal changed at ${new Date().toLocaleTimeString()}`;
    const { page, query } = route();
    if (page === "runs") void refreshRuns(main, query);
    else if (page === "tests") void refreshTests(main, query);
    else if (page === "approvals") void refreshApprovals(main);
    else if (page === "fleet") void draw(true);
    // A run still running is drawn again as its steps are recorded.
    else if (page === "run")
      void then(() => (route().page === "run" && main.dataset["status"] === "running" ? draw(true) : undefined));
  });
}
