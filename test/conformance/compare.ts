// The conformance scoring of ../shared/conformance/compare.py, in TypeScript, so the suite
// needs nothing outside the repository: which fields are compared, and which cases are soft.

import { exactJsonText } from "@rlm-plan/core/json";

/** JSON values as the corpus holds them: integers beyond 2^53 are exact bigints. */
export type Json = null | boolean | number | bigint | string | Json[] | { [key: string]: Json };
type Obj = { [key: string]: Json };

/** JSON text of a value that may hold bigints. */
const text = (value: unknown): string => exactJsonText(value);

/** Cases whose reference answer is an accident of SWI-Prolog (see docs/conformance.md). */
export const SOFT_IDS: ReadonlySet<string> = new Set([
  "parse-011",
  "parse-012",
  "parse-013",
  "parse-014",
  "parse-015",
  "parse-016",
  "parse-017",
  "parse-020",
  "parse-044",
  "parse-053",
  "parse-054",
  "budget-059",
  "op-tool-012",
  "parse-033",
  "parse-034",
  "parse-035",
  "parse-036",
  "parse-037",
  "parse-038",
  "parse-045",
  "parse-046",
  "parse-047",
  "parse-050",
  "parse-051",
  "norm-007",
  "norm-008",
  "norm-088",
  "norm-089",
  "norm-090",
  "expr-037",
  "runtime-022",
  "runtime-023",
  "runtime-024",
  "norm-091",
  "norm-092",
]);

export interface CorpusCase {
  readonly id: string;
  readonly tags?: readonly string[];
  readonly expected: Obj;
  readonly [key: string]: unknown;
}

export function isSoft(c: CorpusCase): boolean {
  const ex = (c.expected.execute ?? {}) as Obj;
  return (
    SOFT_IDS.has(c.id) ||
    (c.tags ?? []).includes("lossy_json_number") ||
    (c.tags ?? []).includes("output_bytes") ||
    (ex.kind === "budget_exhausted" && ex.budget === "output_bytes") ||
    text(ex.value ?? null).includes("$term") ||
    text(ex.vars ?? null).includes("$term")
  );
}

export function reason(detail: Json | undefined): string | undefined {
  if (detail === undefined || detail === null) return undefined;
  if (typeof detail === "object" && !Array.isArray(detail)) return detail.reason as string | undefined;
  const match = /^\s*([A-Za-z_][A-Za-z0-9_]*)/.exec(String(detail));
  return match ? match[1] : String(detail);
}

const isNumeric = (v: Json | undefined): v is number | bigint => typeof v === "number" || typeof v === "bigint";

/**
 * Equality where 1 and 1.0 agree (JSON cannot tell them apart), booleans stay booleans and
 * integers are compared exactly, whether they are numbers or bigints.
 */
export function numEq(a: Json | undefined, b: Json | undefined): boolean {
  if (typeof a === "boolean" || typeof b === "boolean") return a === b;
  if (isNumeric(a) && isNumeric(b)) return a >= b && a <= b;
  if (Array.isArray(a) && Array.isArray(b)) return a.length === b.length && a.every((x, i) => numEq(x, b[i]));
  if (isObj(a) && isObj(b)) {
    const ka = Object.keys(a).sort();
    const kb = Object.keys(b).sort();
    return ka.length === kb.length && ka.every((k, i) => k === kb[i] && numEq(a[k], b[k]));
  }
  return a === b;
}

function isObj(v: Json | undefined): v is Obj {
  return typeof v === "object" && v !== null && !Array.isArray(v);
}

const bindOf = (t: Obj): Json => (t.bind === undefined || t.bind === "none" ? null : t.bind);

function transitionsEq(e: Json[], a: Json | undefined): boolean {
  if (!Array.isArray(a) || a.length !== e.length) return false;
  return e.every((x, i) => {
    const y = a[i] as Obj;
    const t = x as Obj;
    return t.sequence === y.sequence && t.operation === y.operation && bindOf(t) === bindOf(y) && t.status === y.status;
  });
}

function remainingEq(e: Obj, a: Json | undefined): boolean {
  if (!isObj(a)) return false;
  return ["steps", "model_calls", "tool_calls", "context_ops"].every((k) => numEq(e[k], a[k]));
}

