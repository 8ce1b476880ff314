// The Approvals page: every step a run waits at for a person, with its action (capability,
// masked arguments, the action's hash), who may decide and who already approved; and a form to
// approve or deny it with a name and a reason, sent to the server, which records it as `runs
// approve|deny` does and resumes the run once the votes decide.

import type { PendingApproval, VoteAnswer } from "../../src/ui/uiApi";
import { getJson, postJson } from "./api";
import { fill, h, link, when } from "./dom";

export async function approvalsPage(main: HTMLElement): Promise<void> {
  const said = h("p", { id: "vote-said", role: "status", "aria-live": "polite" });
  const list = h("div", { id: "approvals-list" });
  fill(main, h("h1", {}, "Approvals"), said, list);
  await drawApprovals(list, said);
}

/** The list alone, again (a change in the journal): what the last vote said stays. */
export async function refreshApprovals(main: HTMLElement): Promise<void> {
  const list = main.querySelector("#approvals-list");
  const said = main.querySelector("#vote-said");
  // A form being filled in is not taken away under the user's hands.
  if (list && said && !list.contains(document.activeElement))
    await drawApprovals(list as HTMLElement, said as HTMLElement);
}

async function drawApprovals(list: HTMLElement, said: HTMLElement): Promise<void> {
  let pending: PendingApproval[];
  try {
    pending = await getJson<PendingApproval[]>("/api/approvals");
  } catch (error) {
    fill(
      list,
      h("p", { class: "error", role: "alert" }, `The approvals could not be read: ${(error as Error).message}`),
    );
    return;
  }
  if (pending.length === 0) {
    fill(list, h("p", { class: "muted" }, "No run waits for approval."));
    return;
  }
  fill(list, ...pending.map((p) => requestSection(p, list, said)));
}

function requestSection(p: PendingApproval, list: HTMLElement, said: HTMLElement): HTMLElement {
  const id = `approval-${p.run}-${p.request}`;
  const name = h("input", { type: "text", name: "approver", required: "", autocomplete: "username" });
  const reason = h("textarea", { name: "reason", required: "", rows: "2" });
  const form = h(
    "form",
    { class: "vote", "aria-label": `Vote on run ${p.run} at ${p.step}` },
    h("label", {}, h("span", {}, "Your name (an approver)"), name),
    h("label", {}, h("span", {}, "Reason"), reason),
    h("button", { type: "submit", name: "decision", value: "approve" }, "Approve"),
    h("button", { type: "submit", name: "decision", value: "deny" }, "Deny"),
  );
  form.addEventListener("submit", (event) => {
    event.preventDefault();
    const decision = (event.submitter as HTMLButtonElement | null)?.value === "deny" ? "deny" : "approve";
    void (async () => {
      const answer = await postJson<VoteAnswer>("/api/approvals/vote", {
        run: p.run,
        step: p.step,
        decision,
        approver: name.value,
        reason: reason.value,
      });
      said.className = "error" in answer ? "error" : "";
      fill(said, "error" in answer ? answer.error : answer.said.join(". "));
      if (!("error" in answer)) await drawApprovals(list, said);
    })();
  });
  const facts: [string, string | Node][] = [
    ["Run", link(`/run/${p.run}`, `Run ${p.run}`)],
    ["Plan", `${p.plan}${p.label !== null ? ` (${p.label})` : ""}`],
    ["Action", `${p.capability} at ${p.step}`],
    ["Arguments", h("code", {}, p.arguments)],
    ["Action hash", `sha256 ${p.hash}`],
    [
      "Who decides",
      `${p.quorum} of ${p.approvers.join(", ")}; approved so far: ${p.approved.length > 0 ? p.approved.join(", ") : "none"}`,
    ],
    ["Asked", `${when(p.askedAt)} by ${p.requester}${p.requesterMayApprove ? "" : " (who may not approve)"}`],
    ["Until", when(p.deadline)],
  ];
  return h(
    "section",
    { class: "approval", id, "aria-labelledby": `${id}-h` },
    h("h2", { id: `${id}-h` }, `Run ${p.run} waits at ${p.step}`),
    h("dl", { class: "facts" }, ...facts.flatMap(([term, value]) => [h("dt", {}, term), h("dd", {}, value)])),
    form,
  );
}
