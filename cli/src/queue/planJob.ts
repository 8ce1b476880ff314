// What a queued job holds and what a worker sends back. A job names a plan (its text and the
// name to show) and what one run of it is given (inputs, mocks, parallel mode, a test case's
// expectations, the fleet ceiling it counts against), never a capability, a tool, a provider
// or a host profile: the worker's own profile decides those. `readPlanJob` checks a payload
// strictly (own keys, types, sizes, nesting), so a malformed or hostile job is refused with a
// message and never reaches the run.

import { isJsonObject, type JsonObject, type JsonValue } from "@rlm-plan/core/json";
import type { Mocks } from "@rlm-plan/core/session";
import { PARALLEL_MODES, type ParallelMode, type RunEvent, type RunOutcome, type RunStage } from "@rlm-plan/core/run";
import type { Budget } from "@rlm-plan/core/plan";
import type { RecordedRef } from "@rlm-plan/core/session";
import type { ApprovalAnswer, CaseResult, Expectations } from "@rlm-plan/core/testing";
import { MAX_JSON_DEPTH, MAX_MOCKS_BYTES, MAX_PLAN_BYTES } from "@rlm-plan/core/text";

// 2: a job's result carries no events (the worker's journal entry is its record) and a plan the
// worker refuses at its check comes back as `{kind: "refused"}`; a worker and a submitter of
// different formats refuse each other's jobs, saying which side to upgrade.
export const JOB_VERSION = 2;

/** The counters a fleet ceiling may limit; cost is money, in the workers' host profiles' currency. */
export const CEILING_COUNTERS = ["model_calls", "tool_calls", "cost"] as const;
export type CeilingCounter = (typeof CEILING_COUNTERS)[number];

export interface FleetCeiling {
  /** The submitter's id of the test run (a UUID): the Redis counter's key is made from it by the worker. */
  readonly id: string;
  readonly limits: Partial<Record<CeilingCounter, number>>;
}

export interface PlanJob {
  readonly v: typeof JOB_VERSION;
  readonly kind: "run" | "case";
  readonly plan: { readonly name: string; readonly text: string };
  readonly inputs?: JsonObject;
  readonly mocks?: JsonObject;
  readonly parallel?: ParallelMode;
  /** A test case's expectations (kind "case"). */
  readonly expect?: Expectations;
  /** A test case's votes (kind "case"): the worker casts them when the run waits, and resumes it there. */
  readonly approvals?: readonly ApprovalAnswer[];
  readonly ceiling?: FleetCeiling;
}

/** A run as the worker reports it: what `rlm-plan run` prints from. */
export interface RemoteRunReport {
  readonly outcome: RunOutcome;
  readonly stage: RunStage;
  readonly mocked: boolean;
  readonly budget?: Budget;
  readonly location?: { readonly line: number; readonly column: number };
}

interface JobResultBase {
  readonly v: typeof JOB_VERSION;
  /** The worker that ran the job (--name, or HOST:PID). */
  readonly worker: string;
  /** Which start of the job this was: 2 and up after a worker died or handed it back. */
  readonly attempt: number;
  /** The worker's journal entry this attempt continued, when it resumed one. */
  readonly resumed?: number;
  /** The worker's journal entry of the run (the run's one record), when it records. */
  readonly recorded?: JobRecord;
}

/** Where a worker recorded a job's run: its journal's folder (on the worker's machine) and run number. */
export type JobRecord = Pick<RecordedRef, "dir" | "id">;

export interface RunJobResult extends JobResultBase {
  readonly kind: "run";
  readonly report: RemoteRunReport;
}

/** A run job whose plan failed its check on the worker: its report, a value (the job is not retried). */
export interface RefusedJobResult extends JobResultBase {
  readonly kind: "refused";
  readonly report: RemoteRunReport;
}

export interface CaseJobResult extends JobResultBase {
  readonly kind: "case";
  readonly verdict: Pick<CaseResult, "ok" | "failures" | "stage" | "spent" | "value" | "error" | "answered">;
  readonly duration_ms: number;
}

export type PlanJobResult = RunJobResult | RefusedJobResult | CaseJobResult;

/** A progress message: one event of a run job's attempt, as it happens. */
export interface JobProgress {
  readonly attempt: number;
  readonly worker: string;
  readonly event: RunEvent;
}

