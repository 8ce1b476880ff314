// The closed plan AST. A plan that normalizes is one of these shapes and nothing else;
// plans, steps and references keep the JSON path they came from, so problems and editors can
// point at source text.

import type { JsonObject, JsonPath, JsonValue } from "../json";

export type Expr =
  | { readonly kind: "literal"; readonly value: JsonValue }
  | { readonly kind: "input"; readonly name: string; readonly path: JsonPath }
  | { readonly kind: "var"; readonly name: string; readonly path: JsonPath }
  | { readonly kind: "field"; readonly base: Expr; readonly key: string; readonly path: JsonPath }
  | { readonly kind: "list"; readonly items: readonly Expr[] }
  | {
      readonly kind: "object";
      readonly entries: readonly (readonly [string, Expr])[];
    };

export const MAP_TRANSFORMS = ["identity", "lowercase", "uppercase", "length"] as const;
export type MapTransform = (typeof MAP_TRANSFORMS)[number];
export const REDUCERS = ["count", "byte_count"] as const;
export type Reducer = (typeof REDUCERS)[number];
export const CONTEXT_ACTIONS = ["search", "slice", "peek", "partition", "map", "reduce"] as const;
export type ContextActionType = (typeof CONTEXT_ACTIONS)[number];
export const SELECTOR_TYPES = ["head", "tail", "item"] as const;
export const PARTITION_STRATEGIES = ["fixed", "lines"] as const;

export type Selector =
  | { readonly type: "metadata" }
  | { readonly type: "head"; readonly count: number }
  | { readonly type: "tail"; readonly count: number }
  | { readonly type: "item"; readonly index: number };

export interface PartitionStrategy {
  readonly type: (typeof PARTITION_STRATEGIES)[number];
  readonly size: number;
}

/**
 * Context actions as normalized. Integers are integers but may still be out of range, and a
 * transform or reducer may be any text: the reference rejects those in validation, not in
 * normalization, so the allow-lists live in the validator.
 */
export type ContextAction =
  | { readonly type: "search"; readonly pattern: string }
  | { readonly type: "slice"; readonly start: number; readonly length: number }
  | { readonly type: "peek"; readonly selector: Selector }
  | { readonly type: "partition"; readonly strategy: PartitionStrategy }
  | { readonly type: "map"; readonly transform: string }
  | { readonly type: "reduce"; readonly reducer: string };

interface StepBase {
  readonly path: JsonPath;
}

export interface ContextStep extends StepBase {
  readonly op: "context";
  readonly handle: Expr;
  readonly action: ContextAction;
  readonly bind: string;
}
export interface ModelStep extends StepBase {
  readonly op: "model";
  readonly provider: string;
  readonly prompt: Expr;
  readonly options: JsonObject;
  readonly bind: string;
}
export interface RlmStep extends StepBase {
  readonly op: "rlm";
  readonly plan: Plan;
  readonly bind: string;
}
export interface ToolStep extends StepBase {
  readonly op: "tool";
  readonly name: string;
  readonly args: Expr;
  readonly bind: string;
}
export interface ParallelStep extends StepBase {
  readonly op: "parallel";
  readonly plans: readonly Plan[];
  readonly bind: string;
}
export interface RetryStep extends StepBase {
  readonly op: "retry";
  readonly attempts: number;
  readonly plan: Plan;
  readonly bind: string;
}
export interface CheckpointStep extends StepBase {
  readonly op: "checkpoint";
  readonly label: string;
}
export interface FinalStep extends StepBase {
  readonly op: "final";
  readonly value: Expr;
}

export type Step = ContextStep | ModelStep | RlmStep | ToolStep | ParallelStep | RetryStep | CheckpointStep | FinalStep;

export type Operation = Step["op"];
export const OPERATIONS: readonly Operation[] = [
  "context",
  "model",
  "rlm",
  "tool",
  "parallel",
  "retry",
  "checkpoint",
  "final",
];

export interface Plan {
  readonly steps: readonly Step[];
  readonly path: JsonPath;
}

/** Steps that bind a name, with the name's own path for editors. */
export type BindingStep = Exclude<Step, CheckpointStep | FinalStep>;

export function stepBinding(step: Step): string | undefined {
  return step.op === "checkpoint" || step.op === "final" ? undefined : step.bind;
}

/** Child plans of a step, in the order the runtime visits them. */
export function childPlans(step: Step): readonly Plan[] {
  switch (step.op) {
    case "rlm":
    case "retry":
      return [step.plan];
    case "parallel":
      return step.plans;
    default:
      return [];
  }
}

/** The expressions a step evaluates itself (not those of its child plans), in evaluation order. */
export function stepExpressions(step: Step): readonly Expr[] {
  switch (step.op) {
    case "context":
      return [step.handle];
    case "model":
      return [step.prompt];
    case "tool":
      return [step.args];
    case "final":
      return [step.value];
    default:
      return [];
  }
}

/** Names of the inputs an expression reads, in order of first appearance. */
export function inputNames(expr: Expr, into: Set<string> = new Set()): Set<string> {
  switch (expr.kind) {
    case "input":
      into.add(expr.name);
      break;
    case "field":
      inputNames(expr.base, into);
      break;
    case "list":
      for (const item of expr.items) inputNames(item, into);
      break;
    case "object":
      for (const [, value] of expr.entries) inputNames(value, into);
      break;
    default:
      break;
  }
  return into;
}
