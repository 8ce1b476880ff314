// Approvals in the editor (docs/approvals.md): when a run of the Plan Runs view waits for approval
// (started here, or read from the run journal), a notification names the exact action it waits
// at (call, step, masked arguments, hash prefix) with "Approve…" and "Deny…", which ask for a
// reason and send the server's vote command as the `rlmPlan.approver` setting's name (default the
// OS user). The vote, its refusals and who resumes the run are the core's, as for `rlm-plan runs
// approve|deny`; a run the server resumes is followed like "Resume Run". Votes need a trusted
// workspace, as running does. The requests and their votes are kept on the run's record for the
// view to list under it.

import { userInfo } from "node:os";
import * as vscode from "vscode";
import { ExecuteCommandRequest } from "vscode-languageclient/node";
import { JournalRunRequest, VoteApprovalCommand } from "@rlm-plan/language-server/protocol";
import { followResumedRun, type JournalRuns } from "./journalRuns";
import { UNTRUSTED_MESSAGE, type RunDependencies } from "./runCommand";
import type { RunRecord } from "./runLog";
import { displayPath } from "./workspacePaths";

export const REVIEW_APPROVAL_COMMAND = "rlmPlan.reviewApproval";
type Request = NonNullable<RunRecord["approvals"]>[number];

export class ApprovalPrompts implements vscode.Disposable {
  /** Requests already shown (journal folder, run, action hash): each is offered once unless a vote fails. */
  private readonly shown = new Set<string>();
  private readonly subscriptions: vscode.Disposable[];
  /** The host profile each run read here ran under (file URI). */
  private readonly hostProfiles = new Map<string, string>();

  constructor(
    private readonly deps: RunDependencies,
    private readonly journal: JournalRuns,
  ) {
    this.subscriptions = [
      deps.log.onDidChange((record) => {
        for (const run of record ? [record] : deps.log.all()) if (needsRead(run)) void this.read(run);
      }),
      vscode.commands.registerCommand(REVIEW_APPROVAL_COMMAND, (id: string, request: number) => {
        const record = deps.log.get(id);
        const found = record?.approvals?.find((r) => r.request === request);
        if (record && found) void this.offer(record, found);
      }),
    ];
  }

  dispose(): void {
    for (const subscription of this.subscriptions) subscription.dispose();
  }

  /** Reads the run's requests from the journal; offers each one still pending. */
  private async read(record: RunRecord): Promise<void> {
    const ref = record.journal;
    if (!ref || !this.deps.client.isRunning()) return;
    const run = await this.deps.client
      .sendRequest(JournalRunRequest.type, { dir: ref.dir, id: ref.id })
      .catch(() => undefined);
    if (!run) return;
    // A run listed from the journal has no host profile until read: a resume shows the one it ran under.
    if (run.hostFile) this.hostProfiles.set(record.id, vscode.Uri.file(run.hostFile).toString());
    this.deps.log.setApprovals(record, [...run.approvals]);
    if (run.status !== "waiting") return;
    for (const request of run.approvals) {
      const key = `${ref.dir}#${ref.id}#${request.hash}`;
      if (request.state !== "pending" || this.shown.has(key)) continue;
      this.shown.add(key);
      void this.offer(record, request);
    }
  }

  private async offer(record: RunRecord, request: Request): Promise<void> {
    const ref = record.journal!;
    const choice = await vscode.window.showInformationMessage(
      `Run ${ref.id} of ${displayPath(record.plan)} waits for approval: ${request.call} at ${request.step} with ${request.arguments} (action sha256 ${request.hash.slice(0, 12)}…)`,
      "Approve…",
      "Deny…",
    );
    if (choice === "Approve…") await this.vote(record, request, "approve");
    else if (choice === "Deny…") await this.vote(record, request, "deny");
  }

  private async vote(record: RunRecord, request: Request, vote: "approve" | "deny"): Promise<void> {
    const ref = record.journal!;
    if (!vscode.workspace.isTrusted) {
      void vscode.window.showErrorMessage(UNTRUSTED_MESSAGE);
      return;
    }
    const reason = await vscode.window.showInputBox({
      title: `${vote === "approve" ? "Approve" : "Deny"} ${request.call} at ${request.step} of run ${ref.id}`,
      prompt: "Why? (recorded in the run journal's approvals log with your name)",
      ignoreFocusOut: true,
      validateInput: (text) => (text.trim() === "" ? "A vote needs a reason." : undefined),
    });
    if (reason === undefined) return;
    const as = approverName();
    const { client, keys, output } = this.deps;
    let answer: VoteApprovalCommand.Result;
    try {
      const env = record.plan.startsWith("file:") ? await keys.keysFor(record.plan) : {};
      const args: VoteApprovalCommand.Arguments = [
        {
          dir: ref.dir,
          id: ref.id,
          step: request.step,
          vote,
          as,
          reason,
          ...(Object.keys(env).length > 0 ? { env } : {}),
        },
      ];
      answer = (await client.sendRequest(ExecuteCommandRequest.type, {
        command: VoteApprovalCommand.command,
        arguments: args,
      })) as VoteApprovalCommand.Result;
    } catch (error) {
      const message = error instanceof Error ? error.message : String(error);
      output.refused(record.plan, message);
      void vscode.window.showErrorMessage(message);
      return;
    }
    const verb = vote === "approve" ? "approved" : "denied";
    output.line(`${as} ${verb} ${answer.call} at ${answer.step} of run ${ref.id} (action sha256 ${answer.hash})`);
    void this.journal.refresh();
    if (answer.resumed) {
      const host = record.hostProfile ?? this.hostProfiles.get(record.id) ?? null;
      await followResumedRun(this.deps, answer.resumed, host, ref.id);
      return;
    }
    const next =
      answer.next === "waits"
        ? "the run waits for more approvals"
        : answer.next === "worker"
          ? "a worker of its queue goes on with it"
          : "its own process goes on with it";
    void vscode.window.showInformationMessage(`${as} ${verb} ${answer.call} at ${answer.step}: ${next}.`);
  }
}

/** A waiting run, or a finished run started here whose requests were not read yet. */
function needsRead(record: RunRecord): boolean {
  if (!record.journal) return false;
  if (record.status === "waiting") return true;
  return record.journal.loaded === undefined && record.status !== "running" && record.approvals === undefined;
}

/** Who votes: the `rlmPlan.approver` setting, else the OS user's name. */
function approverName(): string {
  const set = vscode.workspace.getConfiguration("rlmPlan").get<string>("approver", "").trim();
  if (set !== "") return set;
  try {
    return userInfo().username;
  } catch {
    return "unknown";
  }
}
