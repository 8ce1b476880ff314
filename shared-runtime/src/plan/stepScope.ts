// What running one step alone may and must be given (`run PLAN --step PATH --bindings JSON`, a
// test case's `step`, the editor's Test This Step): the names in scope at the step, the ones it
// reads from outside itself, the one rule that checks given names against them, and a template
// of those bindings from their types for an editor to fill in. Pure functions of the model.

import { stepPathText, type JsonObject, type JsonPath, type JsonValue } from "../json";
import type { PlanModel } from "./semanticModel";
import type { PlanTypes } from "./types/planTypes";
import type { ValueType } from "./types/valueType";

/** What a step run alone may and must be given. */
export interface StepScope {
  /** The step as `runs show` prints its path (steps/1/plan/steps/0). */
  readonly shown: string;
  /** Every binding name in scope at the step, in binding order. */
  readonly inScope: readonly string[];
  /** The names the step reads from outside itself: each must be given. */
  readonly needed: readonly string[];
}

/** The names in scope at `at` and those the step there reads, or why there is no such step. */
export function stepScope(model: PlanModel | undefined, at: JsonPath): StepScope | string {
  const shown = stepPathText(at);
  if (!model?.stepAt(at)) return `there is no step at ${shown} in this plan`;
  return { shown, inScope: model.inScopeAt(at).map((binding) => binding.name), needed: readsFromOutside(model, at) };
}

/**
 * The bindings from outside the step at `at` that it reads (its own fields and its sub-plans'),
 * each name once, in the order the model's walk met them.
 */
function readsFromOutside(model: PlanModel, at: JsonPath): string[] {
  const inside = (path: JsonPath) => path.length >= at.length && at.every((key, i) => path[i] === key);
  const names = new Set<string>();
  for (const reference of model.references)
    if (inside(reference.path) && reference.binding && !inside(reference.binding.stepPath)) names.add(reference.name);
  return [...names];
}

/** "no binding "x" is in scope at steps/2 (in scope: a, b)": a fork's --set and a step's bindings say it alike. */
export function notInScope(name: string, shown: string, inScope: readonly string[]): string {
  const names = inScope.length > 0 ? `in scope: ${inScope.join(", ")}` : "no binding is in scope there";
  return `no binding ${JSON.stringify(name)} is in scope at ${shown} (${names})`;
}

/**
 * Why `given` cannot be a step's bindings: a name not in scope there (`name` says which), or
 * names it reads that are not given (`missing`); undefined when they can.
 */
export function bindingsProblem(
  scope: StepScope,
  given: readonly string[],
): { readonly message: string; readonly name?: string; readonly missing: readonly string[] } | undefined {
  const { shown, inScope, needed } = scope;
  const unknown = given.find((name) => !inScope.includes(name));
  if (unknown !== undefined) return { message: notInScope(unknown, shown, inScope), name: unknown, missing: [] };
  const missing = needed.filter((name) => !given.includes(name));
  if (missing.length === 0) return undefined;
  return {
    message: `the step at ${shown} reads ${missing.map((name) => JSON.stringify(name)).join(", ")}, which is not given (in scope: ${inScope.join(", ")}; the step reads: ${needed.join(", ")})`,
    missing,
  };
}

/**
 * The bindings a step reads, each with a value of its type to edit (an empty text, 0, false, an
 * object with its required fields; null where the type is unknown or a context handle, which
 * JSON cannot give).
 */
export function bindingsTemplate(model: PlanModel, types: PlanTypes | undefined, at: JsonPath): JsonObject {
  const scope = stepScope(model, at);
  const template: JsonObject = Object.create(null) as JsonObject;
  if (typeof scope === "string") return template;
  for (const name of scope.needed) {
    const binding = model.resolve(at, name);
    template[name] = binding && types ? exampleOf(types.ofBinding(binding).type) : null;
  }
  return template;
}

function exampleOf(type: ValueType, depth = 0): JsonValue {
  if (depth > 8) return null;
  switch (type.kind) {
    case "string":
      return "";
    case "integer":
    case "number":
      return 0;
    case "boolean":
      return false;
    case "array":
      return type.tuple ? type.tuple.map((item) => exampleOf(item, depth + 1)) : [];
    case "object": {
      const value: JsonObject = Object.create(null) as JsonObject;
      for (const [key, field] of type.fields) if (type.required.has(key)) value[key] = exampleOf(field, depth + 1);
      return value;
    }
    case "union":
      return type.of[0] ? exampleOf(type.of[0], depth + 1) : null;
    default:
      return null;
  }
}
