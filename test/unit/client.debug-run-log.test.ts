// A debug run in the editor's run log and output reads as a normal run's (issue 35 item 3), in
// process. The same run's events reach the client two ways: a language server's run as
// rlmPlan/runEvent notifications then runFinished (activeRuns.ts hands them to a RunSession), a
// debug run as the adapter's custom events (debugRuns.ts, reading the wire contract's Debug*
// events). Both go through the real RunOutput (its channel and places given, as
// workspacePaths.ts gives VS Code's), so the lines are compared exactly: the failed retry
// attempt, the transitions and the outcome. Before, a debug run's output had transitions only.

import { strict as assert } from "node:assert";
import { test } from "node:test";
import type { PlanError, RunEvent, Transition } from "@rlm-plan/core";
import {
  DebugRunEvent,
  DebugRunJournalEvent,
  DebugRunResultEvent,
  DebugRunStartedEvent,
  type RunResult,
} from "@rlm-plan/language-server/protocol";
import { DebugRuns } from "rlm-plan-client/debugRuns";
import type { RunRecord } from "rlm-plan-client/runLog";
import { RunOutput, type RunPlaces } from "rlm-plan-client/runOutput";
import { RunSession, type RunSessionLog } from "rlm-plan-client/runSession";

const STARTED = "2026-12-05T14:00:00.000Z";
const PLAN = "/w/mocks/triage.rlmplan.json";
const MOCKS = "/w/mocks/triage.mocks.json";
const HOST = "/w/rlmplan.host.json";
const uri = (path: string) => `file://${path}`;

