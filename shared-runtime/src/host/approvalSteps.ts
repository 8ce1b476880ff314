// Which steps of a plan can need approval under a host profile's rules, and how many approvals
// the plan can ask for at worst (docs/approvals.md, "Before the run"): `check`, `estimate` and the
// editor's hover read it. A rule matches a step by the same matcher the run's gate uses; a rule
// with a `when` matches a step whose arguments are wholly literal only if they meet it, and may
// match one whose arguments are computed. The worst case counts each such step as often as the
// cost rule says it can run (a retry's attempts, every parallel branch). A rule with `cost_above`
// matches a model step whose worst case (the figure `estimate` prints, plan/planMoney.ts) can be
// above it: exactly when its prompt is literal, conditionally when the prompt is computed.

import { pointer, type JsonPath } from "../json";
import type { ModelStep, Plan, Step } from "../plan/ast";
import type { Budget } from "../plan/budget";
import { addCounts, type Count } from "../plan/count";
import { worstCaseRuns } from "../plan/estimate";
import { amountText, outputTokenBound, worstCallCost, type CostPolicy } from "../plan/modelCost";
import { staticInputBound } from "../plan/planMoney";
import { literalValueOf } from "../plan/toolArgumentChecks";
import { planSteps } from "../plan/walk";
import {
  approvalRuleFor,
  capabilityOf,
  costCanExceed,
  ruleNamesCall,
  ruleTerms,
  type ApprovalRule,
} from "./approvalRules";

export interface ApprovalStep {
  readonly path: JsonPath;
  /** tool(NAME) or model(PROVIDER). */
  readonly capability: string;
  /** The rule's index in `approvals`. */
  readonly rule: number;
  /** Who may approve, and how many of them must (the rule's terms, quorum defaulted). */
  readonly approvers: readonly string[];
  readonly quorum: number;
  /** True when it needs approval only if `condition` holds at run time. */
  readonly conditional: boolean;
  /** What decides it at run time, as the CLI and hover say it: "its arguments meet the rule's condition", "its worst case is above 0.5 USD". */
  readonly condition?: string;
  /** How many times, at worst, it asks (each run of the step asks once). */
  readonly worstCase: Count;
}

export interface ApprovalForecast {
  readonly steps: readonly ApprovalStep[];
  /** Approvals the plan can ask for at worst: the steps' worst cases summed. */
  readonly worstCase: Count;
}

/** The profile's prices and the plan's budget: what a model step's worst case is computed from. */
export interface ForecastMoney {
  readonly costs: CostPolicy;
  readonly budget: Budget;
}

/**
 * The plan's steps that can need approval under `rules`, in source order, and the worst case.
 * Without `money`, a model step's cost is unknown, so every `cost_above` rule naming it can hold it.
 */
export function approvalForecast(
  plan: Plan,
  rules: readonly ApprovalRule[] | undefined,
  money?: ForecastMoney,
): ApprovalForecast {
  const found = new Map<Step, Held>();
  if (rules && rules.length > 0)
    for (const { step } of planSteps(plan)) {
      const held = heldBy(step, rules, money);
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
      approvers: held.terms.approvers,
      quorum: ruleTerms(held.terms).quorum,
      conditional: held.condition !== undefined,
      ...(held.condition !== undefined ? { condition: held.condition } : {}),
      worstCase: times,
    };
  });
  return { steps, worstCase };
}

/** "steps/1" for a step's path, as runs show prints it. */
export function approvalStepText(step: ApprovalStep): string {
  return pointer(step.path).slice(1);
}

interface Held {
  readonly rule: number;
  readonly terms: ApprovalRule;
  readonly condition: string | undefined;
}

function heldBy(step: Step, rules: readonly ApprovalRule[], money: ForecastMoney | undefined): Held | undefined {
  if (step.op !== "tool" && step.op !== "model") return undefined;
  const call = callOf(step);
  // A tool call costs no money; a model step's static worst case is the run's bound when its prompt is literal.
  const cost = step.op === "tool" ? 0 : staticWorstCost(step, money);
  // The run knows a call's cost when its provider has a price; with none it holds it always, so
  // only a priced call's cost (or one not known here, without `money`) is a condition.
  const costDecides = (rule: ApprovalRule) =>
    rule.cost_above !== undefined && (money === undefined || cost !== undefined);
  const literal = literalValueOf(step.op === "tool" ? step.args : step.prompt);
  if (literal !== undefined) {
    const arguments_ = step.op === "tool" ? literal : { prompt: literal };
    const held = approvalRuleFor(rules, { ...call, arguments: arguments_, cost });
    if (!held) return undefined;
    // A literal prompt's worst case is the run's: decided here, unless the prices are not known here.
    return {
      rule: held.index,
      terms: held.rule,
      condition: money === undefined && costDecides(held.rule) ? costCondition(held.rule, money) : undefined,
    };
  }
  // Computed arguments: the first rule naming the call whose cost bound it can exceed may hold it.
  const index = rules.findIndex((rule) => ruleNamesCall(rule, call) && costCanExceed(rule, cost));
  if (index < 0) return undefined;
  const rule = rules[index]!;
  const conditions = [
    ...(rule.when !== undefined ? ["its arguments meet the rule's condition"] : []),
    ...(costDecides(rule) ? [costCondition(rule, money)] : []),
  ];
  return { rule: index, terms: rule, condition: conditions.length > 0 ? conditions.join(" and ") : undefined };
}

function costCondition(rule: ApprovalRule, money: ForecastMoney | undefined): string {
  const currency = money ? ` ${money.costs.currency}` : "";
  return `its worst case is above ${amountText(rule.cost_above ?? 0)}${currency}`;
}

function staticWorstCost(step: ModelStep, money: ForecastMoney | undefined): number | undefined {
  if (!money) return undefined;
  const costing = money.costs.providers.get(step.provider);
  return worstCallCost(costing, staticInputBound(step, money.budget), outputTokenBound(step.options, costing));
}

function callOf(step: Extract<Step, { op: "tool" | "model" }>): { kind: "tool" | "model"; name: string } {
  return step.op === "tool" ? { kind: "tool", name: step.name } : { kind: "model", name: step.provider };
}
