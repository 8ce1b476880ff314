// A test case's baseline (`rlm-plan test --bless`, `--baseline`): what its blessed run did, step
// by step, as `runs diff` reads a recorded run (journal/recordedSteps.ts) without what changes
// from one machine or run to the next (times, run ids, plan lines), and the gate that holds a new
// run to it. The comparison is `runs diff`'s own (journal/runDiff.ts diffOutcomes); the gate only
// says which of its differences it accepts: a cost within the test file's tolerance, a value the
// case does not assert exactly.

import { newJsonObject, pointer, type JsonObject, type JsonPath, type JsonValue } from "../json";
import { parsePlan } from "../plan/parse";
import { planSteps } from "../plan/walk";
import { formatCapability, requiredCapability } from "../plan/capabilities";
import type { RunDetail } from "../journal/queries";
import { canonicalText } from "../journal/requestKey";
import { stepsOf, valueSummary, type StepOutcome } from "../journal/recordedSteps";
import { diffedRun, diffOutcomes, type AcceptedDifference, type RunDiff } from "../journal/runDiff";
import type { Spent } from "./assertions";
import type { Expectations } from "./testCase";

/** The counters a baseline's cost holds; a later counter (tokens, money) is compared the same way. */
export const BASELINE_COST_COUNTERS = ["steps", "model_calls", "tool_calls", "context_ops"] as const;

/** One step of the blessed run: a StepOutcome without its time and place. */
export interface BlessedStep {
  readonly path: string;
  readonly operation: string;
  readonly bind: string | null;
  readonly status: StepOutcome["status"];
  readonly attempts: number;
  readonly failed_attempts: number;
  readonly branches: readonly number[] | null;
  readonly error: StepOutcome["error"];
  readonly value: StepOutcome["value"];
  readonly calls: StepOutcome["calls"];
  /** The calls' canonical request hashes (arguments included), in call order. */
  readonly requests: readonly string[];
}

export interface CaseBaseline {
  /** How the run ended: the journal's status (succeeded, failed, ...). */
  readonly status: string;
  /** SHA-256 of the plan's text the blessed run ran: shown, so a reviewer sees the plan changed. */
  readonly plan_sha256: string;
  readonly value?: JsonValue;
  readonly error?: { readonly phase: string; readonly kind: string; readonly message: string };
  /** What the run spent, by counter. */
  readonly cost: Readonly<Record<string, number>>;
  /** The capabilities the steps that ran used, sorted. */
  readonly capabilities: readonly string[];
  /** Every step, in the order the run started them, then the plan's steps it never started. */
  readonly steps: readonly BlessedStep[];
}

/** What the gate found: nothing (the run is its baseline's), or the reasons and the diff. */
export interface BaselineVerdict {
  readonly reasons: readonly string[];
  readonly diff: RunDiff;
}

/** A case's recorded run as its baseline (`steps`: its steps, when already read). */
export function caseBaseline(run: RunDetail, spent: Spent, steps = stepsOf(run)): CaseBaseline {
  const ended = diffedRun(run);
  const cost: Record<string, number> = {};
  for (const counter of BASELINE_COST_COUNTERS) cost[counter] = spent[counter];
  return {
    status: run.status,
    plan_sha256: run.planDigest,
    ...("value" in run.details ? { value: run.details["value"] as JsonValue } : {}),
    ...(ended.error ? { error: ended.error } : {}),
    cost,
    capabilities: capabilitiesUsed(run.planText, steps),
    steps: [...steps].map(([key, s]) => ({
      path: pointer(JSON.parse(key) as JsonPath),
      operation: s.operation,
      bind: s.bind,
      status: s.status,
      attempts: s.attempts,
      failed_attempts: s.failedAttempts,
      branches: s.branches,
      error: s.error,
      value: s.value,
      calls: s.calls,
      requests: s.requests,
    })),
  };
}

/**
 * A case's run held to its baseline: path (steps, branches, status), tool order (which calls, in
 * which order, with which arguments), capability use, cost within `tolerance` (0.1: 10% either
 * way of each counter) and value (exactly, unless the case asserts it by `contains` or `schema`
 * only: then the case's own assertion is its judge). Undefined when nothing changed.
 */
