// How the CLI shows money: a plan's worst case (estimate) as a line and as JSON. The figures
// and the rule that makes them are the core's (plan/modelCost.ts, plan/planMoney.ts).

import type { PlanMoney } from "@rlm-plan/core/analysis";
import type { RunUsage } from "@rlm-plan/core/journal";
import { DEFAULT_CURRENCY, moneyText } from "@rlm-plan/core/plan";

/** The worst case is over the host's max_cost (an unknown worst case under one is over too). */
export function moneyOver(money: PlanMoney): boolean {
  if (money.maxCost === undefined) return false;
  return money.unpriced.length > 0 || money.cost > money.maxCost;
}

/** `estimate --json`'s cost: null worst case when some call has no figure, with the reasons. */
export function costJson(money: PlanMoney): Record<string, unknown> {
  return {
    currency: money.currency,
    worst_case: money.unpriced.length > 0 ? null : money.cost,
    max_cost: money.maxCost ?? null,
    unpriced: money.unpriced,
  };
}

/** The table's cost row: "cost  0.0105 USD / 0.05 USD", or why there is no figure. */
export function costRowText(money: PlanMoney): { readonly figure: string; readonly limit: string | undefined } {
  const figure =
    money.unpriced.length > 0 ? `unknown (${money.unpriced.join("; ")})` : moneyText(money.cost, money.currency);
  return { figure, limit: money.maxCost === undefined ? undefined : moneyText(money.maxCost, money.currency) };
}

/** A run's or a call's tokens, "IN+OUT in/out"; "~" marks counts that are bounds (no usage reported). */
export function tokensText(usage: {
  readonly inputTokens: number;
  readonly outputTokens: number;
  readonly estimated: boolean;
}): string {
  return `${usage.estimated ? "~" : ""}${usage.inputTokens}+${usage.outputTokens}`;
}

/** A run's money: "0.0105 USD", with its unpriced calls said ("0.01 USD + 2 unpriced", "unpriced"). */
export function runCostText(usage: RunUsage): string {
  const priced = usage.cost === null ? undefined : moneyText(usage.cost, usage.currency ?? DEFAULT_CURRENCY);
  const unpriced = usage.unpriced > 0 ? `${usage.unpriced} unpriced` : undefined;
  return [priced, unpriced].filter((part) => part !== undefined).join(" + ");
}
