// Two recorded runs lined up step by step (`rlm-plan runs diff`): each step is matched by its JSON
// path, across plan versions (a path in one plan only is added or removed), and compared on what
// decides a run: status, error, the value bound, the path taken (attempts, retry failures,
// parallel branches) and the calls made. Values are compared exactly, as canonical JSON; timing is
// reported, never a difference. Everything read comes from runDetail (queries.ts), already masked.

import { pointer, type JsonObject, type JsonPath, type JsonValue } from "../json";
import { parsePlan, planSteps } from "../plan";
import { operationName } from "../run/interpreter";
import { parsePlanDocument } from "../text/planDocument";
import { lineColumn } from "../text/lineColumn";
import { canonicalText, digestOf } from "./requestKey";
import { runDetail, type RecordedCall, type RecordedEvent, type RunDetail } from "./queries";
import type { JournalStore } from "./journalStore";

/** A value as the diff shows it: its SHA-256 (of the canonical JSON) and a short preview of that text. */
export interface ValueSummary {
  readonly sha256: string;
  readonly preview: string;
}

/** How a preview is cut: the canonical text's first characters, then "…". */
export const VALUE_PREVIEW_CHARS = 40;

/** The model and tool calls of a step with the same kind, name and model, and how they ended. */
export interface CallCount {
  readonly kind: "model" | "tool";
  readonly name: string;
  readonly model: string | null;
  readonly count: number;
  readonly failed: number;
}

/**
 * Tokens and money a step spent. The journal does not record usage yet (another change adds it to
 * call rows); until then every step's `usage` is null, and this is where it will be summed.
 */
export interface StepUsage {
  readonly inputTokens: number;
  readonly outputTokens: number;
  readonly costUsd: number | null;
}

/** What one run did at one step. */
export interface StepOutcome {
  /** ok, failed, unfinished (started, never ended: the run stopped), or not run (in the plan, never started). */
  readonly status: "ok" | "failed" | "unfinished" | "not run";
  readonly operation: string;
  readonly bind: string | null;
  /** 1-based line and column of the step in this run's plan text, when it has one. */
  readonly line: number | null;
  readonly column: number | null;
  /** How many times the step started (more than 1 inside a retry). */
  readonly attempts: number;
  /** A retry step's failed attempts. */
  readonly failedAttempts: number;
  /** A parallel step's branches that started, by index; null for other steps. */
  readonly branches: readonly number[] | null;
  readonly error: { readonly phase: string; readonly kind: string; readonly message: string } | null;
  /**
   * The value bound, as far as the journal records it: a model or tool step's reply, the root
   * plan's final value; null for other steps (their values are not recorded) and failed ones.
   */
  readonly value: ValueSummary | null;
  readonly calls: readonly CallCount[];
  /** The masked request keys of the step's calls, in order: the same names with other arguments differ. */
  readonly requests: readonly string[];
  /** Time from the step's last start to its end, ms; null when it did not end. */
  readonly durationMs: number | null;
  readonly usage: StepUsage | null;
}

/** What differs at a step, in the order the diff reports it. */
export type StepAspect = "operation" | "status" | "error" | "value" | "attempts" | "branches" | "calls";

export interface StepDiff {
  readonly path: JsonPath;
  /** The path as a JSON pointer: /steps/0/plan/steps/1. */
  readonly pointer: string;
  /** same, changed, added (in run B's plan only) or removed (in run A's only). */
  readonly change: "same" | "changed" | "added" | "removed";
  readonly differs: readonly StepAspect[];
  readonly a: StepOutcome | null;
  readonly b: StepOutcome | null;
}

export interface DiffedRun {
  readonly id: number;
  readonly status: string;
  readonly plan: string;
  readonly planFile: string | null;
  readonly planDigest: string;
  readonly mocked: boolean;
  readonly elapsedMs: number | null;
  readonly value: ValueSummary | null;
  readonly error: { readonly phase: string; readonly kind: string; readonly message: string } | null;
  readonly usage: StepUsage | null;
}

