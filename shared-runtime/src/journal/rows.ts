// The journal's rows as the recorder writes them and the queries read them back.

import type { Database, Statement } from "./sqlite";

/** A run's status: `running` until it ends; a `running` run whose process is gone is shown as `interrupted`; `waiting` for people to approve a step (docs/approvals.md). */
export type RunStatus = "running" | "waiting" | "ok" | "failed" | "cancelled";

/** The status of a run that ended with an error of `kind`: cancelled, waiting (a step held for approval) or failed. */
export function failedStatus(kind: string): RunStatus {
  return kind === "cancelled" ? "cancelled" : kind === "approval_pending" ? "waiting" : "failed";
}

export interface RunRow {
  id: number;
  uid: string;
  origin: string;
  plan_file: string | null;
  plan_name: string;
  plan_digest: string;
  host_file: string | null;
  host_digest: string | null;
  status: RunStatus;
  stage: string | null;
  error_kind: string | null;
  started_at: number;
  ended_at: number | null;
  elapsed_ms: number | null;
  segments: number;
  pid: number | null;
  machine: string | null;
  mocked: number;
  /** JSON: options, estimate, budget, spent, remaining, checkpoints, result. */
  details: string;
  /** What the run was within its origin (a test run's "FILE#CASE"), or null. */
  label: string | null;
  /** The writing process's identity ("BOOT_ID:START_TICKS", liveness.ts), or null where it cannot be read. */
  process: string | null;
  /** The run this one forked from (`run --from`), or null. */
  parent_id: number | null;
  /** The step it forked at, as `runs show` prints a step ("steps/2"), or null. */
  fork_step: string | null;
}

export interface EventRow {
  run_id: number;
  seq: number;
  segment: number;
  type: string;
  elapsed_ms: number;
  /** 1 when the step completed in an earlier segment and its calls were answered from the journal. */
  replayed: number;
  /** The event as the interpreter emitted it, masked JSON. */
  body: string;
}

/** `pending` until the call settles; `abandoned` when the run or branch stopped first (no reply, never replayed). */
export type CallStatus = "pending" | "ok" | "error" | "abandoned";

export interface CallRow {
  run_id: number;
  seq: number;
  segment: number;
  kind: "model" | "tool";
  name: string;
  model: string | null;
  /** The calling step's JSON path, as JSON text. */
  path: string;
  /** How many times this step had called before (retries run a step again), from 1. */
  occurrence: number;
  request_key: string;
  /** The canonical request, masked (canonical.ts). */
  request: string;
  status: CallStatus;
  /** The reply as JSON text, masked. */
  reply: string | null;
  /** The error's message, masked. */
  error: string | null;
  /** 0 when the reply cannot be replayed (it holds a context handle, or is not JSON). */
  replayable: number;
  elapsed_ms: number;
  duration_ms: number;
  /** A model call's tokens as its reply reported them (or its bounds: usage_estimated 1); null for a tool call. */
  input_tokens: number | null;
  output_tokens: number | null;
  usage_estimated: number | null;
  /** What the call cost in the profile's currency; null for a tool call or an unpriced provider. */
  cost: number | null;
}

export const RUN_COLUMNS =
  "id, uid, origin, plan_file, plan_name, plan_digest, host_file, host_digest, status, stage, error_kind, started_at, ended_at, elapsed_ms, segments, pid, machine, mocked, details, label, process, parent_id, fork_step";
export const EVENT_COLUMNS = "run_id, seq, segment, type, elapsed_ms, replayed, body";
export const CALL_COLUMNS =
  "run_id, seq, segment, kind, name, model, path, occurrence, request_key, request, status, reply, error, replayable, elapsed_ms, duration_ms, input_tokens, output_tokens, usage_estimated, cost";

/** `INSERT ... VALUES (@a, @b, ...)` for better-sqlite3's named parameters. */
export function insertSql(table: string, columns: string, verb = "INSERT"): string {
  const names = columns.split(",").map((c) => c.trim());
  return `${verb} INTO ${table} (${names.join(", ")}) VALUES (${names.map((n) => `@${n}`).join(", ")})`;
}

export const REPLACE_RUN = insertSql("runs", RUN_COLUMNS, "REPLACE");
/**
 * A recorded run's row brought up to date: the columns a run changes as it goes, in place (REPLACE
 * deletes the row and inserts it again, rewriting the entries of all three of its indexes at every step).
 */
const UPDATE_RUN_COLUMNS = [
  "status",
  "stage",
  "error_kind",
  "ended_at",
  "elapsed_ms",
  "segments",
  "pid",
  "machine",
  "mocked",
  "details",
  "process",
] as const;
export const UPDATE_RUN = `UPDATE runs SET ${UPDATE_RUN_COLUMNS.map((c) => `${c} = @${c}`).join(", ")} WHERE id = @id`;

/** UPDATE_RUN's parameters: exactly its columns (node:sqlite refuses a named parameter the statement lacks). */
export function runUpdate(run: RunRow): Record<string, unknown> {
  const values: Record<string, unknown> = { id: run.id };
  for (const column of UPDATE_RUN_COLUMNS) values[column] = run[column];
  return values;
}
export const INSERT_EVENT = insertSql("events", EVENT_COLUMNS, "INSERT OR REPLACE");
export const INSERT_CALL = insertSql("calls", CALL_COLUMNS, "INSERT OR REPLACE");

/** Each connection's statements, prepared once: every step of every run writes with the same few. */
const prepared = new WeakMap<Database, Map<string, Statement>>();

/** `sql` prepared on `db`, the first time only. */
export function statement(db: Database, sql: string): Statement {
  let statements = prepared.get(db);
  if (!statements) prepared.set(db, (statements = new Map()));
  let found = statements.get(sql);
  if (!found) statements.set(sql, (found = db.prepare(sql)));
  return found;
}
