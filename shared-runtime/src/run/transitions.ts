// What a run records and reports: transitions, remaining budget, and the outcome shapes.
// Transitions say which operation completed and what it bound, never what it read or said.

import type { JsonObject, JsonValue } from "../json";
import type { PlanError } from "./errors";

export interface Transition {
  readonly sequence: number;
  /** As the reference writes it: context(search), tool(count_items), model(openrouter), rlm, ... */
  readonly operation: string;
  readonly bind: string | null;
  readonly status: "ok";
  /** Milliseconds from the start of the run to the step's completion. */
  readonly elapsed_ms: number;
  /** Milliseconds the step took, its nested plans included. */
  readonly duration_ms: number;
  /** The run's budget left once the step completed: counters only, never values. */
  readonly remaining: Readonly<BudgetRemaining>;
}

export interface BudgetRemaining {
  steps: number;
  model_calls: number;
  tool_calls: number;
  context_ops: number;
  output_bytes: number;
}

export type RuntimeCounter = keyof BudgetRemaining;

interface OutcomeBase {
  readonly transitions: readonly Transition[];
  readonly checkpoints: readonly string[];
  readonly budget_remaining: Readonly<BudgetRemaining>;
}

export interface RunSucceeded extends OutcomeBase {
  readonly ok: true;
  readonly value: JsonValue;
  /** The root plan's variables when the final step ran. */
  readonly vars: JsonObject;
}

export interface RunFailed extends OutcomeBase {
  readonly ok: false;
  readonly error: PlanError;
}

export type RunOutcome = RunSucceeded | RunFailed;
