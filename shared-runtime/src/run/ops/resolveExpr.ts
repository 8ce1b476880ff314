// An expression's value while a plan runs: literals, the host's inputs, the scope's variables,
// fields, lists and objects; what is missing fails the step with a located, named error.

import { jsonObjectFrom, ownValue, type JsonValue } from "../../json";
import type { Expr } from "../../plan/ast";
import { isPlainObject } from "../../plan/normalize";
import { quoted } from "../../plan/problems";
import { fail } from "../errors";

/** `expr` in a scope: `inputs` are the run's (opened) inputs, `vars` the bindings the step sees. */
export function resolveExpr(
  expr: Expr,
  inputs: ReadonlyMap<string, unknown>,
  vars: ReadonlyMap<string, unknown>,
): JsonValue {
  switch (expr.kind) {
    case "literal":
      return expr.value;
    case "input": {
      if (!inputs.has(expr.name)) {
        return fail({
          phase: "execute",
          kind: "missing_input",
          input: expr.name,
          message: `the host provides no input ${quoted(expr.name)}`,
        });
      }
      return inputs.get(expr.name) as JsonValue;
    }
    case "var": {
      if (!vars.has(expr.name)) {
        return fail({
          phase: "execute",
          kind: "unbound_variable",
          variable: expr.name,
          message: `variable ${quoted(expr.name)} is not bound`,
        });
      }
      return vars.get(expr.name) as JsonValue;
    }
    case "field": {
      const base = resolveExpr(expr.base, inputs, vars);
      const value = isPlainObject(base) ? ownValue(base, expr.key) : undefined;
      if (value === undefined) {
        return fail({
          phase: "execute",
          kind: "missing_field",
          field: expr.key,
          message: `the value has no field ${quoted(expr.key)}`,
        });
      }
      return value as JsonValue;
    }
    case "list":
      return expr.items.map((item) => resolveExpr(item, inputs, vars));
    case "object":
      return jsonObjectFrom(expr.entries.map(([key, value]) => [key, resolveExpr(value, inputs, vars)]));
  }
}
