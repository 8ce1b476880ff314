// The "Plan Runs" view (id `rlmPlan.runs`, in the Explorer): the run log as a tree. A run is an
// item (newest first) whose children are its transitions, then its value or its error. Clicking
// a transition (or the error) reveals that step in the plan; a run's context menu opens the
// whole run as a read-only JSON document or runs the plan again. A fork of a recorded run
// ("Rerun From Here") is listed under the run it forked from.

import * as vscode from "vscode";
import type { LoggedTransition, RunLog, RunRecord } from "./runLog";
import { ms } from "./runOutput";
import { displayPath } from "./workspacePaths";
import { formatStepPath } from "./stepLocation";
import { REVIEW_APPROVAL_COMMAND } from "./approvalPrompts";
import {
  resolvedRunTooltip,
  runTooltipParts,
  tooltipNeedsRecord,
  type TooltipPart,
  type TooltipWords,
} from "./runTooltip";

export const RUNS_VIEW_ID = "rlmPlan.runs";
export const REVEAL_STEP_COMMAND = "rlmPlan.revealStep";
export const OPEN_RUN_AS_JSON_COMMAND = "rlmPlan.openRunAsJson";
/** Scheme of the read-only documents "Open Run as JSON" shows. */
export const RUN_DOCUMENT_SCHEME = "rlm-plan-run";

export type RunsNode =
  | { readonly kind: "run"; readonly record: RunRecord }
  | { readonly kind: "transition"; readonly record: RunRecord; readonly transition: LoggedTransition }
  | { readonly kind: "outcome"; readonly record: RunRecord }
  | { readonly kind: "dropped"; readonly record: RunRecord }
  | { readonly kind: "approval"; readonly record: RunRecord; readonly request: ApprovalRequest }
  | { readonly kind: "vote"; readonly record: RunRecord; readonly request: ApprovalRequest; readonly vote: number };

type ApprovalRequest = NonNullable<RunRecord["approvals"]>[number];

export class RunsTreeProvider implements vscode.TreeDataProvider<RunsNode>, vscode.Disposable {
  private readonly changed = new vscode.EventEmitter<RunsNode | undefined>();
  readonly onDidChangeTreeData = this.changed.event;
  /** One node object per run, so the view can refresh a single run. */
  private readonly runNodes = new WeakMap<RunRecord, RunsNode>();
  private readonly subscription: vscode.Disposable;

  constructor(private readonly log: RunLog) {
    this.subscription = log.onDidChange((record) => this.changed.fire(record ? this.runNode(record) : undefined));
  }

  getChildren(node?: RunsNode): RunsNode[] | Promise<RunsNode[]> {
    // Forks ("Rerun From Here", `run --from`) are shown under the run they forked from.
    if (!node) {
      const all = this.log.all();
      return all.flatMap((record) => (parentIn(all, record) ? [] : [this.runNode(record)]));
    }
    if (node.kind === "approval")
      return node.request.votes.map((_, vote) => ({ kind: "vote", record: node.record, request: node.request, vote }));
    if (node.kind !== "run") return [];
    // A run listed from the run journal is read whole when opened.
    if (node.record.journal?.loaded === false) return this.log.complete(node.record).then(() => this.childrenOf(node));
    return this.childrenOf(node);
  }

  private childrenOf(node: RunsNode): RunsNode[] {
    const { record } = node;
    const all = this.log.all();
    const forks = all.filter((run) => parentIn(all, run) === record);
    const children: RunsNode[] = forks.map((run) => this.runNode(run));
    // Its requests for approval (approvalPrompts.ts reads them), each with its votes under it.
    for (const request of record.approvals ?? []) children.push({ kind: "approval", record, request });
    for (const transition of record.transitions) children.push({ kind: "transition", record, transition });
    if (record.droppedTransitions) children.push({ kind: "dropped", record });
    if (record.status !== "running") children.push({ kind: "outcome", record });
    return children;
  }

  getParent(node: RunsNode): RunsNode | undefined {
    if (node.kind === "vote") return { kind: "approval", record: node.record, request: node.request };
    if (node.kind !== "run") return this.runNode(node.record);
    const parent = parentIn(this.log.all(), node.record);
    return parent && this.runNode(parent);
  }

  /** On hover, a journal run's tooltip: the run is read whole first (its host profile is in the journal). */
  async resolveTreeItem(item: vscode.TreeItem, node: RunsNode): Promise<vscode.TreeItem> {
    if (node.kind === "run" && item.tooltip === undefined)
      item.tooltip = tooltipMarkdown(await resolvedRunTooltip(node.record, (r) => this.log.complete(r), WORDS));
    return item;
  }

