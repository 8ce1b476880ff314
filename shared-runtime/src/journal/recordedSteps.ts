// A recorded run's steps as `runs diff` compares them (runDiff.ts): each step by its JSON path,
// from the last segment's events (what ran, how often, how it ended), its calls and the value it
// bound as far as the journal holds it, and the steps of its plan it never started.

import { roundMoney } from "../plan/modelCost";
import { type JsonObject, type JsonPath, type JsonValue } from "../json";
import { parsePlan, planSteps } from "../plan";
import { operationName } from "../run/interpreter";
import { parsePlanDocument } from "../text/planDocument";
import { canonicalText, digestOf } from "./requestKey";
import type { RecordedCall, RecordedEvent, RunDetail } from "./queries";

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
 * Tokens and money a step's own model calls spent (or a whole run's), as the journal recorded them
 * per call (plan/modelCost.ts); `estimated` when some reply reported no usage.
 */
export interface StepUsage {
  readonly inputTokens: number;
  readonly outputTokens: number;
  readonly estimated: boolean;
  /** In the run's currency; null when no call was priced. */
  readonly cost: number | null;
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

/** A value's SHA-256 and preview, both of its canonical JSON text (sorted keys): equal values, equal hashes. */
export function valueSummary(value: unknown): ValueSummary {
  const text = canonicalText(value);
  const chars = [...text];
  const preview = chars.length > VALUE_PREVIEW_CHARS ? `${chars.slice(0, VALUE_PREVIEW_CHARS).join("")}…` : text;
  return { sha256: digestOf(text), preview };
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
export function stepsOf(run: RunDetail): Map<string, StepOutcome> {
  const last = lastSegment(run);
  const tracks = new Map<string, StepTrack>();
  for (const recorded of run.events) if (recorded.segment === last) track(tracks, recorded);
  const planned = plannedSteps(run.planText);
  for (const [key, step] of planned)
    if (!tracks.has(key)) tracks.set(key, freshTrack(step.operation, step.bind, "not run"));
  const calls = callsByStep(run.calls.filter((c) => c.segment <= last));
  const places = stepPlaces(run.planText, [...tracks.keys()]);
  const rootFinal = `["steps",${planned.size > 0 ? lastRootIndex(planned) : -1}]`;
  const out = new Map<string, StepOutcome>();
  for (const [key, t] of tracks) {
    const stepCalls = calls.get(key) ?? [];
    const at = places.get(key);
    out.set(key, {
      status: t.status,
      operation: t.operation,
      bind: t.bind,
      line: at ? at.line : null,
      column: at ? at.column : null,
      attempts: t.attempts,
      failedAttempts: t.failedAttempts,
      branches: t.branches ? [...t.branches].sort((x, y) => x - y) : null,
      error: t.error,
      value: t.status !== "ok" ? null : boundValue(run, key === rootFinal && t.operation === "final", stepCalls),
      calls: callCounts(stepCalls),
      requests: stepCalls.map((c) => c.key),
      durationMs: t.durationMs,
      usage: usageOf(stepCalls),
    });
  }
  return out;
}

/** The segment whose events are what the run did: a resumed run replays the earlier ones in it. */
function lastSegment(run: RunDetail): number {
  return run.events.reduce((max, e) => Math.max(max, e.segment), 1);
}

/**
 * When each step last started, ms from the run's start, by path key (as stepsOf keys them): where
 * a timeline draws its bar (stepsOf's durationMs is the bar's length).
 */
export function stepStarts(run: RunDetail): Map<string, number> {
  const last = lastSegment(run);
  const starts = new Map<string, number>();
  for (const { segment, event } of run.events) {
    if (segment !== last || event["type"] !== "step_started" || !Array.isArray(event["path"])) continue;
    starts.set(JSON.stringify(event["path"]), typeof event["elapsed_ms"] === "number" ? event["elapsed_ms"] : 0);
  }
  return starts;
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
      t = freshTrack(operation, bind, "unfinished");
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

/**
 * Where each step (by path key) is in the plan's text, 1-based: the ranges in one request, then
 * one walk over the text in offset order (a line count per step from the start would take time
 * in the square of the plan's size).
 */
function stepPlaces(text: string | null, keys: readonly string[]): Map<string, { line: number; column: number }> {
  const places = new Map<string, { line: number; column: number }>();
  if (text === null) return places;
  const ranges = parsePlanDocument(text).rangesOf(keys.map((key) => ({ path: JSON.parse(key) as JsonPath })));
  const found = keys.flatMap((key, i) => {
    const range = ranges[i];
    return range ? [{ key, offset: range.offset }] : [];
  });
  found.sort((x, y) => x.offset - y.offset);
  let line = 1;
  let lineStart = 0;
  let scanned = 0;
  for (const { key, offset } of found) {
    for (let i = text.indexOf("\n", scanned); i >= 0 && i < offset; i = text.indexOf("\n", i + 1)) {
      line++;
      lineStart = i + 1;
    }
    scanned = Math.max(scanned, lineStart);
    places.set(key, { line, column: offset - lineStart + 1 });
  }
  return places;
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

/** The calls' usage summed; null when none recorded any (tool calls, or calls before usage was recorded). */
function usageOf(calls: readonly RecordedCall[]): StepUsage | null {
  let sum: { inputTokens: number; outputTokens: number; estimated: boolean; cost: number | null } | null = null;
  for (const { usage } of calls) {
    if (!usage) continue;
    sum ??= { inputTokens: 0, outputTokens: 0, estimated: false, cost: null };
    sum.inputTokens += usage.inputTokens;
    sum.outputTokens += usage.outputTokens;
    sum.estimated ||= usage.estimated;
    if (usage.cost !== null) sum.cost = roundMoney((sum.cost ?? 0) + usage.cost);
  }
  return sum;
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

export function errorOf(value: JsonValue | undefined): StepOutcome["error"] {
  const e = (value ?? {}) as JsonObject;
  return { phase: String(e["phase"] ?? ""), kind: String(e["kind"] ?? ""), message: String(e["message"] ?? "") };
}

/** A step's track before any of its events counts. */
function freshTrack(operation: string, bind: string | null, status: "not run" | "unfinished"): StepTrack {
  return {
    operation,
    bind,
    status,
    attempts: 0,
    failedAttempts: 0,
    branches: null,
    error: null,
    startedAt: 0,
    durationMs: null,
  };
}