export interface RunDiff {
  readonly a: DiffedRun;
  readonly b: DiffedRun;
  /** True when no step differs and the runs ended alike (same status, value or error). */
  readonly agree: boolean;
  readonly samePlan: boolean;
  /** The first step, in execution order, that differs (the innermost differing step inside it); null when none does. */
  readonly firstDivergence: StepDiff | null;
  /** Every step either run ran or either plan holds, in execution order (A's, then B's own steps). */
  readonly steps: readonly StepDiff[];
  readonly summary: {
    readonly steps: number;
    readonly same: number;
    readonly changed: number;
    readonly added: number;
    readonly removed: number;
  };
}

/** Runs `a` and `b` of the journal compared; the id of a run the journal does not hold otherwise. */
export function diffRecordedRuns(store: JournalStore, a: number, b: number): RunDiff | { readonly missing: number } {
  const first = runDetail(store, a);
  if (!first) return { missing: a };
  const second = runDetail(store, b);
  if (!second) return { missing: b };
  return diffRuns(first, second);
}

/** Two runs, as runDetail reads them, compared step by step. */
export function diffRuns(a: RunDetail, b: RunDetail): RunDiff {
  const stepsA = stepsOf(a);
  const stepsB = stepsOf(b);
  const steps: StepDiff[] = [];
  for (const key of executionOrder(stepsA, stepsB)) {
    const outcomeA = stepsA.get(key) ?? null;
    const outcomeB = stepsB.get(key) ?? null;
    const path = JSON.parse(key) as JsonPath;
    const differs = outcomeA && outcomeB ? aspectsDiffering(outcomeA, outcomeB) : [];
    // Steps neither run started, in both plans, say nothing about either run.
    if (outcomeA?.status === "not run" && outcomeB?.status === "not run") continue;
    const change = !outcomeB ? "removed" : !outcomeA ? "added" : differs.length > 0 ? "changed" : "same";
    steps.push({ path, pointer: pointer(path), change, differs, a: outcomeA, b: outcomeB });
  }
  const runA = diffedRun(a);
  const runB = diffedRun(b);
  const firstDivergence = divergence(steps);
  const ended = (run: DiffedRun) =>
    `${run.status}\n${run.value?.sha256 ?? ""}\n${run.error ? canonicalText(run.error) : ""}`;
  const count = (change: StepDiff["change"]) => steps.filter((s) => s.change === change).length;
  return {
    a: runA,
    b: runB,
    agree: firstDivergence === null && ended(runA) === ended(runB),
    samePlan: a.planDigest === b.planDigest,
    firstDivergence,
    steps,
    summary: {
      steps: steps.length,
      same: count("same"),
      changed: count("changed"),
      added: count("added"),
      removed: count("removed"),
    },
  };
}

/**
 * The first step that differs, in execution order, taken down to the innermost step that differs
 * inside it: a retry or parallel step differs because a step in it did, and that is where the runs
 * went apart.
 */
function divergence(steps: readonly StepDiff[]): StepDiff | null {
  const differing = steps.filter((s) => s.change !== "same");
  let found = differing[0];
  if (!found) return null;
  for (const step of differing)
    if (step.path.length > found.path.length && found.path.every((segment, i) => step.path[i] === segment))
      found = step;
  return found;
}

/** A value's SHA-256 and preview, both of its canonical JSON text (sorted keys): equal values, equal hashes. */
export function valueSummary(value: unknown): ValueSummary {
  const text = canonicalText(value);
  const chars = [...text];
  const preview = chars.length > VALUE_PREVIEW_CHARS ? `${chars.slice(0, VALUE_PREVIEW_CHARS).join("")}…` : text;
  return { sha256: digestOf(text), preview };
}

function diffedRun(run: RunDetail): DiffedRun {
  const d = run.details;
  return {
    id: run.id,
    status: run.status,
    plan: run.plan,
    planFile: run.planFile,
    planDigest: run.planDigest,
    mocked: run.mocked,
    elapsedMs: run.elapsedMs,
    value: "value" in d ? valueSummary(d["value"]) : null,
    error: "error" in d ? errorOf(d["error"]) : null,
    usage: null,
  };
}

