// Group commit (issue 34 item 10): runs of one process recording into one journal share commits,
// and still each run's step is on disk before that run's next call. Eight runs of four steps
// (three tool calls and a final) go at once through startRun, as `rlm-plan test --jobs 8` runs
// its cases: the journal's transactions are counted, and every tool call reads the file through
// a second connection to find its run's previous step already there.

import assert from "node:assert/strict";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, test } from "node:test";
import type { JsonValue } from "@rlm-plan/core/json";
import { RunRecorder } from "@rlm-plan/core/journal/recorder";
import { sqlite } from "@rlm-plan/core/journal/sqlite";
import { JournalStore } from "@rlm-plan/core/journal/journalStore";
import type { RunHost } from "@rlm-plan/core/run/host";
import { SecretMask } from "@rlm-plan/core/mask/secretMask";
import { startRun } from "@rlm-plan/core/run/startRun";

const dir = mkdtempSync(join(tmpdir(), "rlm-plan-group-commit-"));
after(() => rmSync(dir, { recursive: true, force: true }));

const RUNS = 8;
const PLAN = JSON.stringify({
  steps: [
    { op: "tool", name: "probe", args: { step: 0 }, bind: "a" },
    { op: "tool", name: "probe", args: { step: 1 }, bind: "b" },
    { op: "tool", name: "probe", args: { step: 2 }, bind: "c" },
    { op: "final", value: { ref: "var", name: "c" } },
  ],
});

test("eight runs at once: far fewer commits than steps, each step on disk before its run's next call", async () => {
  const store = JournalStore.open(join(dir, ".rlm-plan"));
  let commits = 0;
  const db = store.db as unknown as { transaction: (work: () => void) => (...args: unknown[]) => unknown };
  const transaction = db.transaction.bind(db);
  db.transaction = (work) => {
    const run = transaction(work);
    return Object.assign((...args: unknown[]) => {
      commits++;
      return run(...args);
    }, run);
  };
  const reader = new (sqlite())(join(dir, ".rlm-plan", "runs.sqlite"), { readonly: true });
  const finishedSteps = reader.prepare(
    "SELECT count(*) AS n FROM events e JOIN runs r ON r.id = e.run_id WHERE r.uid = ? AND e.type = 'step_finished'",
  );
  const missing: string[] = [];
  const recorders: RunRecorder[] = [];
  const runs = Array.from({ length: RUNS }, (_, i) => {
    const recorder = RunRecorder.begin(store, {
      origin: "test",
      label: `case ${i}`,
      plan: { text: PLAN },
      options: {},
      mask: new SecretMask(),
    });
    recorders.push(recorder);
    const host: RunHost = {
      tools: new Map([
        [
          "probe",
          (args: JsonValue) => {
            // Step N's call: steps 0..N-1 of this run are in the file, as another process reads it.
            const step = (args as { step: number }).step;
            const onDisk = (finishedSteps.get(recorder.uid) as { n: number }).n;
            if (onDisk !== step) missing.push(`run ${i} step ${step}: ${onDisk} steps on disk`);
            return step;
          },
        ],
      ]),
    };
    return startRun({
      source: { kind: "document", text: PLAN },
      policy: { capabilities: ["tool(probe)"], budget: { max_steps: 10, max_tool_calls: 5 } },
      host,
      observers: [recorder],
    }).done;
  });
  const reports = await Promise.all(runs);
  assert.deepEqual(
    reports.map((r) => r.outcome.ok),
    Array.from({ length: RUNS }, () => true),
  );
  assert.deepEqual(missing, []);
  // Alone, each run would commit its first row, each of its four steps and its end: 48 for eight.
  // Shared: one commit per round of steps, each before the next call: the eight first rows (no
  // one asked for a run's id) with the first step, then the second step, then the third step's
  // with the final step and the end (no call between them).
  assert.equal(commits, 3);
  const stored = reader
    .prepare(
      "SELECT r.label, count(e.seq) AS n FROM runs r JOIN events e ON e.run_id = r.id GROUP BY r.id ORDER BY r.id",
    )
    .all() as { label: string; n: number }[];
  assert.deepEqual(
    stored.map((r) => [r.label, r.n]),
    recorders.map((_, i) => [`case ${i}`, 4 * 3]),
  );
  reader.close();
  store.close();
});

test("a run's number asked for at once is written at once: the row is there before the event loop turns", () => {
  const store = JournalStore.open(join(dir, "asked", ".rlm-plan"));
  const recorder = RunRecorder.begin(store, {
    origin: "cli",
    plan: { text: PLAN },
    options: {},
    mask: new SecretMask(),
  });
  const id = recorder.runId;
  const reader = new (sqlite())(join(dir, "asked", ".rlm-plan", "runs.sqlite"), { readonly: true });
  const row = { ...(reader.prepare("SELECT id, uid, status FROM runs WHERE id = ?").get(id) as object) };
  reader.close();
  assert.deepEqual(row, { id: 1, uid: recorder.uid, status: "running" });
  store.close();
});
