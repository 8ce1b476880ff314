// Reading the journal back: the list of runs (filtered by plan, status and start time), one run
// whole (its texts, events and calls), and pruning. What `rlm-plan runs` and the editor show.

import { basename } from "node:path";
import type { JsonObject, JsonValue } from "../json";
import { roundMoney } from "../plan/modelCost";
import { verdictOf, type CaseVerdict } from "./caseVerdicts";
import { costWithin, type CostRange } from "./runCost";
import { processAlive } from "./liveness";
import { CALL_COLUMNS, EVENT_COLUMNS, RUN_COLUMNS, type CallRow, type EventRow, type RunRow } from "./rows";
import type { JournalStore } from "./journalStore";

/** As listed: `interrupted` is a `running` run whose process is gone. */
export type ShownStatus = "running" | "interrupted" | "waiting" | "ok" | "failed" | "cancelled";

export interface RunSummary {
  readonly id: number;
  readonly uid: string;
  /** Who started the run: cli, editor, debugger, test or worker. */
  readonly origin: string;
  /** What the run was within its origin: a test run's "FILE#CASE" (the test file relative to the host profile's folder). */
  readonly label: string | null;
  readonly plan: string;
  readonly planFile: string | null;
  readonly status: ShownStatus;
  readonly stage: string | null;
  readonly errorKind: string | null;
  /** ISO 8601. */
  readonly startedAt: string;
  readonly endedAt: string | null;
  readonly elapsedMs: number | null;
  readonly segments: number;
  readonly mocked: boolean;
  /** The run this one forked from (`run --from RUN --step PATH`) and the step it forked at. */
  readonly forkOf: RunFork | null;
  /** What its model calls used and cost; absent when it made none. */
  readonly usage?: RunUsage;
  /** A test case's run: whether the case met its expectations, as the test runner judged; absent otherwise. */
  readonly verdict?: CaseVerdict;
}

/** A run's model calls summed: tokens, and money in the host profile's currency. */
export interface RunUsage {
  readonly calls: number;
  readonly inputTokens: number;
  readonly outputTokens: number;
  /** Some call's provider reported no usage: its counts are the call's bounds. */
  readonly estimated: boolean;
  /** The priced calls' cost; null when none was priced. */
  readonly cost: number | null;
  /** Calls whose provider has no price (their cost is not in `cost`). */
  readonly unpriced: number;
  readonly currency: string | null;
}

/** Where a fork branched off: its parent run and the step ("steps/2"). */
export interface RunFork {
  readonly run: number;
  readonly step: string;
}

export interface RunFilter {
  /** A plan file name or path (its end matches). */
  readonly plan?: string;
  readonly status?: ShownStatus;
  /** Runs started from this origin (cli, editor, debugger, test, worker). */
  readonly origin?: string;
  /** Runs whose label holds this text (a test file or case name). */
  readonly label?: string;
  /** Runs started at or after this time (ms since the epoch). */
  readonly since?: number;
  /** Runs whose model calls cost within these bounds (runCost), in each run's own currency. */
  readonly cost?: CostRange;
  /** At most this many, newest first. */
  readonly limit?: number;
}

/**
 * The one sum of a run's model calls, as JSON text (calls, input, output, estimated, cost, unpriced,
 * currency), read by the listing and by one run's detail alike; the currency is read from the
 * details only for a run that made a priced call.
 */
const USAGE_SQL = `(SELECT CASE WHEN count(*) = 0 THEN NULL ELSE json_array(count(*), total(input_tokens),
  total(output_tokens), max(coalesce(usage_estimated, 0)), sum(cost), count(*) - count(cost),
  CASE WHEN count(cost) = 0 THEN NULL ELSE json_extract(runs.details, '$.currency') END) END
  FROM calls WHERE calls.run_id = runs.id AND calls.kind = 'model' AND calls.input_tokens IS NOT NULL) AS usage`;