const MAX_INPUT_BYTES = 16 * 1024 * 1024;
const MAX_NAME = 1000;
const CEILING_ID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
const JOB_KEYS = new Set(["v", "kind", "plan", "inputs", "mocks", "parallel", "expect", "approvals", "ceiling"]);
const EXPECT_KEYS = new Set(["value", "error", "steps", "costs"]);
/** More votes than any quorum needs is a malformed job, not a case. */
const MAX_VOTES = 100;
const MAX_REASON = 10_000;

/** The job, or why it is refused (said to the submitter and in the worker's output). */
export function readPlanJob(data: unknown): { ok: true; job: PlanJob } | { ok: false; message: string } {
  const fail = (message: string) => ({ ok: false as const, message });
  if (!isJsonObject(data as JsonValue)) return fail("the job's data is not a JSON object");
  const job = data as JsonObject;
  const deep = tooDeep(job);
  if (deep) return fail(`the job's data nests deeper than ${MAX_JSON_DEPTH} levels`);
  for (const key of Object.keys(job))
    if (!JOB_KEYS.has(key))
      return fail(
        `unknown field "${shortText(key)}": a job names a plan and what it is given (${[...JOB_KEYS].join(", ")}); capabilities, tools and providers come from the worker's host profile`,
      );
  if (job["v"] !== JOB_VERSION)
    return fail(`"v" must be ${JOB_VERSION} (this worker reads jobs of format ${JOB_VERSION}); upgrade the older side`);
  const kind = job["kind"];
  if (kind !== "run" && kind !== "case") return fail(`"kind" must be "run" or "case"`);
  const plan = job["plan"];
  if (!isJsonObject(plan as JsonValue) || Object.keys(plan as object).some((k) => k !== "name" && k !== "text"))
    return fail(`"plan" must be {"name": TEXT, "text": TEXT}`);
  const { name, text } = plan as JsonObject;
  if (typeof name !== "string" || name === "" || name.length > MAX_NAME)
    return fail(`"plan.name" must be a text of 1 to ${MAX_NAME} characters`);
  if (typeof text !== "string") return fail(`"plan.text" must be the plan's text`);
  if (Buffer.byteLength(text) > MAX_PLAN_BYTES)
    return fail(`"plan.text" is over the plan limit of ${MAX_PLAN_BYTES} bytes`);
  const inputs = job["inputs"];
  if (inputs !== undefined) {
    if (!isJsonObject(inputs as JsonValue)) return fail(`"inputs" must be an object of input name -> value`);
    if (JSON.stringify(inputs).length > MAX_INPUT_BYTES) return fail(`"inputs" is over ${MAX_INPUT_BYTES} bytes`);
  }
  const mocks = job["mocks"];
  if (mocks !== undefined) {
    if (!isJsonObject(mocks as JsonValue))
      return fail(`"mocks" must be a mocks object ({"tools": ..., "providers": ...})`);
    if (JSON.stringify(mocks).length > MAX_MOCKS_BYTES) return fail(`"mocks" is over ${MAX_MOCKS_BYTES} bytes`);
  }
  const parallel = job["parallel"];
  if (parallel !== undefined && !PARALLEL_MODES.some((m) => m === parallel))
    return fail(`"parallel" must be ${PARALLEL_MODES.join(" or ")}`);
  const expect = job["expect"];
  if (expect !== undefined) {
    if (kind !== "case") return fail(`"expect" belongs to a test case (kind "case")`);
    if (!isJsonObject(expect as JsonValue)) return fail(`"expect" must be an object`);
    for (const [key, value] of Object.entries(expect as JsonObject)) {
      if (key === "approvals") {
        const problem = countsProblem(value);
        if (problem) return fail(problem);
        continue;
      }
      if (!EXPECT_KEYS.has(key) || !isJsonObject(value))
        return fail(
          `"expect" holds ${[...EXPECT_KEYS].join(", ")}, each an object, and approvals (not "${shortText(key)}")`,
        );
    }
  }
  const approvals = job["approvals"];
  if (approvals !== undefined) {
    if (kind !== "case") return fail(`"approvals" belongs to a test case (kind "case")`);
    const problem = votesProblem(approvals);
    if (problem) return fail(problem);
  }
  const ceiling = job["ceiling"];
  if (ceiling !== undefined) {
    const problem = ceilingProblem(ceiling);
    if (problem) return fail(problem);
  }
  return { ok: true, job: job as unknown as PlanJob };
}

