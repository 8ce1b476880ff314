// The run log: every run of a plan from this workspace, kept on disk in the extension's storage
// (the workspace's when a folder is open, the global one otherwise) and bounded by
// `rlmPlan.runHistoryLimit`. A record holds what the server reported and nothing else: the
// plan, its host profile, when it started, how long it took, the runtime's events (bounded;
// the graph's states and its replay read them), its transitions (which carry no content by
// definition), and its final value or structured error. Never a key, an environment variable,
// a prompt or a model's text: the server sends none of those (failure messages are masked).

import * as vscode from "vscode";
import type { JsonValue, PlanError, RunEvent, Transition } from "@rlm-plan/core";
import type { JournalRunRequest } from "@rlm-plan/language-server/protocol";

export type RunStatus = "running" | "succeeded" | "failed" | "cancelled" | "interrupted" | "waiting";

/** Where a step is in its plan: the JSON path the server reported when it started. */
export type StepPath = readonly (string | number)[];

export interface StepRef {
  readonly operation: string;
  readonly bind: string | null;
  readonly path?: StepPath;
}

export interface LoggedTransition extends Transition {
  /** The step's JSON path in the plan, from the transition's event. */
  readonly path?: StepPath;
}

export interface RunRecord {
  /** Unique in this log; stable across sessions. */
  readonly id: string;
  /** Shown to people: "Run 12". Counts up per log. */
  readonly number: number;
  /** The plan document's URI. */
  readonly plan: string;
  /** The host profile file the server used, or null when it named none. */
  readonly hostProfile: string | null;
  /** ISO time the run was asked for. */
  readonly startedAt: string;
  /** The server's id of the run (unique only while that server runs). */
  readonly serverRunId: string;
  /** For a dry run: the mocks file's URI (its tools and providers answered from it). */
  readonly mocks?: string;
  status: RunStatus;
  /** Milliseconds from start to end, as the server measured them. */
  durationMs?: number;
  transitions: LoggedTransition[];
  /** Transitions past MAX_TRANSITIONS_KEPT that were counted but not kept. */
  droppedTransitions?: number;
  /**
   * The runtime's events in the order the server sent them, without their source ranges (a
   * step is named by its path; ranges go stale as the plan is edited); a debug run's too, as the
   * adapter forwarded them. Absent for runs logged before events were kept.
   */
  events?: RunEvent[];
  /** Events past MAX_EVENTS_KEPT that were counted but not kept. */
  droppedEvents?: number;
  value?: JsonValue;
  /** True when the value was too large to keep; `value` is then its JSON text, cut. */
  valueTruncated?: boolean;
  checkpoints?: string[];
  budgetRemaining?: Readonly<Record<string, number>>;
  error?: PlanError;
  /** The step the run failed in, as its step_failed event named it (or the one running when it stopped). */
  failedStep?: StepRef;
  /** Where in the plan the error is: the path the error names, or the failed step's. */
  errorAt?: StepPath;
  /** The run's entry in the workspace's run journal (the server's answer says it). */
  journal?: JournalRef;
  /** Its requests for approval and their votes (docs/approvals.md), as the journal holds them. */
  approvals?: JournalRunRequest.Result["approvals"][number][];
}

/** A run in the run journal: its folder, number and uid there, who started it, whether it was read whole. */
export interface JournalRef {
  readonly dir: string;
  readonly id: number;
  readonly uid: string;
  /** cli, editor, debugger, test: set on runs listed from the journal only. */
  readonly origin?: string;
  /** A test run's "FILE#CASE" (rlm-plan test): which case it was. */
  readonly label?: string;
  /** False until the run's events, value or error were read from the journal. */
  loaded?: boolean;
  /** A fork ("Rerun From Here", `run --from`): the run it forked from, in the same journal, and the step. */
  readonly forkOf?: { readonly run: number; readonly step: string } | null;
}

/** A run with thousands of steps keeps its first transitions and counts the rest. */
export const MAX_TRANSITIONS_KEPT = 2000;
/** And its first events (about three a step), failures past the bound included in the count only. */
export const MAX_EVENTS_KEPT = 6000;
/** A final value's JSON text above this is kept cut, so one run cannot swell the log. */
export const MAX_VALUE_CHARS = 256 * 1024;
export const DEFAULT_HISTORY_LIMIT = 50;

const LOG_FILE = "runs.json";
const LOG_VERSION = 1;

export class RunLog implements vscode.Disposable {
  private records: RunRecord[] = [];
  /** Runs of the run journal that are not in this log (the CLI's, other windows'): listed, never saved here. */
  private journalRecords: RunRecord[] = [];
  /** Reads a journal run whole (journalRuns.ts); undefined until the journal is wired. */
  loader: ((record: RunRecord) => Promise<void>) | undefined;
  private readonly changed = new vscode.EventEmitter<RunRecord | undefined>();
  /** Fires with the record that changed, or undefined when the list itself changed. */
  readonly onDidChange = this.changed.event;
  private writing: Promise<void> = Promise.resolve();

  constructor(
    private readonly folder: vscode.Uri,
    private limit: number,
  ) {}

  /** Reads the log from disk; a missing or unreadable file is an empty log. */
  async load(): Promise<void> {
    try {
      const bytes = await vscode.workspace.fs.readFile(vscode.Uri.joinPath(this.folder, LOG_FILE));
      const data: unknown = JSON.parse(new TextDecoder().decode(bytes));
      if (isRecord(data) && data.version === LOG_VERSION && Array.isArray(data.runs)) {
        this.records = (data.runs as RunRecord[]).filter((run) => isRecord(run) && typeof run.id === "string");
      }
    } catch {
      this.records = [];
    }
    // A run still "running" in a saved log belonged to a window that closed mid-run.
    for (const run of this.records) if (run.status === "running") run.status = "interrupted";
    this.changed.fire(undefined);
  }

