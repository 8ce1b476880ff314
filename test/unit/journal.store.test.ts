// The run journal's store, driven through startRun as every front end drives it: what a run
// records (events in order, canonical masked requests with replies, estimate against spent),
// a damaged or newer-format journal moved aside (nothing deleted) with a clear notice, and a
// journal damaged while a run is writing it: the run is written whole into a fresh one.

import assert from "node:assert/strict";
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, describe, test } from "node:test";
import type { JsonValue } from "@rlm-plan/core/json";
import { listRuns, runDetail } from "@rlm-plan/core/journal/queries";
import { sqlite } from "@rlm-plan/core/journal/sqlite";
import { RunRecorder } from "@rlm-plan/core/journal/recorder";
import { APPLICATION_ID, JOURNAL_FORMAT, SCHEMA } from "@rlm-plan/core/journal/schema";
import { JournalStore } from "@rlm-plan/core/journal/journalStore";
import type { RunHost } from "@rlm-plan/core/run/host";
import { SecretMask } from "@rlm-plan/core/mask/secretMask";
import { startRun } from "@rlm-plan/core/run/startRun";

const SECRET = "sk-journal-SENTINEL-7f3a9c";
const roots: string[] = [];
after(() => roots.forEach((dir) => rmSync(dir, { recursive: true, force: true })));

function tempDir(): string {
  const dir = mkdtempSync(join(tmpdir(), "rlm-plan-journal-"));
  roots.push(dir);
  return dir;
}

const PLAN = JSON.stringify({
  steps: [
    { op: "tool", name: "echo", args: { said: "hello", key: SECRET }, bind: "a" },
    { op: "checkpoint", label: "half" },
    { op: "final", value: { ref: "var", name: "a" } },
  ],
});

const POLICY = { capabilities: ["tool(echo)", "checkpoint"], budget: { max_steps: 10, max_tool_calls: 4 } };

async function recordedRun(dir: string, host: RunHost, notices: string[] = []) {
  const store = JournalStore.open(dir);
  const recorder = RunRecorder.begin(store, {
    origin: "test",
    plan: { file: join(dir, "echo.rlmplan.json"), text: PLAN },
    options: { parallel: "sequential" },
    mask: new SecretMask([SECRET]),
    onNotice: (m) => notices.push(m),
  });
  const report = await startRun({
    source: { kind: "document", text: PLAN },
    policy: POLICY,
    host,
    observers: [recorder],
  }).done;
  store.close();
  return { report, id: recorder.runId };
}

const echoHost: RunHost = { tools: new Map([["echo", (args: JsonValue) => args]]) };

describe("journal: what a run records", () => {
  test("events in order, the tool request canonical and masked with its reply, estimate and spent", async () => {
    const dir = tempDir();
    const { report, id } = await recordedRun(join(dir, ".rlm-plan"), echoHost);
    assert.equal(report.outcome.ok, true);
    const store = JournalStore.open(join(dir, ".rlm-plan"));
    const run = runDetail(store, id);
    assert.ok(run);
    assert.equal(run.status, "ok");
    assert.equal(run.origin, "test");
    assert.equal(run.plan, "echo.rlmplan.json");
    assert.deepEqual(
      run.events.map((e) => `${String(e.event["type"])} ${JSON.stringify(e.event["path"])}`),
      [
        'step_started ["steps",0]',
        'transition ["steps",0]',
        'step_finished ["steps",0]',
        'step_started ["steps",1]',
        'transition ["steps",1]',
        'step_finished ["steps",1]',
        'step_started ["steps",2]',
        'transition ["steps",2]',
        'step_finished ["steps",2]',
      ],
    );
    assert.equal(run.calls.length, 1);
    const call = run.calls[0];
    assert.ok(call);
    assert.deepEqual(call.request, { arguments: { key: "***", said: "hello" }, kind: "tool", tool: "echo" });
    assert.deepEqual(call.reply, { said: "hello", key: "***" });
    assert.equal(call.status, "ok");
    assert.equal(call.replayable, true);
    assert.match(call.key, /^[0-9a-f]{64}$/);
    assert.deepEqual(run.details["estimate"], {
      steps: 3,
      depth: 1,
      parallel_width: 0,
      model_calls: 0,
      tool_calls: 1,
      context_ops: 0,
    });
    assert.deepEqual(run.details["spent"], {
      steps: 3,
      model_calls: 0,
      tool_calls: 1,
      context_ops: 0,
      output_bytes: 102,
    });
    assert.deepEqual(run.details["value"], { said: "hello", key: "***" });
    assert.deepEqual(run.details["checkpoints"], ["half"]);
    assert.deepEqual(run.details["options"], { parallel: "sequential" });
    store.close();
    // The key is nowhere in the journal's files, in any form the mask knows.
    for (const name of readdirSync(join(dir, ".rlm-plan"))) {
      const bytes = readFileSync(join(dir, ".rlm-plan", name)).toString("latin1");
      assert.equal(bytes.includes("SENTINEL"), false, name);
    }
    assert.equal(readFileSync(join(dir, ".rlm-plan", ".gitignore"), "utf8").split("\n")[1], "*");
  });

  test("a plan that never starts is recorded with its error and stage", async () => {
    const dir = join(tempDir(), ".rlm-plan");
    const { id } = await recordedRun(dir, { tools: new Map() });
    const store = JournalStore.open(dir);
    const [run] = listRuns(store);
    assert.equal(run?.id, id);
    assert.equal(run?.status, "failed");
    assert.equal(run?.stage, "preflight");
    assert.equal(run?.errorKind, "unknown_tool");
    store.close();
  });
});

