// The assertion engine of `rlm-plan test`: a case's expectations against what its run did (the
// outcome, the steps that started and completed, the budget spent against the plan's worst
// case). Every failure is a value with one message, and the expected and actual values where
// there are two to compare (JUnit, the Testing view).

import { isJsonObject, type JsonValue } from "../json";
import type { Budget } from "../plan/budget";
import { countNumber } from "../plan/count";
import type { Estimate } from "../plan/estimate";
import type { BudgetRemaining, RunOutcome } from "../run/transitions";
import { canonicalText } from "./requestDiff";
import { schemaValidator } from "./valueSchemas";
import type { Expectations } from "./testFile";
import type { RunDiff } from "../journal/runDiff";

export interface AssertionFailure {
  /**
   * Which expectation: ok (none given, the run failed), value, error, steps, costs, approvals (also
   * a case's vote refused, or a held call it gives no vote for), or the baseline (--baseline).
   */
  readonly assertion: "ok" | "value" | "error" | "steps" | "costs" | "approvals" | "baseline";
  readonly message: string;
  readonly expected?: JsonValue;
  readonly actual?: JsonValue;
  /** Where in the case's test file the failure is, when not the case itself (a refused vote: its entry of `approvals`). */
  readonly at?: { readonly line: number; readonly column: number };
  /** A baseline failure's comparison, the blessed run (a) against this one (b), as `runs diff` makes it. */
  readonly diff?: RunDiff;
}

/** What a run did, as the assertions see it. */
export interface ObservedRun {
  readonly outcome: RunOutcome;
  /** The budget in force (undefined when the budget itself was invalid). */
  readonly budget?: Budget;
  /** Steps in the order they completed, as JSON Pointers. */
  readonly completed: readonly string[];
  /** Steps that started at least once. */
  readonly started: ReadonlySet<string>;
  /** The plan's worst case. */
  readonly estimate?: Estimate;
  /** Requests for approval per step (JSON Pointer); undefined when the run was not recorded. */
  readonly approvals?: ReadonlyMap<string, number>;
}

/** What a run spent, from the budget in force and what was left of it. */
export interface Spent {
  readonly steps: number;
  readonly model_calls: number;
  readonly tool_calls: number;
  readonly context_ops: number;
  readonly output_bytes: number;
}

export function spentOf(budget: Budget | undefined, left: Readonly<BudgetRemaining>): Spent {
  if (!budget) return { steps: 0, model_calls: 0, tool_calls: 0, context_ops: 0, output_bytes: 0 };
  return {
    steps: budget.max_steps - left.steps,
    model_calls: budget.max_model_calls - left.model_calls,
    tool_calls: budget.max_tool_calls - left.tool_calls,
    context_ops: budget.max_context_ops - left.context_ops,
    output_bytes: budget.max_output_bytes - left.output_bytes,
  };
}

