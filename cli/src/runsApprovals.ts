// `runs show`'s approvals section (docs/approvals.md): every request for approval, vote and
// outcome of the run, in the order the journal's append-only log holds them, each with the hash
// of the action it is about; the arguments as recorded (masked).

import type { ApprovalEntry } from "@rlm-plan/core/journal";
import { lineText } from "./guardedOutput";

/** The section's lines; none for a run that asked no one. */
export function approvalLines(log: readonly ApprovalEntry[]): string[] {
  if (log.length === 0) return [];
  const lines = ["", "approvals:"];
  for (const entry of log) {
    const at = new Date(entry.at).toISOString();
    const hash = `sha256 ${entry.hash}`;
    if (entry.type === "request") {
      const r = entry.body;
      lines.push(
        `  ${at}  request #${entry.seq}  ${lineText(r.capability)} at ${lineText(r.step)}  ${hash}`,
        `      arguments ${lineText(r.arguments)}`,
        `      rule ${r.rule}: ${r.quorum} of ${r.approvers.map(lineText).join(", ")}; requested by ${lineText(r.requester)}${r.requester_may_approve ? "" : " (who may not approve)"}; until ${new Date(r.deadline).toISOString()}, then ${r.on_timeout === "deny" ? "denied" : "failed"}`,
      );
    } else if (entry.type === "vote") {
      const v = entry.body;
      lines.push(
        `  ${at}  ${v.decision === "approve" ? "approved" : "denied"} by ${lineText(v.approver)} (request #${v.request}): ${lineText(v.reason)}  ${hash}`,
      );
    } else {
      const o = entry.body;
      const superseded = o.superseded_by !== undefined ? `: the action changed to sha256 ${o.superseded_by}` : "";
      lines.push(`  ${at}  request #${o.request} ${o.outcome.replace("_", " ")}${superseded}  ${hash}`);
    }
  }
  return lines;
}
