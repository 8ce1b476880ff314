// The journal's log is synced off the event loop (issue 34 item 10): a batch is committed into
// the write-ahead log unsynced and the log file is synced on the thread pool. These tests hold
// that sync (node:fs's fdatasync, replaced for the test) to show that a run's next call waits
// until the sync covering its step is done, that the process runs meanwhile, that the file
// synced is the journal's log, and that a sync that fails is said once, the run going on.

import assert from "node:assert/strict";
import fs, { fstatSync, mkdtempSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, afterEach, test } from "node:test";
import { setImmediate as turn } from "node:timers/promises";
import type { JsonValue } from "@rlm-plan/core/json";
import { RunRecorder } from "@rlm-plan/core/journal/recorder";
import { sqlite } from "@rlm-plan/core/journal/sqlite";
import { JournalStore } from "@rlm-plan/core/journal/journalStore";
import type { RunHost } from "@rlm-plan/core/run/host";
import { SecretMask } from "@rlm-plan/core/mask/secretMask";
import { startRun } from "@rlm-plan/core/run/startRun";

const root = mkdtempSync(join(tmpdir(), "rlm-plan-log-sync-"));
after(() => rmSync(root, { recursive: true, force: true }));

type SyncCallback = (error: NodeJS.ErrnoException | null) => void;
const realSync = fs.fdatasync;
afterEach(() => {
  fs.fdatasync = realSync;
});

/** node:fs's fdatasync, as the journal calls it, replaced for this test (restored after it); counts the calls. */
function fakeSync(fake: (fd: number, callback: SyncCallback) => void): { calls: number } {
  const counted = { calls: 0 };
  fs.fdatasync = ((fd: number, callback: SyncCallback) => {
    counted.calls++;
    fake(fd, callback);
  }) as typeof fs.fdatasync;
  return counted;
}

/** One row of the journal in `dir`, read as another process reads it. */
function readRow<T>(dir: string, sql: string, ...params: unknown[]): T {
  const reader = new (sqlite())(join(dir, "runs.sqlite"), { readonly: true });
  try {
    return { ...(reader.prepare(sql).get(...params) as object) } as T;
  } finally {
    reader.close();
  }
}

const PLAN = JSON.stringify({
  steps: [
    { op: "tool", name: "probe", args: { step: 0 }, bind: "a" },
    { op: "tool", name: "probe", args: { step: 1 }, bind: "b" },
    { op: "final", value: { ref: "var", name: "b" } },
  ],
});

/** A journal in `dir` and a run begun in it, its notices kept. */
function begun(dir: string, notices: string[] = []) {
  const store = JournalStore.open(dir);
  const meta = { origin: "test" as const, plan: { text: PLAN }, options: {}, mask: new SecretMask() };
  return { store, recorder: RunRecorder.begin(store, { ...meta, onNotice: (message) => notices.push(message) }) };
}

function recordedRun(dir: string, calls: number[], notices: string[] = []) {
  const { store, recorder } = begun(dir, notices);
  const host: RunHost = {
    tools: new Map([["probe", (args: JsonValue) => (calls.push((args as { step: number }).step), true)]]),
  };
  const done = startRun({
    source: { kind: "document", text: PLAN },
    policy: { capabilities: ["tool(probe)"], budget: { max_steps: 10, max_tool_calls: 5 } },
    host,
    observers: [recorder],
  }).done;
  return { store, recorder, done };
}

test("a run's next call waits for the log's sync of its step; the event loop runs meanwhile", async () => {
  const dir = join(root, "held", ".rlm-plan");
  const held: { fd: number; callback: SyncCallback }[] = [];
  fakeSync((fd, callback) => held.push({ fd, callback }));
  const calls: number[] = [];
  const { store, recorder, done } = recordedRun(dir, calls);
  let ended = false;
  void done.then(() => (ended = true));
  // This loop turning is the event loop not blocked by the disk.
  while (held.length === 0 && !ended) await turn();
  assert.equal(held.length, 1, "the step's commit asks for one sync of the log, on the thread pool");
  const sync = held[0] as { fd: number; callback: SyncCallback };
  assert.equal(fstatSync(sync.fd).ino, statSync(join(dir, "runs.sqlite-wal")).ino, "the file synced is the log");
  // Step 0 is committed (another connection reads it); step 1's call waits for the sync.
  const finished = readRow<{ n: number }>(
    dir,
    "SELECT count(*) AS n FROM events WHERE run_id = ? AND type = 'step_finished'",
    recorder.runId,
  );
  assert.equal(finished.n, 1);
  for (let i = 0; i < 20; i++) await turn();
  assert.deepEqual(calls, [0], "no call of step 1 before its previous step is on disk");
  fs.fdatasync = realSync;
  realSync(sync.fd, sync.callback);
  const report = await done;
  assert.equal(report.outcome.ok, true);
  assert.deepEqual(calls, [0, 1]);
  store.close();
});

test("a sync that fails is said once, masked; the run goes on and is recorded whole", async () => {
  const dir = join(root, "failing", ".rlm-plan");
  const failing = fakeSync((_fd, callback) => {
    const error = Object.assign(new Error("EIO: i/o error, fdatasync"), { code: "EIO" });
    setImmediate(() => callback(error));
  });
  const calls: number[] = [];
  const notices: string[] = [];
  const { store, recorder, done } = recordedRun(dir, calls, notices);
  const report = await done;
  assert.equal(report.outcome.ok, true);
  assert.deepEqual(calls, [0, 1]);
  assert.ok(failing.calls >= 2, `the log's sync was asked for at each step (${failing.calls})`);
  assert.deepEqual(notices, [
    "the run journal could not be synced to disk (a power loss may lose it): EIO: i/o error, fdatasync",
  ]);
  fs.fdatasync = realSync;
  const row = readRow<{ status: string }>(dir, "SELECT status FROM runs WHERE id = ?", recorder.runId);
  const events = readRow<{ n: number }>(dir, "SELECT count(*) AS n FROM events WHERE run_id = ?", recorder.runId);
  assert.equal(row.status, "ok");
  assert.equal(events.n, 9, "three events for each of the three steps");
  store.close();
});

test("a run's first row is committed with the next batch but asks for no sync of its own: nothing waits for it", async () => {
  const dir = join(root, "first-row", ".rlm-plan");
  const syncs = fakeSync(realSync);
  const { store, recorder } = begun(dir);
  for (let i = 0; i < 20; i++) await turn();
  const row = readRow<{ status: string }>(dir, "SELECT status FROM runs WHERE uid = ?", recorder.uid);
  assert.equal(row.status, "running");
  assert.equal(syncs.calls, 0);
  store.close();
});
