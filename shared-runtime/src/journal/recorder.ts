// Records one run into the journal as it happens: a RunObserver (run/observer.ts) that startRun
// feeds the event stream, every model and tool call, and the report. Rows are kept in memory and
// committed when a step ends, with the steps other runs of this process ended meanwhile (group
// commit into the write-ahead log, synced off the event loop: journalFile.ts). The run's next model
// or tool call, and its report, wait until that commit is on disk: a crash loses at most the steps
// since the last call, and those made no call, so a resume runs no recorded call again. The journal
// never stops a run: a write that fails is tried again at the next step, and a journal found damaged
// (or replaced by another process) is moved aside and this run written whole into a fresh one.

import { randomUUID } from "node:crypto";
import { hostname } from "node:os";
import { basename } from "node:path";
import { exactJsonText, type JsonObject } from "../json";
import type { RunEvent } from "../run/events";
import { APPROVAL_KINDS, RunFailure, safeErrorText } from "../run/errors";
import type { CallInterceptor, ObservedReport, RunObserver, RunStart } from "../run/observer";
import type { SecretMask } from "../mask/secretMask";
import { callIdentity, digestOf, holdsHandle } from "./requestKey";
import { countsJson, NO_USAGE, omittedReply, replyText, spent, startDetails, usageColumns } from "./recordedValues";
import { processIdentity } from "./liveness";
import { ReplayBook, type ResumePoint } from "./replay";
import {
  INSERT_CALL,
  INSERT_EVENT,
  insertSql,
  REPLACE_RUN,
  RUN_COLUMNS,
  statement,
  type CallRow,
  type EventRow,
  failedStatus,
  type RunRow,
  runUpdate,
  UPDATE_RUN,
} from "./rows";
import type { BatchWriter } from "./journalFile";
import type { Database } from "./sqlite";
import { isJournalDamage, type JournalStore } from "./journalStore";
import type { RunOrigin } from "./runOrigin";

export interface RecordingMeta {
  readonly origin: RunOrigin;
  /** What the run was within its origin: a test run's "FILE#CASE" (listed, filterable). */
  readonly label?: string;
  readonly forkOf?: { readonly run: number; readonly step: string }; // a fork's parent and step ("steps/2")
  readonly plan: { readonly file?: string; readonly text: string };
  readonly hostProfile?: { readonly file: string; readonly text: string };
  /** The run's options as the front end names them (inputs, mocks, parallel, budget), for history and resume. */
  readonly options: JsonObject;
  readonly currency?: string; // of its calls' cost (the host profile's), kept in the run's details
  /** The run's mask: every text stored passes through it. */
  readonly mask: SecretMask;
  /** A journal problem that did not stop the run (said once per kind). */
  readonly onNotice?: (message: string) => void;
}

const TERMINAL = new Set(["step_finished", "step_failed", "attempt_failed"]);

export class RunRecorder implements RunObserver, BatchWriter {
  readonly elapsedBeforeMs: number;
  private readonly run: RunRow;
  private readonly texts = new Map<string, string>();
  private readonly events: EventRow[] = [];
  private readonly calls: CallRow[] = [];
  /** Rows not yet committed: indexes into events and calls from which to write. */
  private eventsWritten = 0;
  private readonly callsDirty = new Set<CallRow>();
  private runDirty = true;
  /** The file generation (store.generation) this run's rows are in; 0 before its first commit. */
  private generation = 0;
  /** The generation the rows being written go into (set by writeRows, kept by settled). */
  private writing = 0;
  /** The run's id before the write in flight (restored if it rolls back). */
  private idBefore = 0;
  /** Resolves when the rows of the steps ended so far are on disk. */
  private durable: Promise<void> = Promise.resolve();
  private readonly segment: number;
  private readonly begun = performance.now();
  private readonly callCounts = new Map<string, number>();
  private readonly startCounts = new Map<string, number>();
  private readonly replaying = new Map<string, boolean>();
  private readonly said = new Set<string>();
  private details: JsonObject;
  private readonly statusBefore: RunRow["status"];