/**
 * The listing's columns, read as arrays (better-sqlite3's `raw`), dates made ISO 8601 by SQLite
 * (whole seconds by strftime, milliseconds by integer arithmetic: exact): ten thousand rows read as
 * objects, column by column through the driver, with their dates made in JavaScript, took about
 * twice as long (bench/README.md).
 */
const LIST_SQL = `SELECT id, uid, origin, plan_name, plan_file, status, stage, error_kind, ${iso("started_at")},
  ${iso("ended_at")}, elapsed_ms, segments, mocked, pid, machine, label, process, parent_id, fork_step, ${USAGE_SQL},
  verdict FROM runs`;

type ListedRow = [
  id: number,
  uid: string,
  origin: string,
  plan: string,
  planFile: string | null,
  status: RunRow["status"],
  stage: string | null,
  errorKind: string | null,
  startedAt: string,
  endedAt: string | null,
  elapsedMs: number | null,
  segments: number,
  mocked: number,
  pid: number | null,
  machine: string | null,
  label: string | null,
  process: string | null,
  parentId: number | null,
  forkStep: string | null,
  usage: string | null,
  verdict: string | null,
];

function usageOf(text: string | null): { usage?: RunUsage } {
  if (text === null) return {};
  const [calls, input, output, estimated, cost, unpriced, currency] = JSON.parse(text) as [
    number,
    number,
    number,
    number,
    number | null,
    number,
    string | null,
  ];
  const usage = {
    calls,
    inputTokens: input,
    outputTokens: output,
    estimated: estimated === 1,
    cost: cost === null ? null : roundMoney(cost),
    unpriced,
    currency,
  };
  return { usage };
}

function iso(column: string): string {
  return `CASE WHEN ${column} IS NULL THEN NULL ELSE printf('%s.%03dZ', strftime('%Y-%m-%dT%H:%M:%S', ${column} / 1000, 'unixepoch'), ${column} % 1000) END`;
}

/** Runs newest first. */
export function listRuns(store: JournalStore, filter: RunFilter = {}): RunSummary[] {
  const where: string[] = [];
  const params: Record<string, unknown> = {};
  if (filter.plan !== undefined) {
    where.push("(plan_name = @plan OR plan_file = @plan OR plan_file LIKE @planEnd ESCAPE '\\')");
    params["plan"] = filter.plan;
    params["planEnd"] = `%/${basename(filter.plan).replace(/[\\%_]/g, (c) => `\\${c}`)}`;
  }
  if (filter.status !== undefined) {
    // interrupted is running whose process is gone: both are read as running, then told apart.
    where.push("status = @status");
    params["status"] = filter.status === "interrupted" ? "running" : filter.status;
  }
  if (filter.origin !== undefined) {
    where.push("origin = @origin");
    params["origin"] = filter.origin;
  }
  if (filter.label !== undefined) {
    where.push("instr(label, @label) > 0");
    params["label"] = filter.label;
  }
  if (filter.since !== undefined) {
    where.push("started_at >= @since");
    params["since"] = filter.since;
  }
  // Running and interrupted are told apart after reading, and a cost is summed with the row: only
  // then can a limit on them apply.
  const late = filter.status === "running" || filter.status === "interrupted" || filter.cost !== undefined;
  if (filter.limit !== undefined && !late) params["limit"] = filter.limit;
  const sql = `${LIST_SQL} ${where.length ? `WHERE ${where.join(" AND ")}` : ""} ORDER BY id DESC${
    "limit" in params ? " LIMIT @limit" : ""
  }`;
  const rows = store.db.prepare(sql).raw().all(params) as ListedRow[];
  const out: RunSummary[] = [];
  for (const row of rows) {
    const status = row[5] === "running" && !processAlive(row[13], row[14], row[16]) ? "interrupted" : row[5];
    if (filter.status !== undefined && status !== filter.status) continue;
    const run: RunSummary = {
      id: row[0],
      uid: row[1],
      origin: row[2],
      label: row[15],
      plan: row[3],
      planFile: row[4],
      status,
      stage: row[6],
      errorKind: row[7],
      startedAt: row[8],
      endedAt: row[9],
      elapsedMs: row[10],
      segments: row[11],
      mocked: row[12] === 1,
      forkOf: forkOf(row[17], row[18]),
      ...usageOf(row[19]),
      ...verdictOf(row[20]),
    };
    if (filter.cost !== undefined && !costWithin(run, filter.cost)) continue;
    out.push(run);
    if (filter.limit !== undefined && out.length >= filter.limit) break;
  }
  return out;
}