function aspectsDiffering(a: StepOutcome, b: StepOutcome): StepAspect[] {
  const out: StepAspect[] = [];
  // A plan edited between the runs may hold another step at the same path.
  if (a.operation !== b.operation || a.bind !== b.bind) out.push("operation");
  if (a.status !== b.status) out.push("status");
  if (canonicalText(a.error) !== canonicalText(b.error)) out.push("error");
  if (a.value?.sha256 !== b.value?.sha256) out.push("value");
  // A step one run never started differs by its status alone: its attempts would say it twice.
  const bothRan = a.status !== "not run" && b.status !== "not run";
  if (bothRan && (a.attempts !== b.attempts || a.failedAttempts !== b.failedAttempts)) out.push("attempts");
  if (canonicalText(a.branches) !== canonicalText(b.branches)) out.push("branches");
  if (canonicalText(a.calls) !== canonicalText(b.calls) || canonicalText(a.requests) !== canonicalText(b.requests))
    out.push("calls");
  return out;
}

/**
 * Keys of A's steps in the order A started them, B's own steps after the step B ran before them,
 * then the steps neither run started (added or removed ones among them), in plan order.
 */
function executionOrder(a: ReadonlyMap<string, StepOutcome>, b: ReadonlyMap<string, StepOutcome>): string[] {
  const ran = (steps: ReadonlyMap<string, StepOutcome>) =>
    [...steps].filter(([, s]) => s.status !== "not run").map(([key]) => key);
  const order = ran(a);
  let after = -1;
  for (const key of ran(b)) {
    const at = order.indexOf(key);
    if (at >= 0) after = at;
    else order.splice(++after, 0, key);
  }
  const placed = new Set(order);
  for (const key of [...a.keys(), ...b.keys()]) {
    if (placed.has(key)) continue;
    placed.add(key);
    order.push(key);
  }
  return order;
}

interface StepTrack {
  operation: string;
  bind: string | null;
  status: StepOutcome["status"];
  attempts: number;
  failedAttempts: number;
  branches: Set<number> | null;
  error: StepOutcome["error"];
  startedAt: number;
  durationMs: number | null;
}

/**
 * A run's steps by path key: the started ones in the order they first started, then its plan's
 * steps it never started. The last segment's events are what the run did (a resumed run's earlier
 * segments are replayed in it).
 */
function stepsOf(run: RunDetail): Map<string, StepOutcome> {
  const last = run.events.reduce((max, e) => Math.max(max, e.segment), 1);
  const tracks = new Map<string, StepTrack>();
  for (const recorded of run.events) if (recorded.segment === last) track(tracks, recorded);
  const planned = plannedSteps(run.planText);
  for (const [key, step] of planned)
    if (!tracks.has(key))
      tracks.set(key, {
        ...step,
        status: "not run",
        attempts: 0,
        failedAttempts: 0,
        branches: null,
        error: null,
        startedAt: 0,
        durationMs: null,
      });
  const calls = callsByStep(run.calls.filter((c) => c.segment <= last));
  const document = run.planText === null ? undefined : parsePlanDocument(run.planText);
  const rootFinal = `["steps",${planned.size > 0 ? lastRootIndex(planned) : -1}]`;
  const out = new Map<string, StepOutcome>();
  for (const [key, t] of tracks) {
    const path = JSON.parse(key) as JsonPath;
    const stepCalls = calls.get(key) ?? [];
    const range = document?.rangeOf(path);
    const at = range && document ? lineColumn(document.text, range.offset) : undefined;
    out.set(key, {
      status: t.status,
      operation: t.operation,
      bind: t.bind,
      line: at ? at.line + 1 : null,
      column: at ? at.character + 1 : null,
      attempts: t.attempts,
      failedAttempts: t.failedAttempts,
      branches: t.branches ? [...t.branches].sort((x, y) => x - y) : null,
      error: t.error,
      value: t.status !== "ok" ? null : boundValue(run, key === rootFinal && t.operation === "final", stepCalls),
      calls: callCounts(stepCalls),
      requests: stepCalls.map((c) => c.key),
      durationMs: t.durationMs,
      usage: null,
    });
  }
  return out;
}