  private constructor(
    private readonly store: JournalStore,
    private readonly meta: RecordingMeta,
    private readonly book: ReplayBook | undefined,
    resumed: ResumePoint | undefined,
  ) {
    const mask = meta.mask;
    const planText = mask.mask(meta.plan.text);
    const hostText = meta.hostProfile ? mask.mask(meta.hostProfile.text) : undefined;
    const planDigest = digestOf(meta.plan.text);
    this.texts.set(planDigest, planText);
    const hostDigest = meta.hostProfile ? digestOf(meta.hostProfile.text) : null;
    if (hostDigest && hostText !== undefined) this.texts.set(hostDigest, hostText);
    this.details = { options: mask.maskValue(meta.options), ...(meta.currency ? { currency: meta.currency } : {}) };
    this.statusBefore = resumed?.run.status ?? "running";
    if (resumed) {
      this.run = {
        ...resumed.run,
        status: "running",
        ended_at: null,
        pid: process.pid,
        machine: hostname(),
        process: processIdentity(),
        parent_id: meta.forkOf?.run ?? null,
        fork_step: meta.forkOf?.step ?? null,
      };
      this.run.segments += 1;
      this.segment = this.run.segments;
      // One by one, not spread: a resumed run may hold more events than the call stack takes arguments.
      for (const event of resumed.events) this.events.push(event);
      for (const call of resumed.calls) this.calls.push(call);
      this.eventsWritten = this.events.length;
      this.elapsedBeforeMs = resumed.elapsedMs;
      this.details = { ...(JSON.parse(resumed.run.details) as JsonObject), ...this.details };
    } else {
      this.segment = 1;
      this.elapsedBeforeMs = 0;
      this.run = {
        id: 0,
        uid: randomUUID(),
        origin: meta.origin,
        plan_file: meta.plan.file ?? null,
        plan_name: meta.plan.file ? basename(meta.plan.file) : "(text)",
        plan_digest: planDigest,
        host_file: meta.hostProfile?.file ?? null,
        host_digest: hostDigest,
        status: "running",
        stage: null,
        error_kind: null,
        started_at: Date.now(),
        ended_at: null,
        elapsed_ms: null,
        segments: 1,
        pid: process.pid,
        machine: hostname(),
        mocked: 0,
        details: "{}",
        label: meta.label === undefined ? null : mask.mask(meta.label),
        process: processIdentity(),
        parent_id: meta.forkOf?.run ?? null,
        fork_step: meta.forkOf?.step ?? null,
      };
    }
    // The first row goes with the next batch, not synced for itself (no one waits for it: the first
    // step's sync covers it); `runId` writes it at once.
    void store.commitSoon(this, false);
  }

  /** Starts the journal entry of a new run (as `running`: written with the next batch, or when its id is asked). */
  static begin(store: JournalStore, meta: RecordingMeta): RunRecorder {
    return new RunRecorder(store, meta, undefined, undefined);
  }

  /** Continues the entry of a run that did not finish (see replay.ts for what is checked first). */
  static resume(store: JournalStore, point: ResumePoint, meta: RecordingMeta): RunRecorder {
    return new RunRecorder(store, meta, new ReplayBook(point), point);
  }

  /**
   * The run's number: its first row is written now if it is still waiting for its batch, without
   * waiting for the disk (the batch's sync covers it). A crash before the first step's commit loses
   * a run that completed no step, which a resume would run from its start anyway.
   */
  get runId(): number {
    if (this.run.id === 0) this.store.commitPending();
    return this.run.id;
  }

  get uid(): string {
    return this.run.uid;
  }

  started(start: RunStart): void {
    this.details = { ...this.details, ...startDetails(start, this.begun) };
    this.run.mocked = start.mocked ? 1 : 0;
    // Written with the run's first step (nothing outside the process has happened yet).
    this.runDirty = true;
  }

  event(event: RunEvent): void {
    const key = JSON.stringify(event.path);
    let replayed = false;
    if (this.book) {
      if (event.type === "step_started") {
        const occurrence = (this.startCounts.get(key) ?? 0) + 1;
        this.startCounts.set(key, occurrence);
        this.replaying.set(key, this.book.completed(key, occurrence));
      }
      replayed = this.replaying.get(key) === true;
    }
    this.events.push({
      run_id: this.run.id,
      seq: this.events.length + 1,
      segment: this.segment,
      type: event.type,
      elapsed_ms: event.elapsed_ms,
      replayed: replayed ? 1 : 0,
      body: this.meta.mask.mask(JSON.stringify(event)),
    });
    // A step that ended is on disk before the run's next call; a replayed one was already.
    if (TERMINAL.has(event.type) && !replayed) this.durable = this.store.commitSoon(this);
  }