export interface RunDetail extends RunSummary {
  readonly planDigest: string;
  readonly planText: string | null;
  readonly hostFile: string | null;
  readonly hostDigest: string | null;
  readonly hostText: string | null;
  readonly pid: number | null;
  readonly machine: string | null;
  /** options, estimate, budget, spent, remaining, checkpoints, transitions, value or error. */
  readonly details: JsonObject;
  readonly events: readonly RecordedEvent[];
  readonly calls: readonly RecordedCall[];
  /** The runs forked from this one, oldest first: their ids and the steps they forked at. */
  readonly forks: readonly { readonly id: number; readonly step: string }[];
}

export interface RecordedEvent {
  readonly seq: number;
  readonly segment: number;
  readonly replayed: boolean;
  readonly event: JsonObject;
}

export interface RecordedCall {
  readonly seq: number;
  readonly segment: number;
  readonly kind: "model" | "tool";
  readonly name: string;
  readonly model: string | null;
  readonly path: JsonValue;
  readonly occurrence: number;
  /** SHA-256 of the masked canonical request (canonical.ts): what a cassette is keyed by. */
  readonly key: string;
  readonly request: JsonValue;
  readonly status: string;
  readonly reply?: JsonValue;
  readonly error?: string;
  readonly replayable: boolean;
  readonly elapsedMs: number;
  readonly durationMs: number;
  /** A model call's tokens and cost (estimated: bounds where the provider reported none). */
  readonly usage?: {
    readonly inputTokens: number;
    readonly outputTokens: number;
    readonly estimated: boolean;
    readonly cost: number | null;
  };
}

/** One run, whole; undefined when the journal has no such run. */
export function runDetail(store: JournalStore, id: number): RunDetail | undefined {
  const db = store.db;
  const row = db.prepare(`SELECT ${RUN_COLUMNS}, verdict FROM runs WHERE id = ?`).get(id) as
    (RunRow & { verdict: string | null }) | undefined;
  if (!row) return undefined;
  const text = (digest: string | null) =>
    digest === null
      ? null
      : ((db.prepare("SELECT text FROM texts WHERE digest = ?").get(digest) as { text: string } | undefined)?.text ??
        null);
  const events = db.prepare(`SELECT ${EVENT_COLUMNS} FROM events WHERE run_id = ? ORDER BY seq`).all(id) as EventRow[];
  const calls = db.prepare(`SELECT ${CALL_COLUMNS} FROM calls WHERE run_id = ? ORDER BY seq`).all(id) as CallRow[];
  const usage = (db.prepare(`SELECT ${USAGE_SQL} FROM runs WHERE id = ?`).get(id) as { usage: string | null }).usage;
  return {
    ...summaryOf(row, usageOf(usage)),
    planDigest: row.plan_digest,
    planText: text(row.plan_digest),
    hostFile: row.host_file,
    hostDigest: row.host_digest,
    hostText: text(row.host_digest),
    pid: row.pid,
    machine: row.machine,
    details: JSON.parse(row.details) as JsonObject,
    forks: (
      db.prepare("SELECT id, fork_step FROM runs WHERE parent_id = ? ORDER BY id").all(id) as {
        id: number;
        fork_step: string | null;
      }[]
    ).map((fork) => ({ id: fork.id, step: fork.fork_step ?? "" })),
    events: events.map((e) => ({
      seq: e.seq,
      segment: e.segment,
      replayed: e.replayed === 1,
      event: JSON.parse(e.body) as JsonObject,
    })),
    calls: calls.map((c) => ({
      seq: c.seq,
      segment: c.segment,
      kind: c.kind,
      name: c.name,
      model: c.model,
      path: JSON.parse(c.path) as JsonValue,
      occurrence: c.occurrence,
      key: c.request_key,
      request: JSON.parse(c.request) as JsonValue,
      status: c.status,
      ...(c.reply !== null ? { reply: JSON.parse(c.reply) as JsonValue } : {}),
      ...(c.error !== null ? { error: c.error } : {}),
      replayable: c.replayable === 1,
      elapsedMs: c.elapsed_ms,
      durationMs: c.duration_ms,
      ...(c.input_tokens !== null
        ? {
            usage: {
              inputTokens: c.input_tokens,
              outputTokens: c.output_tokens ?? 0,
              estimated: c.usage_estimated === 1,
              cost: c.cost,
            },
          }
        : {}),
    })),
  };
}