describe("journal: a store it cannot use is moved aside, never deleted", () => {
  test("a damaged file: a clear notice, the bytes kept aside, a fresh journal", () => {
    const dir = tempDir();
    const garbage = Buffer.from("this is not a database ".repeat(300));
    writeFileSync(join(dir, "runs.sqlite"), garbage);
    const store = JournalStore.open(dir);
    assert.equal(store.notices.length, 1);
    assert.match(
      store.notices[0] ?? "",
      /^the run journal .*runs\.sqlite was not used: it is damaged \(file is not a database\); it was moved to runs\.sqlite\.damaged-\d{8}T\d{6}Z \(nothing deleted\) and a new journal was started$/,
    );
    const aside = readdirSync(dir).find((n) => n.startsWith("runs.sqlite.damaged-"));
    assert.ok(aside);
    assert.deepEqual(readFileSync(join(dir, aside)), garbage);
    assert.deepEqual(listRuns(store), []);
    store.close();
  });

  test("a journal of format 1 written before runs had a label: the column added, its runs kept, nothing moved", () => {
    const dir = tempDir();
    const file = join(dir, "runs.sqlite");
    const old = new (sqlite())(file);
    old.exec(SCHEMA.replace(",\n  label TEXT,\n  process TEXT\n", "\n"));
    old.pragma(`application_id = ${APPLICATION_ID}`);
    old.pragma(`user_version = ${JOURNAL_FORMAT}`);
    old
      .prepare(
        "INSERT INTO runs (uid, origin, plan_name, plan_digest, status, started_at, details) VALUES ('u1', 'cli', 'p.json', 'd', 'ok', 0, '{}')",
      )
      .run();
    old.close();
    const store = JournalStore.open(dir);
    try {
      assert.deepEqual(store.notices, []);
      assert.deepEqual(
        listRuns(store).map((r) => [r.id, r.origin, r.label, r.plan, r.status]),
        [[1, "cli", null, "p.json", "ok"]],
      );
      const recorder = RunRecorder.begin(store, {
        origin: "test",
        label: "t.rlmplan.test.json#a",
        plan: { text: "{}" },
        options: {},
        mask: new SecretMask(),
      });
      assert.equal(recorder.runId, 2);
      assert.deepEqual(
        listRuns(store, { label: "#a" }).map((r) => [r.id, r.origin, r.label]),
        [[2, "test", "t.rlmplan.test.json#a"]],
      );
    } finally {
      store.close();
    }
    assert.deepEqual(
      readdirSync(dir).filter((name) => name.includes(".damaged") || name.includes(".newer")),
      [],
    );
  });

  test("a journal of format 1 written before calls had usage: the columns added, its calls listed without usage", () => {
    const dir = tempDir();
    const file = join(dir, "runs.sqlite");
    const old = new (sqlite())(file);
    const usage = "  input_tokens INTEGER,\n  output_tokens INTEGER,\n  usage_estimated INTEGER,\n  cost REAL,\n";
    assert.ok(SCHEMA.includes(usage), "the schema's calls table ends with the usage columns");
    old.exec(SCHEMA.replace(usage, ""));
    old.pragma(`application_id = ${APPLICATION_ID}`);
    old.pragma(`user_version = ${JOURNAL_FORMAT}`);
    old
      .prepare(
        "INSERT INTO runs (uid, origin, plan_name, plan_digest, status, started_at, details) VALUES ('u1', 'cli', 'p.json', 'd', 'ok', 0, '{}')",
      )
      .run();
    old
      .prepare(
        "INSERT INTO calls (run_id, seq, segment, kind, name, path, occurrence, request_key, request, status, replayable, elapsed_ms, duration_ms) VALUES (1, 1, 1, 'model', 'llm', '[\"steps\",0]', 1, 'k', '{}', 'ok', 1, 0, 0)",
      )
      .run();
    old.close();
    const store = JournalStore.open(dir);
    try {
      assert.deepEqual(store.notices, []);
      const columns = store.db.prepare("SELECT name FROM pragma_table_info('calls')").all() as { name: string }[];
      assert.deepEqual(columns.map((c) => c.name).slice(-4), [
        "input_tokens",
        "output_tokens",
        "usage_estimated",
        "cost",
      ]);
      assert.equal(listRuns(store)[0]?.usage, undefined);
      const detail = runDetail(store, 1);
      assert.equal(detail?.calls.length, 1);
      assert.equal(detail?.calls[0]?.usage, undefined);
      assert.equal(detail?.usage, undefined);
    } finally {
      store.close();
    }
  });

  test("a newer format: said, moved aside", () => {
    const dir = tempDir();
    JournalStore.open(dir).close();
    const raw = new (sqlite())(join(dir, "runs.sqlite"));
    raw.pragma("user_version = 99");
    raw.close();
    const store = JournalStore.open(dir);
    assert.match(
      store.notices[0] ?? "",
      /it was written by a newer rlm-plan \(journal format 99; this rlm-plan reads format 1\); it was moved to runs\.sqlite\.newer-/,
    );
    store.close();
  });

  test("another program's SQLite file is not taken for a journal", () => {
    const dir = tempDir();
    const raw = new (sqlite())(join(dir, "runs.sqlite"));
    raw.exec("CREATE TABLE mine (x)");
    raw.close();
    const store = JournalStore.open(dir);
    assert.match(store.notices[0] ?? "", /it is not an rlm-plan run journal; it was moved to runs\.sqlite\.foreign-/);
    store.close();
  });
});