function track(tracks: Map<string, StepTrack>, recorded: RecordedEvent): void {
  const e = recorded.event;
  const path = e["path"];
  if (!Array.isArray(path)) return;
  const key = JSON.stringify(path);
  const elapsed = typeof e["elapsed_ms"] === "number" ? e["elapsed_ms"] : 0;
  let t = tracks.get(key);
  if (e["type"] === "step_started") {
    if (!t) {
      const operation = String(e["operation"] ?? "");
      const bind = typeof e["bind"] === "string" ? e["bind"] : null;
      t = {
        operation,
        bind,
        status: "unfinished",
        attempts: 0,
        failedAttempts: 0,
        branches: null,
        error: null,
        startedAt: 0,
        durationMs: null,
      };
      tracks.set(key, t);
    }
    t.attempts++;
    t.status = "unfinished";
    t.startedAt = elapsed;
    t.durationMs = null;
    noteBranch(tracks, path);
    return;
  }
  if (!t) return;
  if (e["type"] === "step_finished") {
    t.status = "ok";
    t.error = null;
    t.durationMs = typeof e["duration_ms"] === "number" ? e["duration_ms"] : elapsed - t.startedAt;
  } else if (e["type"] === "step_failed") {
    t.status = "failed";
    t.error = errorOf(e["error"]);
    t.durationMs = typeof e["duration_ms"] === "number" ? e["duration_ms"] : elapsed - t.startedAt;
  } else if (e["type"] === "attempt_failed") t.failedAttempts++;
}

/** A branch's first step started: its parallel step (the path before `plans`, i) ran that branch. */
function noteBranch(tracks: Map<string, StepTrack>, path: readonly JsonValue[]): void {
  const n = path.length;
  if (n < 5 || path[n - 4] !== "plans" || path[n - 1] !== 0) return;
  const parent = tracks.get(JSON.stringify(path.slice(0, n - 4)));
  const branch = path[n - 3];
  if (!parent || typeof branch !== "number") return;
  (parent.branches ??= new Set()).add(branch);
}

/** The steps of a plan's text by path key (operation and binding), in plan order; none when it does not parse. */
function plannedSteps(text: string | null): Map<string, { operation: string; bind: string | null }> {
  const steps = new Map<string, { operation: string; bind: string | null }>();
  const plan = text === null ? undefined : parsePlan({ kind: "document", text }).plan;
  if (!plan) return steps;
  for (const { step } of planSteps(plan))
    steps.set(JSON.stringify(step.path), { operation: operationName(step), bind: "bind" in step ? step.bind : null });
  return steps;
}

function lastRootIndex(planned: ReadonlyMap<string, unknown>): number {
  let index = -1;
  for (const key of planned.keys()) {
    const path = JSON.parse(key) as JsonPath;
    if (path.length === 2 && typeof path[1] === "number") index = Math.max(index, path[1]);
  }
  return index;
}

/** What a completed step bound, as recorded: the root final's run value, else its last answered call's reply. */
function boundValue(run: RunDetail, rootFinal: boolean, calls: readonly RecordedCall[]): ValueSummary | null {
  if (rootFinal) return "value" in run.details ? valueSummary(run.details["value"]) : null;
  const answered = calls.filter((c) => c.status === "ok" && c.reply !== undefined).at(-1);
  return answered ? valueSummary(answered.reply) : null;
}

function callsByStep(calls: readonly RecordedCall[]): Map<string, RecordedCall[]> {
  const byStep = new Map<string, RecordedCall[]>();
  for (const call of calls) {
    const key = JSON.stringify(call.path);
    const list = byStep.get(key);
    if (list) list.push(call);
    else byStep.set(key, [call]);
  }
  return byStep;
}

function callCounts(calls: readonly RecordedCall[]): CallCount[] {
  const counts = new Map<
    string,
    { kind: "model" | "tool"; name: string; model: string | null; count: number; failed: number }
  >();
  for (const call of calls) {
    const key = JSON.stringify([call.kind, call.name, call.model]);
    const entry = counts.get(key) ?? { kind: call.kind, name: call.name, model: call.model, count: 0, failed: 0 };
    entry.count++;
    if (call.status !== "ok") entry.failed++;
    counts.set(key, entry);
  }
  return [...counts.values()];
}

function errorOf(value: JsonValue | undefined): StepOutcome["error"] {
  const e = (value ?? {}) as JsonObject;
  return { phase: String(e["phase"] ?? ""), kind: String(e["kind"] ?? ""), message: String(e["message"] ?? "") };
}