export interface PruneRule {
  /** Keep this many newest runs. */
  readonly keep?: number;
  /** Remove runs started before this time (ms since the epoch). */
  readonly before?: number;
}

/** Removes finished and interrupted runs the rule selects (never one running or waiting); returns their ids. */
export function pruneRuns(store: JournalStore, rule: PruneRule): number[] {
  const db = store.db;
  const candidates = listRuns(store).filter((run, index) => {
    // A waiting run is not over: its approvers may still decide.
    if (run.status === "running" || run.status === "waiting") return false;
    const old = rule.before !== undefined && Date.parse(run.startedAt) < rule.before;
    const beyond = rule.keep !== undefined && index >= rule.keep;
    return old || beyond;
  });
  const ids = candidates.map((run) => run.id);
  db.transaction(() => {
    const del = ["events", "calls"].map((t) => db.prepare(`DELETE FROM ${t} WHERE run_id = ?`));
    const delRun = db.prepare("DELETE FROM runs WHERE id = ?");
    // The run's approvals log after the run: its trigger keeps it while the run is there.
    const delApprovals = db.prepare("DELETE FROM approvals WHERE run_id = ?");
    for (const id of ids) {
      for (const d of del) d.run(id);
      delRun.run(id);
      delApprovals.run(id);
    }
    // Texts no run names any more.
    db.prepare(
      "DELETE FROM texts WHERE digest NOT IN (SELECT plan_digest FROM runs UNION SELECT host_digest FROM runs WHERE host_digest IS NOT NULL)",
    ).run();
  })();
  db.pragma("incremental_vacuum");
  return ids;
}

function summaryOf(
  row: Omit<RunRow, "plan_digest" | "host_file" | "host_digest" | "details"> & { verdict: string | null },
  usage: { usage?: RunUsage },
): RunSummary {
  const status: ShownStatus =
    row.status === "running" && !processAlive(row.pid, row.machine, row.process) ? "interrupted" : row.status;
  return {
    id: row.id,
    uid: row.uid,
    origin: row.origin,
    label: row.label,
    plan: row.plan_name,
    planFile: row.plan_file,
    status,
    stage: row.stage,
    errorKind: row.error_kind,
    startedAt: new Date(row.started_at).toISOString(),
    endedAt: row.ended_at === null ? null : new Date(row.ended_at).toISOString(),
    elapsedMs: row.elapsed_ms,
    segments: row.segments,
    mocked: row.mocked === 1,
    forkOf: forkOf(row.parent_id, row.fork_step),
    ...usage,
    ...verdictOf(row.verdict),
  };
}

function forkOf(parent: number | null, step: string | null): RunFork | null {
  return parent === null ? null : { run: parent, step: step ?? "" };
}