  /** Newest first: this log's runs and the journal's others. */
  all(): readonly RunRecord[] {
    if (this.journalRecords.length === 0) return this.records;
    const mine = new Set(this.records.map((run) => run.journal?.uid));
    const others = this.journalRecords.filter((run) => !mine.has(run.journal?.uid));
    return [...this.records, ...others].sort((a, b) => b.startedAt.localeCompare(a.startedAt));
  }

  get(id: string): RunRecord | undefined {
    return this.records.find((run) => run.id === id) ?? this.journalRecords.find((run) => run.id === id);
  }

  /** Replaces the journal's runs (as listed by the server), keeping those already read whole. */
  setJournalRuns(records: readonly RunRecord[]): void {
    const known = new Map(this.journalRecords.map((run) => [run.id, run]));
    this.journalRecords = records.map((run) => {
      const before = known.get(run.id);
      return before && before.status === run.status ? before : run;
    });
    this.changed.fire(undefined);
  }

  /** The run's requests for approval as the journal now holds them; the view redraws the run when they changed. */
  setApprovals(record: RunRecord, approvals: RunRecord["approvals"]): void {
    if (JSON.stringify(record.approvals) === JSON.stringify(approvals)) return;
    record.approvals = approvals;
    this.changed.fire(record);
  }

  /** A journal run read whole (its events, value or error), for the graph's replay and JSON. */
  async complete(record: RunRecord): Promise<RunRecord> {
    if (record.journal && record.journal.loaded === false && this.loader) {
      await this.loader(record);
      this.changed.fire(record);
    }
    return record;
  }

  /** Starts the record of a run the server has just accepted. */
  begin(plan: string, hostProfile: string | null, serverRunId: string, mocks?: string): RunRecord {
    const number = (this.records[0]?.number ?? 0) + 1;
    const startedAt = new Date();
    const record: RunRecord = {
      id: `${startedAt.getTime().toString(36)}-${number}`,
      number,
      plan,
      hostProfile,
      startedAt: startedAt.toISOString(),
      serverRunId,
      ...(mocks ? { mocks } : {}),
      status: "running",
      transitions: [],
      events: [],
    };
    this.records.unshift(record);
    this.trim();
    this.changed.fire(undefined);
    void this.save();
    return record;
  }

  /** Adds a transition to a running record (not saved until the run ends). */
  addTransition(record: RunRecord, transition: LoggedTransition): void {
    if (record.transitions.length < MAX_TRANSITIONS_KEPT) record.transitions.push(transition);
    else record.droppedTransitions = (record.droppedTransitions ?? 0) + 1;
    this.changed.fire(record);
  }

  /** Adds one of the runtime's events to a running record, without its ranges (not saved until the run ends). */
  addEvent(record: RunRecord, event: RunEvent): void {
    const events = (record.events ??= []);
    if (events.length < MAX_EVENTS_KEPT) events.push(withoutRanges(event));
    else record.droppedEvents = (record.droppedEvents ?? 0) + 1;
    // Transitions fire through addTransition; a failure changes the graph at once.
    if (event.type === "attempt_failed" || event.type === "step_failed") this.changed.fire(record);
  }

  /** Records how a run ended and saves the log. */
  finish(record: RunRecord, outcome: Partial<RunRecord> & { status: RunStatus }): void {
    Object.assign(record, outcome);
    if (outcome.value !== undefined) {
      const text = JSON.stringify(outcome.value) ?? "null";
      if (text.length > MAX_VALUE_CHARS) {
        record.value = text.slice(0, MAX_VALUE_CHARS);
        record.valueTruncated = true;
      }
    }
    this.changed.fire(record);
    void this.save();
  }

  clear(): void {
    this.records = this.records.filter((run) => run.status === "running");
    this.changed.fire(undefined);
    void this.save();
  }

  setLimit(limit: number): void {
    this.limit = limit;
    if (this.trim()) {
      this.changed.fire(undefined);
      void this.save();
    }
  }

  /** Resolves when every write asked for so far is on disk. */
  flush(): Promise<void> {
    return this.writing;
  }

  dispose(): void {
    this.changed.dispose();
  }

  /** Drops the oldest finished runs beyond the limit; true when any was dropped. */
  private trim(): boolean {
    const before = this.records.length;
    let kept = 0;
    this.records = this.records.filter((run) => run.status === "running" || ++kept <= this.limit);
    return this.records.length !== before;
  }

  private save(): Promise<void> {
    // Writes are chained so that an older snapshot never lands after a newer one.
    const snapshot = JSON.stringify({ version: LOG_VERSION, runs: this.records });
    this.writing = this.writing.then(async () => {
      try {
        await vscode.workspace.fs.createDirectory(this.folder);
        await vscode.workspace.fs.writeFile(
          vscode.Uri.joinPath(this.folder, LOG_FILE),
          new TextEncoder().encode(snapshot),
        );
      } catch (error) {
        console.error(`rlm-plan: could not save the run log: ${String(error)}`);
      }
    });
    return this.writing;
  }
}

/** The history limit setting, within its bounds. */
export function historyLimit(): number {
  const value = vscode.workspace.getConfiguration("rlmPlan").get<number>("runHistoryLimit", DEFAULT_HISTORY_LIMIT);
  return Number.isInteger(value) && value >= 1 ? Math.min(value, 1000) : DEFAULT_HISTORY_LIMIT;
}

export function withoutRanges(event: RunEvent): RunEvent {
  const { range: _range, ...rest } = event;
  if (!("error" in rest)) return rest as RunEvent;
  const { range: _errorRange, ...error } = rest.error;
  return { ...rest, error } as RunEvent;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}
