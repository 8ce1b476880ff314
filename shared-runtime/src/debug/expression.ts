// Expressions typed into a debugger (console, watch, breakpoint conditions) turned into the
// plan's own expression AST, so they are evaluated by the interpreter's evaluator and mean
// exactly what they mean in a plan. Two forms: a plan expression as JSON ({"ref": "var", ...},
// lists and objects of them, literals) and the short form `name.field.field` (a variable and
// field reads). A condition may end with `== JSON` or `!= JSON`.

import { parseJsonText } from "../text/jsonText";
import type { Expr, FinalStep } from "../plan/ast";
import { normalizePlan } from "../plan/normalize";
import type { JsonValue } from "../json";

export type ParsedExpression =
  { readonly ok: true; readonly expr: Expr } | { readonly ok: false; readonly message: string };

const NAME = /^[A-Za-z_][A-Za-z0-9_-]*$/;

export function parseDebugExpression(text: string): ParsedExpression {
  const source = text.trim();
  if (source === "") return { ok: false, message: "type a variable (hits, page.body) or a plan expression as JSON" };
  if (/^[[{"0-9-]|^(true|false|null)$/.test(source)) {
    const parsed = parseJsonText(source);
    if (!parsed.ok) return { ok: false, message: parsed.error.message };
    // The normalizer reads expressions inside steps only: read it as a final step's value.
    const normalized = normalizePlan({ steps: [{ op: "final", value: parsed.value }] });
    const step = normalized.plan?.steps[0] as FinalStep | undefined;
    const problem = normalized.problems[0];
    if (problem || !step) return { ok: false, message: problem?.message ?? "not a plan expression" };
    return { ok: true, expr: step.value };
  }
  const parts = source.split(".");
  const bad = parts.find((part) => !NAME.test(part));
  if (bad !== undefined)
    return {
      ok: false,
      message: `${JSON.stringify(bad)} is not a name: use name.field, or a plan expression as JSON such as {"ref": "field", "value": {"ref": "var", "name": "x"}, "key": "a b"}`,
    };
  let expr: Expr = { kind: "var", name: parts[0] as string, path: [] };
  for (const key of parts.slice(1)) expr = { kind: "field", base: expr, key, path: [] };
  return { ok: true, expr };
}

export type ParsedCondition =
  | {
      readonly ok: true;
      readonly expr: Expr;
      readonly compare?: { readonly equal: boolean; readonly value: JsonValue };
    }
  | { readonly ok: false; readonly message: string };

/** A breakpoint condition: an expression, true when truthy, or `expression == JSON` / `!= JSON`. */
export function parseCondition(text: string): ParsedCondition {
  const match = /^(.*?)\s*(==|!=)\s*([^=].*)$/s.exec(text.trim());
  if (!match) return parseDebugExpression(text);
  const left = parseDebugExpression(match[1] as string);
  if (!left.ok) return left;
  const right = parseJsonText((match[3] as string).trim());
  if (!right.ok) return { ok: false, message: `after ${match[2]}: ${right.error.message}` };
  return { ok: true, expr: left.expr, compare: { equal: match[2] === "==", value: right.value } };
}

/** Whether a condition holds for `value`: false, null, 0, "", [] and {} are false. */
export function conditionHolds(condition: Extract<ParsedCondition, { ok: true }>, value: JsonValue): boolean {
  if (condition.compare) return sameJson(value, condition.compare.value) === condition.compare.equal;
  if (value === false || value === null || value === 0 || value === "") return false;
  if (Array.isArray(value)) return value.length > 0;
  if (typeof value === "object") return Object.keys(value).length > 0;
  return true;
}

function sameJson(a: JsonValue, b: JsonValue): boolean {
  return canonical(a) === canonical(b);
}

/** JSON text with object keys sorted, so equal values compare equal whatever their key order. */
function canonical(value: JsonValue): string {
  if (Array.isArray(value)) return `[${value.map(canonical).join(",")}]`;
  if (value !== null && typeof value === "object") {
    const keys = Object.keys(value).sort();
    return `{${keys.map((k) => `${JSON.stringify(k)}:${canonical((value as Record<string, JsonValue>)[k] as JsonValue)}`).join(",")}}`;
  }
  return JSON.stringify(value);
}