function effectsEq(e: Json | undefined, a: Json | undefined): boolean {
  if (e === undefined) return true;
  if (!isObj(a) || !isObj(e)) return false;
  const drop0 = (d: Json | undefined) =>
    Object.fromEntries(Object.entries(isObj(d) ? d : {}).filter(([, v]) => v !== 0 && v !== null));
  return numEq(drop0(e.tool_calls), drop0(a.tool_calls)) && numEq(drop0(e.context_ops), drop0(a.context_ops));
}

const ERROR_KEYS = [
  "phase",
  "kind",
  "capability",
  "budget",
  "estimated",
  "limit",
  "tool",
  "input",
  "variable",
  "field",
  "provider",
  "value_shape",
];

function errorDiff(e: Obj, a: Obj, where: string): string[] {
  const out: string[] = [];
  for (const k of ERROR_KEYS) {
    if (k in e && !numEq(e[k], a[k])) out.push(`${where}.${k}: expected ${text(e[k])}, got ${text(a[k])}`);
  }
  if ("value" in e && e.phase === "preflight" && !numEq(e.value, a.value)) {
    out.push(`${where}.value: expected ${text(e.value)}, got ${text(a.value)}`);
  }
  if ("detail" in e && reason(e.detail) !== reason(a.detail)) {
    out.push(`${where}.detail: expected reason ${reason(e.detail)}, got ${text(a.detail)}`);
  }
  return out;
}

/** Every disagreement between the reference's answer and ours for one case. */
export function diffCase(expected: Obj, actual: Obj): string[] {
  const out: string[] = [];
  for (const stage of ["parse", "validate", "execute"]) {
    const e = expected[stage];
    const a = actual[stage];
    if (e === undefined || e === null) {
      if (stage !== "validate" && a !== undefined && a !== null && !(isObj(a) && Object.keys(a).length === 0)) {
        out.push(`${stage}: expected nothing, got ${text(a).slice(0, 200)}`);
      }
      continue;
    }
    if (!isObj(e)) continue;
    if (!isObj(a)) {
      out.push(`${stage}: missing`);
      continue;
    }
    if (Boolean(e.ok) !== Boolean(a.ok)) {
      out.push(
        `${stage}.ok: expected ${String(e.ok)}, got ${String(a.ok)} (${String(a.phase)}/${String(a.kind)} ${text(a.detail ?? "")})`,
      );
      continue;
    }
    if (!e.ok) {
      out.push(...errorDiff(e, a, stage));
      if (stage === "execute") {
        if (Array.isArray(e.transitions) && !transitionsEq(e.transitions, a.transitions))
          out.push("execute.transitions differ");
        if (isObj(e.budget_remaining) && !remainingEq(e.budget_remaining, a.budget_remaining)) {
          out.push(`execute.budget_remaining: expected ${text(e.budget_remaining)}, got ${text(a.budget_remaining)}`);
        }
        if (!effectsEq(e.host_effects, a.host_effects)) {
          out.push(`execute.host_effects: expected ${text(e.host_effects)}, got ${text(a.host_effects)}`);
        }
      }
      continue;
    }
    if (stage === "validate") {
      if (!numEq(e.estimate, a.estimate))
        out.push(`validate.estimate: expected ${text(e.estimate)}, got ${text(a.estimate)}`);
      if ("budget" in e && "budget" in a && !numEq(e.budget, a.budget))
        out.push(`validate.budget: expected ${text(e.budget)}, got ${text(a.budget)}`);
    }
    if (stage === "execute") {
      if (!numEq(e.value, a.value))
        out.push(`execute.value: expected ${text(e.value).slice(0, 160)}, got ${text(a.value).slice(0, 160)}`);
      if ("vars" in e && !numEq(e.vars, a.vars))
        out.push(`execute.vars: expected ${text(e.vars).slice(0, 160)}, got ${text(a.vars).slice(0, 160)}`);
      if (!transitionsEq((e.transitions as Json[] | undefined) ?? [], a.transitions))
        out.push("execute.transitions differ");
      if (text(e.checkpoints ?? []) !== text(a.checkpoints ?? [])) {
        out.push(`execute.checkpoints: expected ${text(e.checkpoints)}, got ${text(a.checkpoints)}`);
      }
      if (!remainingEq((e.budget_remaining as Obj | undefined) ?? {}, a.budget_remaining)) {
        out.push(`execute.budget_remaining: expected ${text(e.budget_remaining)}, got ${text(a.budget_remaining)}`);
      }
      if (!effectsEq(e.host_effects, a.host_effects))
        out.push(`execute.host_effects: expected ${text(e.host_effects)}, got ${text(a.host_effects)}`);
    }
  }
  return out;
}
