// Runs one conformance case through the runtime and answers in the vectors' result format:
// parse, validate and (when asked) execute, each as the reference would report it.

import { ContextStore, type ContextHandle, type ContextLimitOptions } from "@rlm-plan/core/context/store";
import { isJsonObject, newJsonObject, ownValue, setOwn, type JsonObject, type JsonValue } from "@rlm-plan/core/json";
import { isPlainObject } from "@rlm-plan/core/plan/normalize";
import { parsePlan, type PlanSource } from "@rlm-plan/core/plan/parse";
import { validatePlan } from "@rlm-plan/core/plan/validate";
import { problemError } from "@rlm-plan/core/run/pipeline";
import { startRun } from "@rlm-plan/core/run/startRun";
import type { ContextRunner, RunHost } from "@rlm-plan/core/run/host";
import type { PlanError } from "@rlm-plan/core/run/errors";
import type { Budget } from "@rlm-plan/core/plan/budget";
import type { PlanProblem } from "@rlm-plan/core/plan/problems";
import { testTools } from "./testTools";

export interface ConformanceCase {
  readonly id: string;
  readonly plan: unknown;
  readonly capabilities: unknown;
  readonly budget: unknown;
  readonly inputs?: unknown;
  readonly tools?: readonly string[];
  readonly context_options?: unknown;
  readonly execute?: boolean;
  readonly runtime_budget?: Partial<Budget>;
}

/** A JSON object whose counts may be bigints (print it with exactJsonText). */
export type ResultObject = { readonly [key: string]: unknown };

export interface CaseResult {
  readonly id: string;
  readonly parse: JsonObject;
  readonly validate: ResultObject | null;
  readonly execute: ResultObject | null;
}

/** The reference's harness pinned every context's creation time to this instant. */
const PINNED_CREATED_AT = 1700000000.0;

export async function runCase(c: ConformanceCase): Promise<CaseResult> {
  const source: PlanSource = { kind: "value", value: c.plan };
  const parsed = parsePlan(source);
  const parse: JsonObject = parsed.plan ? { ok: true } : errorJson(problemError(parsed.problems[0]));
  let validate: ResultObject | null = null;
  let validated = false;
  if (parsed.plan) {
    const result = validatePlan(parsed.plan, { capabilities: c.capabilities, budget: c.budget });
    if (result.ok) {
      validated = true;
      validate = {
        ok: true,
        estimate: { ...result.validated.estimate },
        budget: { ...result.validated.budget },
      };
    } else {
      validate = staticErrorJson(result.problems[0]);
    }
  }
  if (c.execute !== true) return { id: c.id, parse, validate, execute: null };

  const effects = new HostEffects();
  if (!validated) {
    const failure = parsed.plan ? validate : parse;
    return { id: c.id, parse, validate, execute: { ...failure, host_effects: effects.json() } };
  }
  const host = caseHost(c, effects);
  // The run's own path, in the reference's order of branches.
  const { outcome } = await startRun({
    source,
    policy: { capabilities: c.capabilities, budget: c.budget },
    host,
    parallel: "sequential",
    ...(c.runtime_budget ? { budget: c.runtime_budget } : {}),
  }).done;
  const common = {
    transitions: outcome.transitions.map((t) => ({
      sequence: t.sequence,
      operation: t.operation,
      bind: t.bind,
      status: t.status,
    })),
    checkpoints: [...outcome.checkpoints],
    budget_remaining: { ...outcome.budget_remaining },
    host_effects: effects.json(),
  };
  const execute: ResultObject = outcome.ok
    ? { ok: true, value: toJson(outcome.value), vars: toJson(outcome.vars) as JsonObject, ...common }
    : { ...errorJson(outcome.error), ...common };
  return { id: c.id, parse, validate, execute };
}

class HostEffects {
  readonly toolCalls = new Map<string, number>();
  readonly contextOps = new Map<string, number>();
  json(): JsonObject {
    return {
      tool_calls: Object.fromEntries(this.toolCalls),
      context_ops: Object.fromEntries(this.contextOps),
    };
  }
}

function caseHost(c: ConformanceCase, effects: HostEffects): RunHost {
  const store = new ContextStore({ now: () => PINNED_CREATED_AT });
  const handleNames = new Map<ContextHandle, string>();
  let inputs: unknown = "inputs" in c ? c.inputs : {};
  if (isPlainObject(inputs)) {
    const resolved = newJsonObject();
    for (const [name, value] of Object.entries(inputs)) {
      const text = exactlyOneKey(value, "text");
      const terms = exactlyOneKey(value, "terms");
      let input: unknown = value;
      if (typeof text === "string") input = store.registerText(text);
      else if (Array.isArray(terms)) input = store.registerItems(terms as JsonValue[]);
      if (input !== value) handleNames.set(input as ContextHandle, name);
      setOwn(resolved, name, input as JsonValue);
    }
    inputs = resolved;
  }
  const contexts: ContextRunner = {
    async run(handle, action, limits) {
      const outcome = await store.run(handle, action, limits);
      const name = handleNames.get(handle as ContextHandle);
      if (outcome.ok && name !== undefined) effects.contextOps.set(name, (effects.contextOps.get(name) ?? 0) + 1);
      return outcome;
    },
  };
  const allTools = testTools(effects.toolCalls);
  const tools = new Map([...allTools].filter(([name]) => (c.tools ?? []).includes(name)));
  return { tools, providers: new Map(), inputs, contexts, contextLimits: contextOptions(c) };
}

/**
 * The case's context options as the host's: a JSON object's fields; a list (a Prolog option
 * list, whose elements the reference ignores) as no options; any other value as it is, for
 * preflight to refuse. A case without options has the defaults.
 */
function contextOptions(c: ConformanceCase): ContextLimitOptions | unknown {
  if (!("context_options" in c)) return undefined;
  const options = c.context_options;
  if (Array.isArray(options)) return {};
  if (!isJsonObject(options)) return options;
  return {
    maxResults: ownValue(options, "max_results"),
    maxBytes: ownValue(options, "max_bytes"),
    timeLimit: ownValue(options, "time_limit"),
  };
}

function exactlyOneKey(value: unknown, key: string): unknown {
  if (!isPlainObject(value)) return undefined;
  const keys = Object.keys(value);
  return keys.length === 1 && keys[0] === key ? value[key] : undefined;
}

/** A validation problem as the reference reports it, with its estimate exact (the run's error rounds it). */
function staticErrorJson(problem: PlanProblem | undefined): ResultObject {
  const json = errorJson(problemError(problem));
  return problem?.estimated === undefined ? json : { ...json, estimated: problem.estimated };
}

function errorJson(error: PlanError): JsonObject {
  const out: JsonObject = { ok: false };
  for (const [key, value] of Object.entries(error)) {
    if (value !== undefined && key !== "path") out[key] = value;
  }
  return out;
}

function toJson(value: unknown): JsonValue {
  return JSON.parse(JSON.stringify(value ?? null)) as JsonValue;
}