  readonly call: CallInterceptor = async (call, proceed) => {
    const path = JSON.stringify(call.step.path);
    const occurrence = (this.callCounts.get(path) ?? 0) + 1;
    this.callCounts.set(path, occurrence);
    const identity = callIdentity(call, this.meta.mask);
    const recorded = identity.whole ? this.book?.take(path, occurrence, identity.key) : undefined;
    if (recorded) return recorded();
    await this.durable;
    const begun = performance.now();
    const row: CallRow = {
      run_id: this.run.id,
      seq: this.calls.length + 1,
      segment: this.segment,
      kind: call.kind,
      name: call.name,
      model: call.kind === "model" ? (call.model ?? null) : null,
      path,
      occurrence,
      request_key: identity.key,
      request: identity.text,
      status: "pending",
      reply: null,
      error: null,
      replayable: 0,
      elapsed_ms: Math.round(this.elapsed()),
      duration_ms: 0,
      ...NO_USAGE,
    };
    this.calls.push(row);
    this.callsDirty.add(row);
    try {
      const reply = await proceed();
      row.status = "ok";
      const text = replyText(reply);
      row.reply = text === undefined ? omittedReply(reply) : this.meta.mask.mask(text);
      row.replayable = identity.whole && text !== undefined && !holdsHandle(reply) ? 1 : 0;
      if (call.kind === "model") Object.assign(row, usageColumns(call, reply));
      return reply;
    } catch (error) {
      // A call abandoned (or held by an approval rule: never made) has no reply: it runs again on resume.
      if (call.signal.aborted || (error instanceof RunFailure && APPROVAL_KINDS.has(error.error.kind)))
        row.status = "abandoned";
      else {
        row.status = "error";
        row.error = this.meta.mask.mask(safeErrorText(error));
        row.replayable = identity.whole ? 1 : 0;
      }
      throw error;
    } finally {
      row.duration_ms = Math.round(performance.now() - begun);
      this.callsDirty.add(row);
    }
  };

  async finished(report: ObservedReport): Promise<void> {
    const run = this.run;
    // A resume that never got to execute (a key unset, a program gone) leaves the run resumable.
    if (this.book && report.stage !== "execute") run.status = this.statusBefore;
    else run.status = report.ok ? "ok" : failedStatus(String(report.error?.["kind"]));
    run.stage = report.stage;
    run.error_kind = report.ok ? null : String(report.error?.["kind"] ?? "");
    run.ended_at = Date.now();
    run.elapsed_ms = Math.round(this.elapsed());
    run.mocked = report.mocked ? 1 : run.mocked;
    const mask = this.meta.mask;
    const { value: _value, error: _error, ...before } = this.details; // a resumed run's earlier end is not its end
    this.details = {
      ...before,
      ...(report.budget ? { budget: countsJson(report.budget) } : {}),
      remaining: report.remaining,
      ...(report.budget ? { spent: spent(report.budget, report.remaining) } : {}),
      checkpoints: mask.maskValue([...report.checkpoints]),
      transitions: report.transitions,
      ...(report.ok ? { value: mask.maskValue(report.value ?? null) } : { error: mask.maskValue(report.error ?? {}) }),
    };
    this.runDirty = true;
    await this.store.commitSoon(this);
    this.verify();
  }

  /** Run time: this process's share plus a resumed run's earlier part. */
  private elapsed(): number {
    return performance.now() - this.begun + this.elapsedBeforeMs;
  }