  getTreeItem(node: RunsNode): vscode.TreeItem {
    switch (node.kind) {
      case "run":
        return runItem(node.record);
      case "transition":
        return transitionItem(node.record, node.transition);
      case "outcome":
        return outcomeItem(node.record);
      case "approval":
        return approvalItem(node.record, node.request);
      case "vote":
        return voteItem(node.record, node.request, node.vote);
      case "dropped": {
        const item = new vscode.TreeItem(`… ${node.record.droppedTransitions} more transitions not kept`);
        item.id = `${node.record.id}/dropped`;
        return item;
      }
    }
  }

  dispose(): void {
    this.subscription.dispose();
    this.changed.dispose();
  }

  private runNode(record: RunRecord): RunsNode {
    let node = this.runNodes.get(record);
    if (!node) {
      node = { kind: "run", record };
      this.runNodes.set(record, node);
    }
    return node;
  }
}

/** The run a fork forked from, when `runs` lists it (the same journal, its number). */
function parentIn(runs: readonly RunRecord[], record: RunRecord): RunRecord | undefined {
  const ref = record.journal;
  const fork = ref?.forkOf;
  if (!ref || !fork) return undefined;
  return runs.find((run) => run.journal?.dir === ref.dir && run.journal.id === fork.run);
}

const STATUS_ICONS: Record<RunRecord["status"], vscode.ThemeIcon> = {
  running: new vscode.ThemeIcon("sync~spin"),
  succeeded: new vscode.ThemeIcon("pass", new vscode.ThemeColor("testing.iconPassed")),
  failed: new vscode.ThemeIcon("error", new vscode.ThemeColor("testing.iconFailed")),
  cancelled: new vscode.ThemeIcon("circle-slash"),
  interrupted: new vscode.ThemeIcon("warning"),
  // Held for approval (docs/approvals.md): rlm-plan runs approve RUN.
  waiting: new vscode.ThemeIcon("watch"),
};

function runItem(record: RunRecord): vscode.TreeItem {
  const plan = displayPath(record.plan);
  const item = new vscode.TreeItem(plan.split("/").pop() ?? plan, vscode.TreeItemCollapsibleState.Collapsed);
  item.id = record.id;
  const when = new Date(record.startedAt).toLocaleTimeString();
  const took = record.durationMs === undefined ? "" : ` · ${ms(record.durationMs)}`;
  const origin = record.journal?.origin
    ? ` · ${record.journal.origin}${record.journal.label ? ` ${record.journal.label}` : ""}`
    : "";
  const fork = record.journal?.forkOf ? ` · rerun from ${record.journal.forkOf.step}` : "";
  item.description = `#${record.number} · ${record.status}${record.mocks ? " (mocked)" : ""}${fork}${origin} · ${when}${took}`;
  item.iconPath = STATUS_ICONS[record.status];
  // ".journal": recorded in the run journal, so an interrupted run can be resumed.
  item.contextValue = `rlmPlanRun.${record.status}${record.journal ? ".journal" : ""}`;
  // A run listed from the journal gets its tooltip on hover, once read (resolveTreeItem).
  if (!tooltipNeedsRecord(record)) item.tooltip = tooltipMarkdown(runTooltipParts(record, WORDS));
  return item;
}

const WORDS: TooltipWords = { show: displayPath, ms };

function tooltipMarkdown(parts: readonly TooltipPart[]): vscode.MarkdownString {
  const tooltip = new vscode.MarkdownString(undefined, true);
  for (const part of parts) {
    if ("markdown" in part) tooltip.appendMarkdown(part.markdown);
    else tooltip.appendText(part.text);
  }
  return tooltip;
}

function transitionItem(record: RunRecord, t: LoggedTransition): vscode.TreeItem {
  const item = new vscode.TreeItem(`#${t.sequence} ${t.operation}${t.bind === null ? "" : ` → ${t.bind}`}`);
  item.id = `${record.id}/t${t.sequence}`;
  item.description = `${t.status} · at ${ms(t.elapsed_ms)} · took ${ms(t.duration_ms)}`;
  item.iconPath = new vscode.ThemeIcon("debug-stackframe-dot");
  // ".journal": a step of a recorded run, which "Rerun From Here" forks.
  item.contextValue = `rlmPlanTransition${record.journal && t.path ? ".journal" : ""}`;
  if (t.path) {
    item.tooltip = `${t.operation} at ${formatStepPath(t.path)}: click to show the step in the plan`;
    item.command = { title: "Reveal Step in Plan", command: REVEAL_STEP_COMMAND, arguments: [record.plan, t.path] };
  }
  return item;
}

