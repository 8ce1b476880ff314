// The run's counters: what is left of each budget, checked and spent in one synchronous step so
// that concurrent branches can never both spend the last unit; running out fails the step.
// Money (max_cost) is held the same way: a model call reserves its worst case before it is made
// and settles at what it cost, so concurrent calls in flight can never together go over.

import type { JsonValue } from "../json";
import type { Step } from "../plan/ast";
import type { Budget } from "../plan/budget";
import { amountText, roundMoney } from "../plan/modelCost";
import { fail } from "./errors";
import { jsonByteLength } from "./outputMeasure";
import type { BudgetRemaining, RuntimeCounter } from "./transitions";

export class BudgetMeter {
  private readonly left: BudgetRemaining;
  /** Money spent by calls that settled, and held by calls in flight. */
  private spent = 0;
  private held = 0;

  constructor(
    budget: Budget,
    private readonly maxCost?: number,
  ) {
    this.left = {
      steps: budget.max_steps,
      model_calls: budget.max_model_calls,
      tool_calls: budget.max_tool_calls,
      context_ops: budget.max_context_ops,
      output_bytes: budget.max_output_bytes,
    };
  }

  /** A copy of what is left (transitions and events keep their own). */
  remaining(): BudgetRemaining {
    return { ...this.left };
  }

  /** One step, and the call or operation it makes. */
  spendStep(step: Step): void {
    this.consume("steps");
    const counter = stepCounter(step);
    if (counter) this.consume(counter);
  }

  /** The bytes of a value bound or returned. */
  chargeOutput(value: JsonValue): void {
    this.chargeOutputBytes(jsonByteLength(value) ?? 0);
  }

  /** `requested` bytes of output (a value measured without being built: a context result over the cap). */
  chargeOutputBytes(requested: number): void {
    const remaining = this.left.output_bytes;
    if (requested > remaining) {
      fail({
        phase: "execute",
        kind: "budget_exhausted",
        budget: "output_bytes",
        requested,
        remaining,
        message: `a value of ${requested} bytes does not fit the ${remaining} output bytes left`,
      });
    }
    this.left.output_bytes = remaining - requested;
  }

  /** What the run's model calls cost so far (calls without a price count nothing). */
  costSpent(): number {
    return roundMoney(this.spent);
  }

  /**
   * Holds a model call's worst case (`worst`; undefined, with `why`, when it has none) against
   * max_cost before the call is made; fails the step when it would go over. Returns what it holds.
   */
  holdCost(worst: number | undefined, why: string | undefined): number {
    const limit = this.maxCost;
    if (limit === undefined) return 0;
    const left = roundMoney(limit - this.spent - this.held);
    if (worst === undefined) {
      fail({
        phase: "execute",
        kind: "budget_exhausted",
        budget: "cost",
        remaining: left,
        message: `max_cost is set but this call has no worst case: ${why ?? "it has no price"}`,
      });
    }
    if (worst > left) {
      fail({
        phase: "execute",
        kind: "budget_exhausted",
        budget: "cost",
        requested: worst,
        remaining: left,
        message: `this call may cost up to ${amountText(worst)}, more than the ${amountText(left)} left of max_cost`,
      });
    }
    this.held += worst;
    return worst;
  }

  /** A call ended: it no longer holds `held`, and spent `cost` (null: unpriced, 0 when it failed). */
  settleCost(held: number, cost: number | null): void {
    this.held = Math.max(0, this.held - held);
    this.spent += cost ?? 0;
  }

  private consume(counter: RuntimeCounter): void {
    if (this.left[counter] > 0) {
      this.left[counter]--;
      return;
    }
    fail({
      phase: "execute",
      kind: "budget_exhausted",
      budget: counter,
      message: `the run used up its ${counter.replace("_", " ")} budget`,
    });
  }
}

function stepCounter(step: Step): RuntimeCounter | undefined {
  switch (step.op) {
    case "context":
      return "context_ops";
    case "model":
      return "model_calls";
    case "tool":
      return "tool_calls";
    default:
      return undefined;
  }
}
