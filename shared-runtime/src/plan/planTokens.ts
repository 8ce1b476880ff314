// The names of a plan that mean something beyond their JSON type, for semantic highlighting:
// each operation, binding, variable reference (resolved or not), input, tool, provider, context
// action and field key, with the JSON path of its string token. Bindings and variables come
// from the semantic model (so half-typed steps that did not normalize still count); the rest
// from the normalized steps. Editors map the kinds to their own token types.

import type { JsonPath } from "../json";
import { OPERATIONS, SPAWN_AGENT, type Expr, type Plan, type Step } from "./ast";
import { childPlans, expressionNodes, stepExpressions } from "./walk";
import type { PlanModel } from "./semanticModel";

export type PlanTokenKind =
  "operation" | "binding" | "variable" | "input" | "tool" | "provider" | "contextAction" | "fieldKey";

export interface PlanToken {
  readonly kind: PlanTokenKind;
  /** The path of the string token itself (a value, never a key). */
  readonly path: JsonPath;
  /** For variables: false when no binding of that name is in scope there. */
  readonly resolved?: boolean;
  /** For tools: the name of the tool, to tell built-ins apart. */
  readonly name?: string;
}

const KNOWN_OPS: ReadonlySet<string> = new Set<string>([...OPERATIONS, SPAWN_AGENT]);

/** The top-level steps (indexes in the plan's `steps`, both included) whose tokens are asked for. */
export interface StepSpan {
  readonly first: number;
  readonly last: number;
}

/**
 * Every token of the plan the model describes, or only those inside the top-level steps of
 * `within` (a range of a big plan: only those steps' tokens are built); in no particular order (sort by range).
 */
export function planTokens(model: PlanModel, within?: StepSpan): PlanToken[] {
  const tokens: PlanToken[] = [];
  const wanted = within ? (path: JsonPath) => inSpan(path, within) : () => true;
  for (const binding of model.bindings) {
    if (wanted(binding.stepPath)) tokens.push({ kind: "binding", path: [...binding.stepPath, "bind"] });
  }
  for (const reference of model.references) {
    if (!wanted(reference.path)) continue;
    tokens.push({ kind: "variable", path: [...reference.path, "name"], resolved: reference.binding !== undefined });
  }
  // A step that did not normalize still shows its operation, when it names a known one.
  const opaqueTokens = (plan: Plan): void => {
    for (const opaque of plan.opaque ?? []) {
      if (!wanted(opaque.path)) continue;
      const op = opaque.value.op;
      if (typeof op === "string" && KNOWN_OPS.has(op)) tokens.push({ kind: "operation", path: [...opaque.path, "op"] });
    }
  };
  opaqueTokens(model.plan);
  for (const { step } of model.steps()) {
    if (!wanted(step.path)) continue;
    stepTokens(step, tokens);
    for (const nested of childPlans(step)) opaqueTokens(nested);
  }
  return tokens;
}

/** Whether a path is inside one of the span's top-level steps (a path outside `steps` is kept). */
function inSpan(path: JsonPath, span: StepSpan): boolean {
  const index = path[0] === "steps" ? path[1] : undefined;
  return typeof index !== "number" || (index >= span.first && index <= span.last);
}

function stepTokens(step: Step, tokens: PlanToken[]): void {
  tokens.push({ kind: "operation", path: [...step.path, "op"] });
  switch (step.op) {
    case "tool":
      tokens.push({ kind: "tool", path: [...step.path, "name"], name: step.name });
      break;
    case "model":
      tokens.push({ kind: "provider", path: [...step.path, "provider"] });
      break;
    case "context":
      tokens.push({ kind: "contextAction", path: [...step.path, "action", "type"] });
      break;
    default:
      break;
  }
  for (const [, expr] of stepExpressions(step)) exprTokens(expr, tokens);
}

/** Inputs and field keys; variables are the model's (it knows what they resolve to). */
function exprTokens(expr: Expr, tokens: PlanToken[]): void {
  for (const e of expressionNodes(expr)) {
    if (e.kind === "input") tokens.push({ kind: "input", path: [...e.path, "name"] });
    else if (e.kind === "field") tokens.push({ kind: "fieldKey", path: [...e.path, "key"] });
  }
}
