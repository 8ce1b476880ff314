// The workspace's run journal in the Plan Runs view: the runs the server lists from it (the CLI's,
// other windows', the debugger's) join the run log as records, read whole from the server when
// one is opened (the extension host never loads the journal's native module); the list is read
// again when the journal's file changes. An interrupted run offers "Resume Run", which resumes
// it through the server as `rlm-plan run --resume` does; a recorded run "Debug Recorded Run",
// which the debug adapter steps through, forward and backward, executing nothing.

import * as vscode from "vscode";
import { ExecuteCommandRequest, type LanguageClient } from "vscode-languageclient/node";
import type { RunEvent } from "@rlm-plan/core";
import { reportEnd, showProgress, UNTRUSTED_MESSAGE, type RunDependencies } from "./runCommand";
import { withoutRanges, type LoggedTransition, type RunLog, type RunRecord, type RunStatus } from "./runLog";
import { displayPath } from "./workspacePaths";
import {
  JournalRunRequest,
  JournalRunsRequest,
  ResumeRunCommand,
  type JournalRunSummary,
} from "@rlm-plan/language-server/protocol";

const REFRESH_RUNS_COMMAND = "rlmPlan.refreshRuns";
const RESUME_RUN_COMMAND = "rlmPlan.resumeRun";
const DEBUG_RECORDED_RUN_COMMAND = "rlmPlan.debugRecordedRun";

/** Runs listed per workspace folder. */
const LIST_LIMIT = 200;
/** The journal's file changes at every step of a run: the list is read again once it settles. */
const SETTLE_MS = 400;

const STATUSES: Record<JournalRunSummary["status"], RunStatus> = {
  running: "running",
  interrupted: "interrupted",
  waiting: "waiting",
  ok: "succeeded",
  failed: "failed",
  cancelled: "cancelled",
};

export class JournalRuns implements vscode.Disposable {
  private readonly subscriptions: vscode.Disposable[] = [];
  private timer: NodeJS.Timeout | undefined;
  private reading: Promise<void> = Promise.resolve();

  constructor(
    private readonly client: LanguageClient,
    private readonly log: RunLog,
  ) {
    log.loader = (record) => this.load(record);
    const watcher = vscode.workspace.createFileSystemWatcher("**/.rlm-plan/runs.sqlite*");
    const changed = () => this.refreshSoon();
    this.subscriptions.push(
      watcher,
      watcher.onDidCreate(changed),
      watcher.onDidChange(changed),
      watcher.onDidDelete(changed),
      vscode.workspace.onDidChangeWorkspaceFolders(changed),
    );
  }

  /** Reads the list again after the journal settles. */
  refreshSoon(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = setTimeout(() => void this.refresh(), SETTLE_MS);
  }

  /** Reads every workspace folder's journal list (one read at a time). */
  refresh(): Promise<void> {
    this.reading = this.reading.then(() => this.read());
    return this.reading;
  }

  dispose(): void {
    if (this.timer) clearTimeout(this.timer);
    this.log.loader = undefined;
    for (const subscription of this.subscriptions) subscription.dispose();
  }

  private async read(): Promise<void> {
    if (!this.client.isRunning()) return;
    const seen = new Set<string>();
    const records: RunRecord[] = [];
    for (const folder of vscode.workspace.workspaceFolders ?? []) {
      const answer = await this.client
        .sendRequest(JournalRunsRequest.type, { uri: folder.uri.toString(), limit: LIST_LIMIT })
        .catch(() => undefined);
      // Two folders under one journal list it once.
      if (!answer?.journal || seen.has(answer.journal)) continue;
      seen.add(answer.journal);
      records.push(...answer.runs.map(listedRecord));
    }
    this.log.setJournalRuns(records);
  }

  /** Fills a listed run with what the journal holds of it: events, transitions, value or error. */
  private async load(record: RunRecord): Promise<void> {
    const ref = record.journal;
    if (!ref) return;
    const run = await this.client
      .sendRequest(JournalRunRequest.type, { dir: ref.dir, id: ref.id })
      .catch(() => undefined);
    ref.loaded = true;
    if (!run) return;
    const events: RunEvent[] = run.events.map(withoutRanges);
    const transitions: LoggedTransition[] = [];
    let failedAt: RunEvent | undefined;
    for (const event of events) {
      if (event.type === "transition") transitions.push({ ...event.transition, path: [...event.path] });
      if (event.type === "step_failed") failedAt = event;
    }
    Object.assign(record, {
      events,
      transitions,
      checkpoints: [...run.checkpoints],
      ...(run.hostFile ? { hostProfile: vscode.Uri.file(run.hostFile).toString() } : {}),
      ...(run.budgetRemaining ? { budgetRemaining: { ...run.budgetRemaining } } : {}),
      approvals: [...(run.approvals ?? [])],
      ...("value" in run ? { value: run.value } : {}),
      ...(run.error ? { error: run.error } : {}),
      ...(failedAt
        ? {
            failedStep: { operation: failedAt.operation, bind: failedAt.bind, path: [...failedAt.path] },
            errorAt: [...failedAt.path],
          }
        : {}),
    });
  }
}