function approvalItem(record: RunRecord, request: ApprovalRequest): vscode.TreeItem {
  const item = new vscode.TreeItem(
    `approval ${request.call} at ${request.step}`,
    request.votes.length > 0 ? vscode.TreeItemCollapsibleState.Expanded : vscode.TreeItemCollapsibleState.None,
  );
  item.id = `${record.id}/approval${request.request}`;
  const votes = request.votes.filter((v) => v.decision === "approve").length;
  item.description = `${request.state.replace("_", " ")} · ${votes} of ${request.quorum} · sha256 ${request.hash.slice(0, 12)}`;
  item.iconPath = new vscode.ThemeIcon(request.state === "pending" ? "watch" : "shield");
  item.contextValue = `rlmPlanApproval.${request.state}`;
  item.tooltip = `${request.call} at ${request.step} with ${request.arguments}\nrule ${request.rule}: ${request.quorum} of ${request.approvers.join(", ")}\naction sha256 ${request.hash}`;
  if (request.state === "pending")
    item.command = {
      title: "Approve or Deny",
      command: REVIEW_APPROVAL_COMMAND,
      arguments: [record.id, request.request],
    };
  return item;
}

function voteItem(record: RunRecord, request: ApprovalRequest, index: number): vscode.TreeItem {
  const vote = request.votes[index]!;
  const item = new vscode.TreeItem(`${vote.approver} ${vote.decision === "approve" ? "approved" : "denied"}`);
  item.id = `${record.id}/approval${request.request}/vote${index}`;
  item.description = `${vote.reason} · ${new Date(vote.at).toLocaleString()}`;
  item.iconPath = new vscode.ThemeIcon(vote.decision === "approve" ? "check" : "close");
  item.tooltip = `${vote.approver} ${vote.decision === "approve" ? "approved" : "denied"} at ${new Date(vote.at).toISOString()}: ${vote.reason}`;
  return item;
}

function outcomeItem(record: RunRecord): vscode.TreeItem {
  const item = new vscode.TreeItem("");
  item.id = `${record.id}/outcome`;
  item.contextValue = "rlmPlanOutcome";
  if (record.status === "succeeded") {
    item.label = "value";
    item.description = preview(record.value);
    item.iconPath = new vscode.ThemeIcon("symbol-constant");
    item.tooltip = "The final value: click to open the whole run as JSON";
    item.command = { title: "Open Run as JSON", command: OPEN_RUN_AS_JSON_COMMAND, arguments: [record.id] };
    return item;
  }
  const error = record.error;
  item.label = record.status === "cancelled" ? "cancelled" : `error: ${error?.kind ?? record.status}`;
  item.description = error?.message ?? "";
  item.iconPath = STATUS_ICONS[record.status];
  item.tooltip = error ? `${error.phase}/${error.kind}: ${error.message}` : record.status;
  if (record.errorAt) {
    item.command = {
      title: "Reveal Step in Plan",
      command: REVEAL_STEP_COMMAND,
      arguments: [record.plan, record.errorAt],
    };
  }
  return item;
}

function preview(value: unknown): string {
  const text = typeof value === "string" ? JSON.stringify(value) : (JSON.stringify(value) ?? "null");
  return text.length > 80 ? `${text.slice(0, 79)}…` : text;
}

/** Read-only JSON documents of logged runs: `rlm-plan-run:/Run 3 needle-count.json?<id>`. */
export class RunDocuments implements vscode.TextDocumentContentProvider, vscode.Disposable {
  private readonly changed = new vscode.EventEmitter<vscode.Uri>();
  readonly onDidChange = this.changed.event;
  private readonly open = new Map<string, vscode.Uri>();
  private readonly subscription: vscode.Disposable;

  constructor(private readonly log: RunLog) {
    this.subscription = log.onDidChange((record) => {
      const uri = record && this.open.get(record.id);
      if (uri) this.changed.fire(uri);
    });
  }

  uriOf(record: RunRecord): vscode.Uri {
    const name = (displayPath(record.plan).split("/").pop() ?? "plan").replace(/\.rlmplan(\.json)?$/, "");
    const uri = vscode.Uri.from({
      scheme: RUN_DOCUMENT_SCHEME,
      path: `/Run ${record.number} ${name}.json`,
      query: record.id,
    });
    this.open.set(record.id, uri);
    return uri;
  }

  provideTextDocumentContent(uri: vscode.Uri): string {
    const record = this.log.get(uri.query);
    if (!record) return JSON.stringify({ error: "This run is no longer in the run log." }, null, 2);
    return `${JSON.stringify(record, null, 2)}\n`;
  }

  dispose(): void {
    this.subscription.dispose();
    this.changed.dispose();
  }
}