export function checkExpectations(expect: Expectations, run: ObservedRun): AssertionFailure[] {
  const failures: AssertionFailure[] = [];
  const { outcome } = run;
  const failedText = outcome.ok
    ? ""
    : `the run failed: ${outcome.error.message} [${outcome.error.phase}/${outcome.error.kind}]`;

  if (expect.error === undefined && !outcome.ok)
    failures.push({
      assertion: expect.value ? "value" : "ok",
      message: expect.value ? `value: ${failedText}` : failedText,
    });

  if (expect.value && outcome.ok) {
    const value = outcome.value;
    const { equals, contains, schema } = expect.value;
    if (equals !== undefined && canonicalText(value) !== canonicalText(equals))
      failures.push({
        assertion: "value",
        message: `value: expected ${shown(equals)}, got ${shown(value)}`,
        expected: equals,
        actual: value,
      });
    if (contains !== undefined && !valueContains(value, contains))
      failures.push({
        assertion: "value",
        message: `value: expected a value containing ${shown(contains)}, got ${shown(value)}`,
        expected: contains,
        actual: value,
      });
    if (schema !== undefined) {
      const validate = schemaValidator(schema);
      if (!validate(value)) {
        const first = validate.errors?.[0];
        const where = first ? `${first.instancePath === "" ? "/" : first.instancePath} ${first.message ?? ""}` : "";
        failures.push({
          assertion: "value",
          message: `value: expected a value the schema ${shown(schema)} accepts, got ${shown(value)}: ${where.trim()}`,
          expected: schema,
          actual: value,
        });
      }
    }
  }

  if (expect.error) {
    const want = expect.error;
    if (outcome.ok)
      failures.push({
        assertion: "error",
        message: `error: expected the run to fail, it succeeded with ${shown(outcome.value)}`,
        expected: want as unknown as JsonValue,
        actual: outcome.value,
      });
    else {
      const error = outcome.error;
      const field = (name: string, wanted: string | undefined, got: string | undefined) => {
        if (wanted !== undefined && wanted !== got)
          failures.push({
            assertion: "error",
            message: `error: expected ${name} ${JSON.stringify(wanted)}, got ${got === undefined ? "none" : JSON.stringify(got)}`,
            expected: wanted,
            actual: got ?? null,
          });
      };
      field("kind", want.kind, error.kind);
      field("phase", want.phase, error.phase);
      const step = Array.isArray(error.path) ? pointerOf(error.path as readonly (string | number)[]) : undefined;
      if (want.step !== undefined && want.step !== step)
        failures.push({
          assertion: "error",
          message: `error: expected the failing step ${want.step}, got ${step ?? "no step"}`,
          expected: want.step,
          actual: step ?? null,
        });
      if (want.message !== undefined && !error.message.includes(want.message))
        failures.push({
          assertion: "error",
          message: `error: expected a message containing ${JSON.stringify(want.message)}, got ${JSON.stringify(error.message)}`,
          expected: want.message,
          actual: error.message,
        });
    }
  }

  const steps = expect.steps;
  if (steps) {
    const operations = outcome.transitions.map((t) => t.operation);
    if (steps.transitions && !sameList(steps.transitions, operations))
      failures.push({
        assertion: "steps",
        message: `steps: expected the transitions ${JSON.stringify(steps.transitions)}, got ${JSON.stringify(operations)}`,
        expected: [...steps.transitions],
        actual: operations,
      });
    if (steps.paths && !sameList(steps.paths, run.completed))
      failures.push({
        assertion: "steps",
        message: `steps: expected the steps to complete in the order ${JSON.stringify(steps.paths)}, got ${JSON.stringify(run.completed)}`,
        expected: [...steps.paths],
        actual: [...run.completed],
      });
    for (const step of steps.ran ?? [])
      if (!run.started.has(step)) failures.push({ assertion: "steps", message: `steps: step ${step} never ran` });
    for (const step of steps.neverRan ?? [])
      if (run.started.has(step))
        failures.push({ assertion: "steps", message: `steps: step ${step} ran (expected it never to run)` });
  }

  for (const want of expect.approvals ?? []) {
    if (!run.approvals) {
      failures.push({
        assertion: "approvals",
        message: `approvals: the run was not recorded in the run journal, where its requests for approval are kept`,
      });
      break;
    }
    const got = run.approvals.get(want.step) ?? 0;
    if (got !== want.requests)
      failures.push({
        assertion: "approvals",
        message: `approvals: expected ${plural(want.requests, "request")} for approval at ${want.step}, got ${got}`,
        expected: want.requests,
        actual: got,
      });
  }

  const costs = expect.costs;
  if (costs) {
    const spent = spentOf(run.budget, outcome.budget_remaining);
    const atMost = (limit: number | undefined, used: number, noun: string) => {
      if (limit !== undefined && used > limit)
        failures.push({
          assertion: "costs",
          message: `costs: ${plural(used, noun)} spent, at most ${limit} allowed`,
          expected: limit,
          actual: used,
        });
    };
    atMost(costs.maxModelCalls, spent.model_calls, "model call");
    atMost(costs.maxToolCalls, spent.tool_calls, "tool call");
    atMost(costs.maxSteps, spent.steps, "step");
    atMost(costs.maxOutputBytes, spent.output_bytes, "output byte");
    if (costs.withinEstimate === true && run.estimate) {
      const pairs: [number, number, string][] = [
        [spent.steps, countNumber(run.estimate.steps), "step"],
        [spent.model_calls, countNumber(run.estimate.model_calls), "model call"],
        [spent.tool_calls, countNumber(run.estimate.tool_calls), "tool call"],
        [spent.context_ops, countNumber(run.estimate.context_ops), "context op"],
      ];
      for (const [used, worst, noun] of pairs)
        if (used > worst)
          failures.push({
            assertion: "costs",
            message: `costs: ${plural(used, noun)} spent, over the plan's worst case of ${worst}`,
            expected: worst,
            actual: used,
          });
    }
  }
  return failures;
}

/**
 * Whether `value` contains `pattern`: an object's listed keys recursively, arrays item by item
 * (same length), a string pattern as a substring of a string value, anything else equal.
 */
export function valueContains(value: JsonValue, pattern: JsonValue): boolean {
  if (typeof pattern === "string") return typeof value === "string" && value.includes(pattern);
  if (Array.isArray(pattern))
    return (
      Array.isArray(value) &&
      value.length === pattern.length &&
      pattern.every((item, i) => valueContains(value[i] as JsonValue, item))
    );
  if (isJsonObject(pattern))
    return (
      isJsonObject(value) &&
      Object.keys(pattern).every(
        (key) =>
          Object.prototype.hasOwnProperty.call(value, key) &&
          valueContains(value[key] as JsonValue, pattern[key] as JsonValue),
      )
    );
  return canonicalText(value) === canonicalText(pattern);
}

export function pointerOf(path: readonly (string | number)[]): string {
  return path.map((part) => `/${String(part).replace(/~/g, "~0").replace(/\//g, "~1")}`).join("");
}

function sameList(a: readonly string[], b: readonly string[]): boolean {
  return a.length === b.length && a.every((item, i) => item === b[i]);
}

function plural(n: number, noun: string): string {
  return `${n} ${noun}${n === 1 ? "" : "s"}`;
}

function shown(value: JsonValue): string {
  const text = JSON.stringify(value);
  return text.length <= 200 ? text : `${text.slice(0, 199)}…`;
}