/** A listed journal run as a run log record (read whole on demand). */
function listedRecord(run: JournalRunSummary): RunRecord {
  return {
    id: `journal:${run.uid}`,
    number: run.id,
    plan: run.planFile ? vscode.Uri.file(run.planFile).toString() : run.plan,
    hostProfile: null,
    startedAt: run.startedAt,
    serverRunId: "",
    status: STATUSES[run.status],
    ...(run.elapsedMs !== null ? { durationMs: run.elapsedMs } : {}),
    transitions: [],
    journal: {
      dir: run.dir,
      id: run.id,
      uid: run.uid,
      origin: run.origin,
      ...(run.label !== null && run.label !== undefined ? { label: run.label } : {}),
      ...(run.forkOf ? { forkOf: { ...run.forkOf } } : {}),
      loaded: false,
    },
  };
}

/** "Resume Run": the recorded run continued through the server, shown as a run of its own. */
export function registerJournalCommands(deps: RunDependencies, journal: JournalRuns): vscode.Disposable {
  return vscode.Disposable.from(
    vscode.commands.registerCommand(REFRESH_RUNS_COMMAND, () => journal.refresh()),
    vscode.commands.registerCommand(RESUME_RUN_COMMAND, (target?: unknown) => resumeRun(deps, target)),
    vscode.commands.registerCommand(DEBUG_RECORDED_RUN_COMMAND, (target?: unknown) => debugRecordedRun(target)),
  );
}

/** The run item's record (a view item carries `{record}`). */
function recordOf(target: unknown): RunRecord | undefined {
  const given = target as { record?: RunRecord } | RunRecord | undefined;
  return given && "record" in given ? given.record : (given as RunRecord | undefined);
}

/** "Debug Recorded Run": the debugger steps through the run as recorded, executing nothing. */
async function debugRecordedRun(target: unknown): Promise<boolean> {
  const record = recordOf(target);
  const ref = record?.journal;
  if (!record || !ref || !record.plan.startsWith("file:")) {
    void vscode.window.showErrorMessage("Choose a recorded run of a plan file in the Plan Runs view to debug it.");
    return false;
  }
  const plan = vscode.Uri.parse(record.plan);
  const started = await vscode.debug.startDebugging(vscode.workspace.getWorkspaceFolder(plan), {
    type: "rlm-plan",
    request: "launch",
    name: `Recorded run ${ref.id}`,
    program: plan.fsPath,
    replay: { journal: ref.dir, run: ref.id },
    stopOnEntry: true,
  });
  // The command is run from the Explorer's Plan Runs; VS Code 1.139 opens Run and Debug only when
  // a breakpoint stops (1.96 did on start), so the replay, paused on entry, would look like nothing.
  if (started) await vscode.commands.executeCommand("workbench.view.debug");
  return started;
}

async function resumeRun(deps: RunDependencies, target: unknown): Promise<RunRecord | undefined> {
  const resumed = recordOf(target);
  const ref = resumed?.journal;
  if (!resumed || !ref) {
    void vscode.window.showErrorMessage("Choose an interrupted run of the Plan Runs view to resume it.");
    return undefined;
  }
  if (!vscode.workspace.isTrusted) {
    void vscode.window.showErrorMessage(UNTRUSTED_MESSAGE);
    return undefined;
  }
  const { client, output, keys } = deps;
  let answer: ResumeRunCommand.Result;
  try {
    const env = resumed.plan.startsWith("file:") ? await keys.keysFor(resumed.plan) : {};
    const args: ResumeRunCommand.Arguments = [
      { dir: ref.dir, id: ref.id, ...(Object.keys(env).length > 0 ? { env } : {}) },
    ];
    answer = (await client.sendRequest(ExecuteCommandRequest.type, {
      command: ResumeRunCommand.command,
      arguments: args,
    })) as ResumeRunCommand.Result;
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    output.refused(resumed.plan, message);
    void vscode.window.showErrorMessage(message);
    return undefined;
  }
  return followResumedRun(deps, answer, resumed.hostProfile, ref.id);
}

/** A run the server resumed (Resume Run, or an approval): shown as a run of its own until it ends. */
export async function followResumedRun(
  deps: RunDependencies,
  answer: ResumeRunCommand.Result,
  hostProfile: string | null,
  id: number,
): Promise<RunRecord> {
  const { log, runs, output } = deps;
  const record = log.begin(answer.uri, hostProfile, answer.runId);
  if (answer.journal) record.journal = answer.journal;
  output.line(`Resuming run ${id} of ${displayPath(answer.uri)} (completed steps answered from the journal)`);
  output.show();
  const session = runs.start(answer.runId, record);
  await showProgress(deps, session);
  void reportEnd(deps, record);
  return record;
}
