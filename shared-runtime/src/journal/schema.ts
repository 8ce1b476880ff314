// The journal's tables and its format number. A run is one row of `runs` (what listing reads:
// ten thousand of them list in milliseconds), its plan and host-profile texts are stored once
// per digest in `texts`, and what happened is in `events` (the interpreter's stream, in order)
// and `calls` (every model and tool request, canonical and masked, with its reply or error).

/** Bumped when a reader of an older format could misread the store; an older rlm-plan refuses a newer one. */
export const JOURNAL_FORMAT = 1;

/** SQLite's application_id for this file ("RLMP"): another program's database is not taken for a journal. */
export const APPLICATION_ID = 0x524c4d50;

export const JOURNAL_FILE = "runs.sqlite";

/**
 * Columns added to `runs` after format 1, nullable, so a reader of format 1 reads the store
 * as before (no format bump): added when a store without them is opened for writing.
 */
export const ADDED_RUN_COLUMNS: readonly { readonly name: string; readonly sql: string }[] = [
  // What the run was within its origin: a test run's test file and case ("greet.rlmplan.test.json#hi").
  { name: "label", sql: "label TEXT" },
  // The writing process's identity (liveness.ts): its pid reused by another process is not it.
  { name: "process", sql: "process TEXT" },
  // A fork's parent run (`run --from RUN --step PATH`) and the step it forked at ("steps/2").
  { name: "parent_id", sql: "parent_id INTEGER" },
  { name: "fork_step", sql: "fork_step TEXT" },
  // A test case's verdict (caseVerdicts.ts), JSON: whether it met its expectations and which failed.
  { name: "verdict", sql: "verdict TEXT" },
];

/**
 * Columns added to `calls` after format 1, the same way: what a model call used and cost
 * (plan/modelCost.ts), null for tool calls and for calls recorded before them.
 */
export const ADDED_CALL_COLUMNS: readonly { readonly name: string; readonly sql: string }[] = [
  { name: "input_tokens", sql: "input_tokens INTEGER" },
  { name: "output_tokens", sql: "output_tokens INTEGER" },
  // 1 when the provider reported no usage (or part of it): the missing counts are the call's bounds.
  { name: "usage_estimated", sql: "usage_estimated INTEGER" },
  // In the host profile's currency (runs.details.currency); null when the provider has no price.
  { name: "cost", sql: "cost REAL" },
];

/**
 * The approvals log (docs/approvals.md): every request, vote and outcome of a run, in order,
 * append-only. The triggers refuse any UPDATE, and a DELETE while the run is still in \`runs\`
 * (pruning removes a run first, then its log): no program, ours or not, edits a vote. Added when a
 * store without it is opened for writing (no format bump: older readers never read it).
 */
export const APPROVALS_SCHEMA = `
CREATE TABLE IF NOT EXISTS approvals (
  run_id INTEGER NOT NULL,
  seq INTEGER NOT NULL,
  type TEXT NOT NULL,
  path TEXT NOT NULL,
  occurrence INTEGER NOT NULL,
  hash TEXT NOT NULL,
  at INTEGER NOT NULL,
  body TEXT NOT NULL,
  PRIMARY KEY (run_id, seq)
) WITHOUT ROWID;
CREATE TRIGGER IF NOT EXISTS approvals_never_updated BEFORE UPDATE ON approvals
BEGIN SELECT RAISE(ABORT, 'the approvals log is append-only'); END;
CREATE TRIGGER IF NOT EXISTS approvals_kept_with_run BEFORE DELETE ON approvals
WHEN EXISTS (SELECT 1 FROM runs WHERE id = OLD.run_id)
BEGIN SELECT RAISE(ABORT, 'the approvals log is append-only'); END;
`;

export const SCHEMA = `
CREATE TABLE runs (
  id INTEGER PRIMARY KEY AUTOINCREMENT,
  uid TEXT NOT NULL UNIQUE,
  origin TEXT NOT NULL,
  plan_file TEXT,
  plan_name TEXT NOT NULL,
  plan_digest TEXT NOT NULL,
  host_file TEXT,
  host_digest TEXT,
  status TEXT NOT NULL,
  stage TEXT,
  error_kind TEXT,
  started_at INTEGER NOT NULL,
  ended_at INTEGER,
  elapsed_ms INTEGER,
  segments INTEGER NOT NULL DEFAULT 1,
  pid INTEGER,
  machine TEXT,
  mocked INTEGER NOT NULL DEFAULT 0,
  details TEXT NOT NULL,
  label TEXT,
  process TEXT,
  parent_id INTEGER,
  fork_step TEXT,
  verdict TEXT
);
CREATE INDEX runs_by_start ON runs (started_at);
CREATE INDEX runs_by_plan ON runs (plan_name);
CREATE TABLE texts (
  digest TEXT PRIMARY KEY,
  text TEXT NOT NULL
) WITHOUT ROWID;
CREATE TABLE events (
  run_id INTEGER NOT NULL,
  seq INTEGER NOT NULL,
  segment INTEGER NOT NULL,
  type TEXT NOT NULL,
  elapsed_ms INTEGER NOT NULL,
  replayed INTEGER NOT NULL DEFAULT 0,
  body TEXT NOT NULL,
  PRIMARY KEY (run_id, seq)
) WITHOUT ROWID;
CREATE TABLE calls (
  run_id INTEGER NOT NULL,
  seq INTEGER NOT NULL,
  segment INTEGER NOT NULL,
  kind TEXT NOT NULL,
  name TEXT NOT NULL,
  model TEXT,
  path TEXT NOT NULL,
  occurrence INTEGER NOT NULL,
  request_key TEXT NOT NULL,
  request TEXT NOT NULL,
  status TEXT NOT NULL,
  reply TEXT,
  error TEXT,
  replayable INTEGER NOT NULL,
  elapsed_ms INTEGER NOT NULL,
  duration_ms INTEGER NOT NULL,
  input_tokens INTEGER,
  output_tokens INTEGER,
  usage_estimated INTEGER,
  cost REAL,
  PRIMARY KEY (run_id, seq)
) WITHOUT ROWID;
CREATE INDEX calls_by_key ON calls (request_key);
`;
