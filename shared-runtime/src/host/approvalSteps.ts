// Which steps of a plan can need approval under a host profile's rules, and how many approvals
// the plan can ask for at worst (docs/approvals.md, "Before the run"): `check`, `estimate` and the
// editor's hover read it. A rule matches a step by the same matcher the run's gate uses; a rule
// with a `when` matches a step whose arguments are wholly literal only if they meet it, and may
// match one whose arguments are computed. The worst case counts each such step as often as the
// cost rule says it can run (a retry's attempts, every parallel branch).

import { pointer, type JsonPath } from "../json";
import type { Plan, Step } from "../plan/ast";
import { addCounts, type Count } from "../plan/count";
import { worstCaseRuns } from "../plan/estimate";
import { literalValueOf } from "../plan/toolArgumentChecks";
import { planSteps } from "../plan/walk";
import { approvalRuleFor, capabilityOf, ruleNamesCall, type ApprovalRule } from "./approvalRules";

export interface ApprovalStep {
  readonly path: JsonPath;
  /** tool(NAME) or model(PROVIDER). */
  readonly capability: string;
  /** The rule's index in `approvals`. */
  readonly rule: number;
  /** True when its arguments are computed and the rule has a `when`: it needs approval only if they meet it. */
  readonly conditional: boolean;
  /** How many times, at worst, it asks (each run of the step asks once). */
  readonly worstCase: Count;
}

export interface ApprovalForecast {
  readonly steps: readonly ApprovalStep[];
  /** Approvals the plan can ask for at worst: the steps' worst cases summed. */
  readonly worstCase: Count;
}

/** The plan's steps that can need approval under `rules`, in source order, and the worst case. */
export function approvalForecast(plan: Plan, rules: readonly ApprovalRule[] | undefined): ApprovalForecast {
  const found = new Map<Step, { rule: number; conditional: boolean }>();
  if (rules && rules.length > 0)
    for (const { step } of planSteps(plan)) {
      const held = heldBy(step, rules);
      if (held) found.set(step, held);
    }
  const runs = worstCaseRuns(plan, (step) => found.has(step));
  let worstCase: Count = 0;
  const steps = [...found].map(([step, held]): ApprovalStep => {
    const call = step as Extract<Step, { op: "tool" | "model" }>;
    const times = runs.get(step) ?? 0;
    worstCase = addCounts(worstCase, times);
    return {
      path: step.path,
      capability: capabilityOf(callOf(call)),
      rule: held.rule,
      conditional: held.conditional,
      worstCase: times,
    };
  });
  return { steps, worstCase };
}

/** "steps/1" for a step's path, as runs show prints it. */
export function approvalStepText(step: ApprovalStep): string {
  return pointer(step.path).slice(1);
}

function heldBy(step: Step, rules: readonly ApprovalRule[]): { rule: number; conditional: boolean } | undefined {
  if (step.op !== "tool" && step.op !== "model") return undefined;
  const call = callOf(step);
  const literal = literalValueOf(step.op === "tool" ? step.args : step.prompt);
  if (literal !== undefined) {
    const held = approvalRuleFor(rules, { ...call, arguments: step.op === "tool" ? literal : { prompt: literal } });
    return held ? { rule: held.index, conditional: false } : undefined;
  }
  // Computed arguments: the first rule naming the call, unconditional or not, may hold it.
  const index = rules.findIndex((rule) => ruleNamesCall(rule, call));
  return index < 0 ? undefined : { rule: index, conditional: rules[index]!.when !== undefined };
}

function callOf(step: Extract<Step, { op: "tool" | "model" }>): { kind: "tool" | "model"; name: string } {
  return step.op === "tool" ? { kind: "tool", name: step.name } : { kind: "model", name: step.provider };
}