const PLACES: RunPlaces = {
  show: (uriOrPath) => uriOrPath.replace(/^(file:\/\/)?\/w\//, ""),
  step: (plan, path, offset) =>
    `${plan ? `${PLACES.show(plan)}:` : ""}${path.join("/")}${offset === undefined ? "" : `@${offset}`}`,
};

const LEFT = { steps: 62, model_calls: 8, tool_calls: 7, context_ops: 32, output_bytes: 65536 };
const FETCH = { path: ["steps", 0, "plan", "steps", 0], operation: "tool(flaky_fetch)", bind: "page", depth: 2 };
const RETRY = { path: ["steps", 0], operation: "retry", bind: "page", depth: 1 };
const ERROR = {
  phase: "execute",
  kind: "tool_error",
  message: 'tool "flaky_fetch" failed: connection reset by peer',
  path: ["steps", 0, "plan", "steps", 0],
  range: { offset: 477, length: 167 },
};

function transition(sequence: number, operation: string, bind: string | null, elapsed: number): Transition {
  return { sequence, operation, bind, status: "ok", elapsed_ms: elapsed, duration_ms: 2, remaining: LEFT };
}

/** The triage plan's retry as the runtime streams it: a fetch that fails once, then answers. */
const EVENTS: RunEvent[] = [
  { type: "step_started", ...RETRY, elapsed_ms: 0 },
  { type: "step_started", ...FETCH, attempt: 1, elapsed_ms: 1 },
  { type: "step_failed", ...FETCH, attempt: 1, elapsed_ms: 3, duration_ms: 2, remaining: LEFT, error: ERROR },
  {
    type: "attempt_failed",
    ...RETRY,
    attempt: 1,
    attempts: 2,
    retrying: true,
    elapsed_ms: 3,
    duration_ms: 3,
    remaining: LEFT,
    error: ERROR,
  },
  { type: "step_started", ...FETCH, attempt: 2, elapsed_ms: 4 },
  {
    type: "transition",
    ...FETCH,
    attempt: 2,
    elapsed_ms: 6,
    transition: transition(1, "tool(flaky_fetch)", "page", 6),
  },
  { type: "step_finished", ...FETCH, attempt: 2, elapsed_ms: 6, duration_ms: 2, remaining: LEFT },
  { type: "transition", ...RETRY, elapsed_ms: 7, transition: transition(2, "retry", "page", 7) },
  { type: "step_finished", ...RETRY, elapsed_ms: 7, duration_ms: 7, remaining: LEFT },
];
const VALUE = { title: "Example news" };
const BUDGET = { steps: 62, model_calls: 8 };

/** The run log's part a session writes, kept in memory as RunLog keeps a running record. */
function memoryLog(): RunSessionLog & {
  begin(plan: string, host: string | null, id: string, mocks?: string): RunRecord;
} {
  return {
    begin: (plan, hostProfile, serverRunId, mocks) => ({
      id: "r1",
      number: 1,
      plan,
      hostProfile,
      startedAt: STARTED,
      serverRunId,
      ...(mocks ? { mocks } : {}),
      status: "running",
      transitions: [],
      events: [],
    }),
    addEvent: (record, event) => void record.events?.push(event),
    addTransition: (record, t) => void record.transitions.push(t),
    finish: (record, outcome) => void Object.assign(record, outcome),
  };
}

function output(): { output: RunOutput; lines: string[] } {
  const lines: string[] = [];
  const channel = { appendLine: (line: string) => void lines.push(line), show: () => {}, dispose: () => {} };
  return { output: new RunOutput(channel, PLACES), lines };
}

/** A language server's run: ActiveRuns.start, then its notifications as RunSession reads them. */
function normalRun(result: RunResult): { lines: string[]; record: RunRecord } {
  const { output: out, lines } = output();
  const log = memoryLog();
  const record = log.begin(uri(PLAN), HOST, "run-1", uri(MOCKS));
  out.started(record);
  const session = new RunSession("run-1", record, log, out);
  for (const event of EVENTS) session.handle({ kind: "event", event });
  session.handle({ kind: "finished", params: { result, elapsedMs: 12 } });
  return { lines, record };
}

/** A debug run: the adapter's custom events, as VS Code hands them to the extension. */
function debugRun(result: DebugRunResultEvent.Body): { lines: string[]; record: RunRecord | undefined } {
  const { output: out, lines } = output();
  const log = memoryLog();
  let record: RunRecord | undefined;
  const runs = new DebugRuns({ ...log, begin: (...args) => (record = log.begin(...args)) }, out, uri);
  runs.receive("s1", { event: DebugRunStartedEvent.event, body: { plan: PLAN, hostProfile: HOST, mocks: MOCKS } });
  runs.receive("s1", { event: DebugRunJournalEvent.event, body: { dir: "/w/.rlm-plan", id: 4, uid: "u4" } });
  for (const event of EVENTS) runs.receive("s1", { event: DebugRunEvent.event, body: { event } });
  runs.receive("s1", { event: DebugRunResultEvent.event, body: result });
  return { lines, record };
}

const HEADER = [
  "",
  `Run 1 started: mocks/triage.rlmplan.json at ${new Date(STARTED).toLocaleTimeString()}`,
  "  mocked: tools and providers in mocks/triage.mocks.json answer from it",
  "  host profile: rlmplan.host.json",
  '  retry attempt 1/2 failed at mocks/triage.rlmplan.json:steps/0/plan/steps/0@477 [execute/tool_error]: tool "flaky_fetch" failed: connection reset by peer; retrying',
  "  #1    tool(flaky_fetch)      → page         ok   at     6 ms  took 2 ms   " +
    "  left: steps 62 · tools 7 · models 8 · context 32 · bytes 65536",
  "  #2    retry                  → page         ok   at     7 ms  took 2 ms   " +
    "  left: steps 62 · tools 7 · models 8 · context 32 · bytes 65536",
];

test("a debug run's log lines are a normal run's: the failed attempt, the transitions, the value", () => {
  const normal = normalRun({ ok: true, value: VALUE, checkpoints: ["fetched"], budgetRemaining: BUDGET });
  const debug = debugRun({
    ok: true,
    mocked: true,
    value: VALUE,
    checkpoints: ["fetched"],
    budget_remaining: BUDGET,
    elapsed_ms: 12,
  });
  assert.deepEqual(normal.lines, [
    ...HEADER,
    "Run 1 succeeded (mocked) in 12 ms (2 transitions). Final value:",
    '{\n  "title": "Example news"\n}',
    "  checkpoints: fetched",
    "  budget left: steps 62 · model calls 8",
  ]);
  assert.deepEqual(debug.lines, normal.lines);
  // The run log keeps the same events and transitions, and the debug run its journal entry.
  assert.deepEqual(debug.record?.events, normal.record.events);
  assert.deepEqual(debug.record?.transitions, normal.record.transitions);
  assert.deepEqual(debug.record?.journal, { dir: "/w/.rlm-plan", id: 4, uid: "u4" });
});

test("a failed debug run names the step it failed in, as a normal run does", () => {
  const error: PlanError = {
    phase: "execute",
    kind: "tool_error",
    message: "it broke",
    path: ["steps", 0, "plan", "steps", 0],
  };
  const normal = normalRun({ ok: false, error, checkpoints: [], budgetRemaining: BUDGET });
  const debug = debugRun({ ok: false, error, checkpoints: [], budget_remaining: BUDGET, elapsed_ms: 12 });
  assert.deepEqual(normal.lines.slice(HEADER.length), [
    "Run 1 failed (mocked) in 12 ms (execute/tool_error) at step tool(flaky_fetch) → page at steps/0/plan/steps/0:",
    "  it broke",
    `Error: ${JSON.stringify(error, null, 2)}`,
    "  budget left: steps 62 · model calls 8",
  ]);
  assert.deepEqual(debug.lines, normal.lines);
  assert.equal(debug.record?.status, "failed");
});

test("a debug session stopped before the adapter said the end: the run is cancelled, said once", () => {
  const { output: out, lines } = output();
  const runs = new DebugRuns(memoryLog(), out, uri);
  runs.receive("s2", { event: DebugRunStartedEvent.event, body: { plan: PLAN, hostProfile: HOST } });
  runs.terminated("s2");
  runs.terminated("s2");
  assert.deepEqual(lines.slice(3), ["Run 1 was cancelled (0 transitions)."]);
});