  /** BatchWriter: this run's pending rows; all of them when the file is not the one they went into. */
  writeRows(db: Database, generation: number): void {
    const all = this.generation !== 0 && this.generation !== generation;
    this.idBefore = this.run.id;
    this.run.details = exactJsonText(this.details);
    if (all) {
      // The fresh file has none of this run's texts either.
      this.texts.set(this.run.plan_digest, this.meta.mask.mask(this.meta.plan.text));
      if (this.meta.hostProfile && this.run.host_digest)
        this.texts.set(this.run.host_digest, this.meta.mask.mask(this.meta.hostProfile.text));
    }
    for (const [digest, text] of this.texts)
      statement(db, "INSERT OR IGNORE INTO texts (digest, text) VALUES (?, ?)").run(digest, text);
    if (this.run.id === 0 || all) this.insertRun(db, all);
    else if (this.runDirty) statement(db, UPDATE_RUN).run(runUpdate(this.run));
    const insertEvent = statement(db, INSERT_EVENT);
    for (let i = all ? 0 : this.eventsWritten; i < this.events.length; i++)
      insertEvent.run({ ...(this.events[i] as EventRow), run_id: this.run.id });
    const insertCall = statement(db, INSERT_CALL);
    for (const row of all ? this.calls : this.callsDirty) insertCall.run({ ...row, run_id: this.run.id });
    this.writing = generation;
  }

  /** BatchWriter: what was written is on disk (or, without damage, not: it is tried again at the next step). */
  settled(committed: boolean, error?: unknown): void {
    if (!committed) {
      // A run row inserted in the rolled-back transaction has no id: another run may get that one.
      this.run.id = this.idBefore;
      this.notice("write", `the run journal could not record this step (it will try again): ${safeErrorText(error)}`);
      return;
    }
    this.texts.clear();
    this.eventsWritten = this.events.length;
    this.callsDirty.clear();
    this.runDirty = false;
    this.generation = this.writing;
  }

  /** BatchWriter: the batch this run was in found the journal damaged and moved it aside. */
  damaged(notice: string): void {
    this.notice("recovered", notice);
  }

  /** BatchWriter: this run's rows are in the journal, but the disk did not confirm them. */
  readonly unsynced = (notice: string): void => this.notice("sync", notice);

  /** Inserts the run row: a new id the first time; when rewriting, its own id unless another run has it. */
  private insertRun(db: Database, rewrite: boolean): void {
    const { id: _id, ...row } = this.run;
    if (rewrite && this.run.id !== 0) {
      const holder = db.prepare("SELECT uid FROM runs WHERE id = ?").get(this.run.id) as { uid: string } | undefined;
      if (!holder || holder.uid === this.run.uid) {
        statement(db, REPLACE_RUN).run(this.run);
        return;
      }
      db.prepare("DELETE FROM runs WHERE uid = ?").run(this.run.uid);
    }
    const info = db.prepare(insertSql("runs", RUN_COLUMNS.replace(/^id, /, ""))).run(row);
    const before = this.run.id;
    this.run.id = Number(info.lastInsertRowid);
    if (rewrite && before !== 0 && before !== this.run.id)
      this.notice("renumbered", `this run is recorded as run ${this.run.id} (run ${before} is another run there)`);
  }

  /** The journal moved aside: this run, every row of it, goes into the fresh one. */
  private rescue(notice: string): void {
    this.notice("recovered", notice);
    try {
      const db = this.store.db;
      const generation = this.store.generation;
      db.transaction(() => this.writeRows(db, generation))();
      this.settled(true);
    } catch (error) {
      this.notice("write", `the run journal could not record this run: ${safeErrorText(error)}`);
    }
  }

  /**
   * At the end, a second connection reads the file now at the journal's path: a file damaged
   * behind SQLite's back, or moved aside by another process, shows there, and this run is
   * written again, whole.
   */
  private verify(): void {
    // The file as our last commit left it: nothing behind SQLite's back, no second connection needed.
    if (this.store.unchanged()) return;
    let found: { uid: string; events: number } | undefined;
    try {
      found = this.store.readBack(this.run.id);
    } catch (error) {
      if (isJournalDamage(error)) return this.rescue(this.store.recover(error));
      return this.notice("verify", `the run journal could not be read back: ${safeErrorText(error)}`);
    }
    if (found?.uid === this.run.uid && found.events === this.events.length) return;
    this.store.reopen();
    this.rescue(`the run journal ${this.store.file} no longer held this run (another process moved it aside?)`);
  }

  private notice(kind: string, message: string): void {
    if (this.said.has(kind)) return;
    this.said.add(kind);
    try {
      this.meta.onNotice?.(this.meta.mask.mask(message));
    } catch {
      // a listener's failure is its own
    }
  }
}
