// The run's counters: what is left of each budget, checked and spent in one synchronous step so
// that concurrent branches can never both spend the last unit; running out fails the step.

import type { JsonValue } from "../json";
import type { Step } from "../plan/ast";
import type { Budget } from "../plan/budget";
import { fail } from "./errors";
import { jsonByteLength } from "./outputMeasure";
import type { BudgetRemaining, RuntimeCounter } from "./transitions";

export class BudgetMeter {
  private readonly left: BudgetRemaining;

  constructor(budget: Budget) {
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