describe("journal: damaged while a run writes it", () => {
  test("the run is written whole into a fresh journal, the damaged file kept aside", async () => {
    const dir = join(tempDir(), ".rlm-plan");
    let release: () => void = () => undefined;
    const waiting = new Promise<void>((resolve) => (release = resolve));
    let started: () => void = () => undefined;
    const inTool = new Promise<void>((resolve) => (started = resolve));
    const host: RunHost = {
      tools: new Map([
        [
          "echo",
          async (args: JsonValue) => {
            started();
            await waiting;
            return args;
          },
        ],
      ]),
    };
    const notices: string[] = [];
    const running = recordedRun(dir, host, notices);
    await inTool;
    const file = join(dir, "runs.sqlite");
    // Everything is moved from the write-ahead log into the file (as SQLite does from time to
    // time), then garbage over the whole file, same inode, while the run's connection is open.
    const other = new (sqlite())(file);
    other.pragma("wal_checkpoint(TRUNCATE)");
    other.close();
    writeFileSync(file, Buffer.alloc(readFileSync(file).length, 0x5a));
    release();
    const { report, id } = await running;
    assert.equal(report.outcome.ok, true);
    assert.equal(notices.length, 1, notices.join("\n"));
    assert.match(notices[0] ?? "", /it is damaged .*moved to runs\.sqlite\.damaged-.*a new journal was started/);
    assert.ok(readdirSync(dir).some((n) => n.startsWith("runs.sqlite.damaged-")));
    const store = JournalStore.open(dir);
    const run = runDetail(store, id);
    assert.equal(run?.status, "ok");
    assert.equal(run?.events.length, 9);
    assert.equal(run?.calls.length, 1);
    assert.equal(run?.planText, PLAN.replace(SECRET, "***"));
    store.close();
    assert.equal(existsSync(file), true);
  });
});