export function checkBaseline(
  blessed: CaseBaseline,
  run: RunDetail,
  spent: Spent,
  options: { readonly tolerance: number; readonly expect: Expectations },
): BaselineVerdict | undefined {
  const steps = stepsOf(run);
  const current = caseBaseline(run, spent, steps);
  const reasons: string[] = [];
  const costOver = BASELINE_COST_COUNTERS.flatMap((counter) => {
    const was = blessed.cost[counter];
    const now = current.cost[counter];
    if (was === undefined || now === undefined || Math.abs(now - was) <= options.tolerance * was) return [];
    return [`${counter} ${was} -> ${now}`];
  });
  const exactValue = valueHeldExactly(options.expect);
  const accepted: AcceptedDifference = (aspect, a, b) => {
    if (aspect === "value") return !exactValue;
    // A retry's extra attempt, a repeated call: cost, accepted within the tolerance.
    if (aspect === "attempts") return costOver.length === 0;
    if (aspect === "calls") return costOver.length === 0 && callOrder(a) === callOrder(b);
    return false;
  };
  const runA = {
    ...diffedRun(run),
    id: 0,
    name: "the baseline",
    status: blessed.status,
    planDigest: blessed.plan_sha256,
    elapsedMs: null,
    mocked: false,
    value: "value" in blessed ? valueSummary(blessed.value) : null,
    error: blessed.error ?? null,
  };
  const runB = { ...diffedRun(run), name: "this run" };
  const diff = diffOutcomes(runA, blessedSteps(blessed), runB, steps, blessed.plan_sha256 === run.planDigest, accepted);
  const first = diff.firstDivergence;
  if (first) reasons.push(`${first.pointer} ${(first.b ?? first.a)?.operation ?? ""}: ${divergenceWhat(first)}`);
  if (blessed.status !== current.status) reasons.push(`the run ${current.status}, the baseline ${blessed.status}`);
  else if (exactValue && canonicalText(blessed.value ?? null) !== canonicalText(current.value ?? null))
    reasons.push("the final value changed");
  if (canonicalText(blessed.capabilities) !== canonicalText(current.capabilities))
    reasons.push(
      `capabilities ${blessed.capabilities.join(" ") || "none"} -> ${current.capabilities.join(" ") || "none"}`,
    );
  if (costOver.length > 0) reasons.push(`cost beyond the tolerance of ${options.tolerance}: ${costOver.join(", ")}`);
  return reasons.length === 0 ? undefined : { reasons, diff };
}

/** Exact unless the case judges its value by `contains` or `schema` alone (a model's words may vary). */
function valueHeldExactly(expect: Expectations): boolean {
  const value = expect.value;
  if (!value) return true;
  return value.equals !== undefined || (value.contains === undefined && value.schema === undefined);
}

/** A step's calls in order, a call repeated in a row (a retry) once: what "tool order" means. */
function callOrder(step: StepOutcome): string {
  const kinds = step.calls.map((c) => `${c.kind} ${c.name} ${c.model ?? ""}`);
  const requests = step.requests.filter((key, i) => key !== step.requests[i - 1]);
  return canonicalText([[...new Set(kinds)].sort(), requests]);
}

function divergenceWhat(step: RunDiff["steps"][number]): string {
  if (step.change === "added") return "not in the baseline";
  if (step.change === "removed") return "in the baseline, not in this run's plan";
  return step.differs.join(", ");
}

/** The blessed steps as StepOutcomes (by path key), for the one comparison. */
function blessedSteps(blessed: CaseBaseline): Map<string, StepOutcome> {
  const steps = new Map<string, StepOutcome>();
  for (const s of blessed.steps)
    steps.set(keyOfPointer(s.path), {
      status: s.status,
      operation: s.operation,
      bind: s.bind,
      line: null,
      column: null,
      attempts: s.attempts,
      failedAttempts: s.failed_attempts,
      branches: s.branches,
      error: s.error,
      value: s.value,
      calls: s.calls,
      requests: s.requests,
      durationMs: null,
      usage: null,
    });
  return steps;
}

function capabilitiesUsed(planText: string | null, steps: ReadonlyMap<string, StepOutcome>): string[] {
  const plan = planText === null ? undefined : parsePlan({ kind: "document", text: planText }).plan;
  const used = new Set<string>();
  if (!plan) return [];
  for (const { step } of planSteps(plan)) {
    const ran = steps.get(JSON.stringify(step.path));
    const capability = requiredCapability(step);
    if (ran && ran.status !== "not run" && capability) used.add(formatCapability(capability));
  }
  return [...used].sort();
}

function keyOfPointer(text: string): string {
  return JSON.stringify(
    text
      .split("/")
      .slice(1)
      .map((segment) => (/^[0-9]+$/.test(segment) ? Number(segment) : segment)),
  );
}

/** JSON with every object's keys sorted, two-space indented: a file that diffs well in review. */
export function sortedJson(value: unknown): string {
  return JSON.stringify(sortKeys(value), null, 2);
}

function sortKeys(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(sortKeys);
  if (value === null || typeof value !== "object") return value;
  const out: JsonObject = newJsonObject();
  for (const key of Object.keys(value).sort()) out[key] = sortKeys((value as JsonObject)[key]) as JsonValue;
  return out;
}
