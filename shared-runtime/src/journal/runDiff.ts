// Two recorded runs lined up step by step (`rlm-plan runs diff`): each step is matched by its JSON
// path, across plan versions (a path in one plan only is added or removed), and compared on what
// decides a run: status, error, the value bound, the path taken (attempts, retry failures,
// parallel branches) and the calls made. Values are compared exactly, as canonical JSON; timing is
// reported, never a difference. Everything read comes from runDetail (queries.ts), already masked.

import { pointer, type JsonPath } from "../json";
import { canonicalText } from "./requestKey";
import { runDetail, type RunDetail } from "./queries";
import type { JournalStore } from "./journalStore";
import { errorOf, stepsOf, valueSummary, type StepOutcome, type StepUsage, type ValueSummary } from "./recordedSteps";

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
  /** How the run is named when it is not a journal run (a test case's blessed baseline); else "run ID". */
  readonly name?: string;
  readonly status: string;
  readonly plan: string;
  readonly planFile: string | null;
  readonly planDigest: string;
  readonly mocked: boolean;
  readonly elapsedMs: number | null;
  readonly value: ValueSummary | null;
  readonly error: { readonly phase: string; readonly kind: string; readonly message: string } | null;
  readonly usage: StepUsage | null;
  /** The currency of its costs (the host profile's), when it made a priced call. */
  readonly currency: string | null;
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
  return diffOutcomes(diffedRun(a), stepsOf(a), diffedRun(b), stepsOf(b), a.planDigest === b.planDigest);
}

/**
 * Whether a difference of one aspect at a step is accepted (the baseline gate accepts a cost
 * within its tolerance, a value its case does not hold exactly); `runs diff` accepts none.
 */
export type AcceptedDifference = (aspect: StepAspect, a: StepOutcome, b: StepOutcome) => boolean;

/**
 * Two runs' steps (by path key, as stepsOf gives them) compared: the one comparison of `runs diff`
 * and the baseline gate (testing/baseline.ts), whose blessed side is no journal run.
 */
export function diffOutcomes(
  runA: DiffedRun,
  stepsA: ReadonlyMap<string, StepOutcome>,
  runB: DiffedRun,
  stepsB: ReadonlyMap<string, StepOutcome>,
  samePlan: boolean,
  accepted?: AcceptedDifference,
): RunDiff {
  const steps: StepDiff[] = [];
  for (const key of executionOrder(stepsA, stepsB)) {
    const outcomeA = stepsA.get(key) ?? null;
    const outcomeB = stepsB.get(key) ?? null;
    const path = JSON.parse(key) as JsonPath;
    const differs =
      outcomeA && outcomeB
        ? aspectsDiffering(outcomeA, outcomeB).filter((aspect) => !accepted?.(aspect, outcomeA, outcomeB))
        : [];
    // Steps neither run started, in both plans, say nothing about either run.
    if (outcomeA?.status === "not run" && outcomeB?.status === "not run") continue;
    const change = !outcomeB ? "removed" : !outcomeA ? "added" : differs.length > 0 ? "changed" : "same";
    steps.push({ path, pointer: pointer(path), change, differs, a: outcomeA, b: outcomeB });
  }
  const firstDivergence = divergence(steps);
  const ended = (run: DiffedRun) =>
    `${run.status}\n${run.value?.sha256 ?? ""}\n${run.error ? canonicalText(run.error) : ""}`;
  const count = (change: StepDiff["change"]) => steps.filter((s) => s.change === change).length;
  return {
    a: runA,
    b: runB,
    agree: firstDivergence === null && ended(runA) === ended(runB),
    samePlan,
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

/** A journal run's side of a diff. */
export function diffedRun(run: RunDetail): DiffedRun {
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
    usage: run.usage
      ? {
          inputTokens: run.usage.inputTokens,
          outputTokens: run.usage.outputTokens,
          estimated: run.usage.estimated,
          cost: run.usage.cost,
        }
      : null,
    currency: run.usage?.currency ?? null,
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
  const inA = new Set(ran(a));
  // B's own steps, by the last step of A's that B ran before them ("" before any).
  const after = new Map<string, string[]>();
  let anchor = "";
  for (const key of ran(b)) {
    if (inA.has(key)) anchor = key;
    else {
      const list = after.get(anchor);
      if (list) list.push(key);
      else after.set(anchor, [key]);
    }
  }
  const order = [...(after.get("") ?? [])];
  for (const key of inA) order.push(key, ...(after.get(key) ?? []));
  const placed = new Set(order);
  for (const key of [...a.keys(), ...b.keys()]) {
    if (placed.has(key)) continue;
    placed.add(key);
    order.push(key);
  }
  return order;
}
