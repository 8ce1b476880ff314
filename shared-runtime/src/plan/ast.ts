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
/** Selectors written as a bare string instead of an object. */
export const SELECTOR_CONSTANTS = ["metadata"] as const;
export const PARTITION_STRATEGIES = ["fixed", "lines"] as const;
export const REFERENCE_KINDS = ["input", "var", "field"] as const;
export type ReferenceKind = (typeof REFERENCE_KINDS)[number];

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
export const OPERATIONS = [
  "context",
  "model",
  "rlm",
  "tool",
  "parallel",
  "retry",
  "checkpoint",
  "final",
] as const satisfies readonly Operation[];
/** The reference's sugar for a `spawn_agent` tool call; normalized to a tool step. */
export const SPAWN_AGENT = "spawn_agent";

export interface Plan {
  readonly steps: readonly Step[];
  readonly path: JsonPath;
  /**
   * Steps that did not normalize (collect-all mode only), in source order: they still bind their
   * name in this plan's scope from their place on, so one broken step does not cascade.
   */
  readonly opaque?: readonly OpaqueStep[];
}

/** A step object that did not normalize, kept as written for the editor's scope model. */
export interface OpaqueStep {
  /** The step's index in the source `steps` list. */
  readonly index: number;
  readonly path: JsonPath;
  readonly value: JsonObject;
}

/** Steps that bind a name, with the name's own path for editors. */
export type BindingStep = Exclude<Step, CheckpointStep | FinalStep>;

export function stepBinding(step: Step): string | undefined {
  return step.op === "checkpoint" || step.op === "final" ? undefined : step.bind;
}

// ---- vocabulary tables -------------------------------------------------------------------------
// The keys each kind of node has, what each holds, and which are required: what the unknown-key
// check, completion and the generated copies (plan schema, grammar, snippets: `npm run
// generate`) read. The normalizer reads the same keys in the reference's order.

/** What a field holds, as editors and generated copies need to know it. */
export type FieldKind =
  | "expression"
  | "name"
  | "bind"
  | "text"
  | "label"
  | "integer"
  | "positive"
  | "plan"
  | "plans"
  | "steps"
  | "options"
  | "action"
  | "selector"
  | "strategy"
  | "transform"
  | "reducer"
  | "any"
  | "list";

export interface FieldSpec {
  readonly kind: FieldKind;
  readonly required: boolean;
}

export type FieldTable = Readonly<Record<string, FieldSpec>>;

const need = <K extends FieldKind>(kind: K) => ({ kind, required: true }) as const;
const may = <K extends FieldKind>(kind: K) => ({ kind, required: false }) as const;

/** The key that says which form an object is, for each family of forms. */
export const DISCRIMINATORS = {
  step: "op",
  action: "type",
  selector: "type",
  strategy: "type",
  reference: "ref",
} as const;

export const PLAN_FIELDS = {
  steps: need("steps"),
  description: may("text"),
  $schema: may("text"),
} as const satisfies FieldTable;

/** Each operation's fields besides "op", in the order a step is usually written. */
export const STEP_FIELDS = {
  context: { handle: need("expression"), action: need("action"), bind: need("bind") },
  model: { provider: need("name"), prompt: need("expression"), options: may("options"), bind: need("bind") },
  rlm: { plan: need("plan"), bind: need("bind") },
  tool: { name: need("name"), args: need("expression"), bind: need("bind") },
  parallel: { plans: need("plans"), bind: need("bind") },
  retry: { attempts: need("positive"), plan: need("plan"), bind: need("bind") },
  checkpoint: { label: need("label") },
  final: { value: need("expression") },
  [SPAWN_AGENT]: { spec: need("any"), capabilities: need("list"), bind: need("bind") },
} as const satisfies Readonly<Record<Operation | typeof SPAWN_AGENT, FieldTable>>;

/** Each context action's fields besides "type". */
export const ACTION_FIELDS = {
  search: { pattern: need("text") },
  slice: { start: need("integer"), length: need("integer") },
  peek: { selector: need("selector") },
  partition: { strategy: need("strategy") },
  map: { transform: need("transform") },
  reduce: { reducer: need("reducer") },
} as const satisfies Readonly<Record<ContextActionType, FieldTable>>;

/** Each object selector's fields besides "type". */
export const SELECTOR_FIELDS = {
  head: { count: need("integer") },
  tail: { count: need("integer") },
  item: { index: need("integer") },
} as const satisfies Readonly<Record<(typeof SELECTOR_TYPES)[number], FieldTable>>;

/** Every partition strategy's fields besides "type". */
export const STRATEGY_FIELDS = { size: need("positive") } as const satisfies FieldTable;

/** Each reference kind's fields besides "ref". */
export const REFERENCE_FIELDS = {
  input: { name: need("name") },
  var: { name: need("name") },
  field: { value: need("expression"), key: need("text") },
} as const satisfies Readonly<Record<ReferenceKind, FieldTable>>;

/** The fields of a step that hold expressions, for any operation (or every one when unknown). */
export function expressionFields(op: string | undefined): readonly string[] {
  const tables: readonly FieldTable[] =
    op !== undefined && Object.hasOwn(STEP_FIELDS, op)
      ? [STEP_FIELDS[op as keyof typeof STEP_FIELDS]]
      : Object.values(STEP_FIELDS);
  const keys = new Set<string>();
  for (const table of tables) {
    for (const [key, spec] of Object.entries(table)) if (spec.kind === "expression") keys.add(key);
  }
  return [...keys];
}