/** Why a case's votes are malformed, or undefined: each {step?, vote, as, reason, at: {line, column}}. */
function votesProblem(value: JsonValue | undefined): string | undefined {
  const form = `"approvals" must be at most ${MAX_VOTES} answers {"step"?: POINTER, "vote": "approve" | "deny", "as": NAME, "reason": TEXT, "at": {"line": N, "column": N}} or {"step"?: POINTER, "vote": "timeout", "at": ...}`;
  if (!Array.isArray(value) || value.length > MAX_VOTES) return form;
  const text = (v: unknown, max: number) => typeof v === "string" && v !== "" && v.length <= max;
  const place = (v: unknown) => Number.isSafeInteger(v) && (v as number) > 0;
  for (const vote of value) {
    if (!isJsonObject(vote)) return form;
    const { step, vote: decision, as, reason, at, ...rest } = vote;
    const voted = decision === "approve" || decision === "deny";
    if (
      Object.keys(rest).length > 0 ||
      (step !== undefined && !text(step, MAX_NAME)) ||
      (!voted && decision !== "timeout") ||
      (voted ? !text(as, MAX_NAME) || !text(reason, MAX_REASON) : as !== undefined || reason !== undefined) ||
      !isJsonObject(at as JsonValue) ||
      !place((at as JsonObject)["line"]) ||
      !place((at as JsonObject)["column"])
    )
      return form;
  }
  return undefined;
}

/** Why `expect.approvals` is malformed, or undefined: each {step, requests}. */
function countsProblem(value: JsonValue | undefined): string | undefined {
  const form = `"expect.approvals" must be [{"step": POINTER, "requests": N}, ...]`;
  if (!Array.isArray(value)) return form;
  for (const count of value) {
    if (!isJsonObject(count)) return form;
    const { step, requests, ...rest } = count;
    if (
      Object.keys(rest).length > 0 ||
      typeof step !== "string" ||
      !Number.isSafeInteger(requests) ||
      (requests as number) < 0
    )
      return form;
  }
  return undefined;
}

function ceilingProblem(value: JsonValue | undefined): string | undefined {
  const form = `"ceiling" must be {"id": UUID, "limits": {"model_calls"?: N, "tool_calls"?: N, "cost"?: AMOUNT}}`;
  if (!isJsonObject(value as JsonValue)) return form;
  const { id, limits, ...rest } = value as JsonObject;
  if (
    Object.keys(rest).length > 0 ||
    typeof id !== "string" ||
    !CEILING_ID.test(id) ||
    !isJsonObject(limits as JsonValue)
  )
    return form;
  for (const [key, limit] of Object.entries(limits as JsonObject))
    if (
      !CEILING_COUNTERS.some((c) => c === key) ||
      typeof limit !== "number" ||
      !(key === "cost" ? Number.isFinite(limit) : Number.isSafeInteger(limit)) ||
      limit < 0
    )
      return form;
  return undefined;
}

/** Whether a parsed value nests deeper than MAX_JSON_DEPTH (an explicit stack: no recursion to overflow). */
function tooDeep(value: JsonValue): boolean {
  const stack: [JsonValue, number][] = [[value, 1]];
  while (stack.length > 0) {
    const [item, depth] = stack.pop() as [JsonValue, number];
    if (depth > MAX_JSON_DEPTH) return true;
    if (item !== null && typeof item === "object")
      for (const child of Array.isArray(item) ? item : Object.values(item)) stack.push([child, depth + 1]);
  }
  return false;
}

function shortText(text: string): string {
  return text.length > 40 ? `${text.slice(0, 40)}...` : text;
}

/** Mocks as the mocks file's JSON form, for a job (the worker checks it against the mocks schema again). */
export function mocksJson(mocks: Mocks): JsonObject {
  const table = (map: Mocks["tools"]): JsonObject =>
    Object.fromEntries([...map].map(([name, answers]) => [name, answers as unknown as JsonValue]));
  return { tools: table(mocks.tools), providers: table(mocks.providers) };
}
