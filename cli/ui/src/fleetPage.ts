// The Fleet page (`rlm-plan ui --queue URL`): the queue's workers with their health (idle time:
// one that hangs grows it; one that died is gone), its job counts by state, and the jobs waiting,
// active and failed with how often each was tried, its schedules, and the calls waiting for
// approval in the journal. Redrawn when the journal changes.

import type { FleetView, PendingApproval } from "../../src/ui/uiApi";
import { getJson } from "./api";
import { fill, h, link, status, table, when } from "./dom";

/** A worker idle longer than this (seconds) is shown as quiet: it may be stuck. */
const QUIET_SECONDS = 60;

export async function fleetPage(main: HTMLElement): Promise<void> {
  let fleet: FleetView;
  let waiting: PendingApproval[];
  try {
    // The journal's waiting approvals beside the queue: a run waiting holds no worker (docs/workers.md).
    [fleet, waiting] = await Promise.all([
      getJson<FleetView>("/api/fleet"),
      getJson<PendingApproval[]>("/api/approvals"),
    ]);
  } catch (error) {
    fill(main, h("h1", {}, "Fleet"), h("p", { class: "error", role: "alert" }, (error as Error).message));
    return;
  }
  const workers =
    fleet.workers.length === 0
      ? h("p", { class: "muted" }, "No worker is connected to this queue.")
      : table(
          `${fleet.workers.length} worker${fleet.workers.length === 1 ? "" : "s"}`,
          ["Worker", "Health", "Idle", "Connected for", "Address"],
          fleet.workers.map((w) => [
            w.name,
            status(w.idleSeconds > QUIET_SECONDS ? "quiet" : "ok"),
            `${w.idleSeconds} s`,
            `${w.ageSeconds} s`,
            w.addr,
          ]),
        );
  const counts = table("Jobs by state", Object.keys(fleet.counts), [Object.values(fleet.counts).map(String)]);
  const jobs =
    fleet.jobs.length === 0
      ? h("p", { class: "muted" }, "No job waits, runs or failed.")
      : table(
          `Jobs waiting, active and failed (${fleet.retried} retried)`,
          ["Job", "State", "Plan", "Tries", "Queued", "Why it failed"],
          fleet.jobs.map((j) => [
            j.id,
            status(j.state),
            j.name,
            String(j.attempts),
            when(j.queuedAt),
            j.failedReason ?? "",
          ]),
        );
  const schedules =
    fleet.schedules.length === 0
      ? h(
          "p",
          { class: "muted" },
          "No schedule: rlm-plan schedule add NAME --cron EXPR --plan FILE --queue URL adds one.",
        )
      : table(
          `${fleet.schedules.length} schedule${fleet.schedules.length === 1 ? "" : "s"}, soonest first`,
          ["Schedule", "Cron", "Zone", "Plan", "Next run", "Runs queued"],
          fleet.schedules.map((s) => [
            s.name,
            s.cron,
            s.tz,
            s.plan,
            s.next === undefined ? "" : when(new Date(s.next).toISOString()),
            String(s.iterations),
          ]),
        );
  fill(
    main,
    h("h1", {}, "Fleet"),
    h("p", {}, `Queue ${fleet.queue}`),
    h("section", { "aria-labelledby": "workers-h" }, h("h2", { id: "workers-h" }, "Workers"), workers),
    h("section", { "aria-labelledby": "jobs-h" }, h("h2", { id: "jobs-h" }, "Jobs"), counts, jobs),
    h("section", { "aria-labelledby": "schedules-h" }, h("h2", { id: "schedules-h" }, "Schedules"), schedules),
    h(
      "section",
      { "aria-labelledby": "waiting-h" },
      h("h2", { id: "waiting-h" }, "Waiting approvals"),
      h(
        "p",
        { id: "waiting-approvals" },
        waiting.length === 0
          ? "No call waits for approval."
          : `${waiting.length} call${waiting.length === 1 ? "" : "s"} of ${new Set(waiting.map((w) => w.run)).size} run${new Set(waiting.map((w) => w.run)).size === 1 ? "" : "s"} wait for approval: `,
        waiting.length === 0 ? null : link("/approvals", "decide on the Approvals page"),
      ),
    ),
  );
}
