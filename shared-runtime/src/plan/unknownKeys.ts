// Keys the runtime ignores: a step, action, selector, strategy, reference or plan with a key its
// form does not have (`"flags"` on a search, `"stream"` on a model step) runs as if the key were
// not there, which is rarely what its author meant. Editors and `rlm-plan check` show these as
// warnings on the key, with the nearest known key; the runtime keeps the reference's behaviour.
// Driven by the AST's vocabulary tables, on the JSON value (the AST has no room for them).

import { hasOwn, ownValue, type JsonPath } from "../json";
import { MAX_JSON_DEPTH } from "../text/jsonText";
import { nearestName } from "../text/nearestName";
import {
  ACTION_FIELDS,
  DISCRIMINATORS,
  PLAN_FIELDS,
  REFERENCE_FIELDS,
  SELECTOR_FIELDS,
  STEP_FIELDS,
  STRATEGY_FIELDS,
  type FieldKind,
  type FieldTable,
} from "./ast";
import { quoted, type PlanProblem } from "./problems";

/** Every unknown key in a plan value, in document order of the walk. */
export function unknownKeyProblems(value: unknown): PlanProblem[] {
  const walk = new KeyWalk();
  walk.plan(value, undefined, 0);
  return walk.problems;
}

/** Where the walk is: a parent-linked list, turned into a path only for problems. */
type At = { readonly parent: At; readonly key: string | number } | undefined;

function pathOf(at: At): JsonPath {
  const path: (string | number)[] = [];
  for (let node = at; node; node = node.parent) path.push(node.key);
  return path.reverse();
}

/** "a search action", "an rlm step". */
function named(form: string, family: string): string {
  return `${/^[aeiou]|^rlm/.test(form) ? "an" : "a"} ${form} ${family}`;
}

/** A field table compiled once: its keys as a set, and the fields worth walking into. */
interface Compiled {
  readonly known: ReadonlySet<string>;
  readonly nested: readonly (readonly [string, FieldKind])[];
}

const NESTED_KINDS: ReadonlySet<FieldKind> = new Set(["expression", "plan", "plans", "action", "selector", "strategy"]);
const compiledTables = new Map<FieldTable, Compiled>();

function compiled(table: FieldTable): Compiled {
  let entry = compiledTables.get(table);
  if (!entry) {
    const fields = Object.entries(table);
    entry = {
      known: new Set(fields.map(([key]) => key)),
      nested: fields.filter(([, spec]) => NESTED_KINDS.has(spec.kind)).map(([key, spec]) => [key, spec.kind] as const),
    };
    compiledTables.set(table, entry);
  }
  return entry;
}

/** An object of a JSON value (a document's values have no getters or classes to fear). */
function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

class KeyWalk {
  readonly problems: PlanProblem[] = [];

  plan(value: unknown, at: At, depth: number): void {
    if (depth > MAX_JSON_DEPTH || !isObject(value)) return;
    this.keys(value, undefined, PLAN_FIELDS, at, undefined, "a plan");
    const steps = ownValue(value, "steps");
    if (!Array.isArray(steps)) return;
    const stepsAt = { parent: at, key: "steps" };
    for (let i = 0; i < steps.length; i++) this.step(steps[i], { parent: stepsAt, key: i }, depth + 1);
  }

  private step(value: unknown, at: At, depth: number): void {
    if (!isObject(value)) return;
    const op = ownValue(value, DISCRIMINATORS.step);
    // An unknown operation is reported as such; which keys it would have is anyone's guess.
    if (typeof op !== "string" || !hasOwn(STEP_FIELDS, op)) return;
    const table: FieldTable = STEP_FIELDS[op as keyof typeof STEP_FIELDS];
    this.keys(value, DISCRIMINATORS.step, table, at, op, "step");
    this.fields(value, table, at, depth);
  }

  /** Walks into the fields that hold nodes with keys of their own. */
  private fields(value: Record<string, unknown>, table: FieldTable, at: At, depth: number): void {
    for (const [key, kind] of compiled(table).nested) {
      const field = ownValue(value, key);
      if (field !== undefined) this.field(field, kind, { parent: at, key }, depth + 1);
    }
  }

  private field(value: unknown, kind: FieldKind, at: At, depth: number): void {
    if (depth > MAX_JSON_DEPTH) return;
    switch (kind) {
      case "expression":
        return this.expression(value, at, depth);
      case "plan":
        return this.plan(value, at, depth);
      case "plans":
        if (Array.isArray(value))
          for (let i = 0; i < value.length; i++) this.plan(value[i], { parent: at, key: i }, depth + 1);
        return;
      case "action":
        return this.form(value, ACTION_FIELDS, DISCRIMINATORS.action, "action", at, depth);
      case "selector":
        return this.form(value, SELECTOR_FIELDS, DISCRIMINATORS.selector, "selector", at, depth);
      case "strategy":
        // Every strategy has the same keys, so they are checked whatever its type says.
        if (isObject(value))
          this.keys(value, DISCRIMINATORS.strategy, STRATEGY_FIELDS, at, undefined, "a partition strategy");
        return;
      default:
        return;
    }
  }

  /** An object of a family whose forms each have their own keys (actions, selectors). */
  private form(
    value: unknown,
    forms: Readonly<Record<string, FieldTable>>,
    discriminator: string,
    family: string,
    at: At,
    depth: number,
  ): void {
    if (!isObject(value)) return;
    const type = ownValue(value, discriminator);
    if (typeof type !== "string" || !hasOwn(forms, type)) return;
    const table = forms[type] as FieldTable;
    this.keys(value, discriminator, table, at, type, family);
    this.fields(value, table, at, depth);
  }

  private expression(value: unknown, at: At, depth: number): void {
    if (depth > MAX_JSON_DEPTH) return;
    if (Array.isArray(value)) {
      for (let i = 0; i < value.length; i++) this.expression(value[i], { parent: at, key: i }, depth + 1);
      return;
    }
    if (!isObject(value)) return;
    const ref = ownValue(value, DISCRIMINATORS.reference);
    if (ref === undefined) {
      // An object literal: its keys are data, its values expressions.
      for (const key of Object.keys(value)) this.expression(value[key], { parent: at, key }, depth + 1);
      return;
    }
    this.form(value, REFERENCE_FIELDS, DISCRIMINATORS.reference, "reference", at, depth);
  }

  private keys(
    value: Record<string, unknown>,
    discriminator: string | undefined,
    table: FieldTable,
    at: At,
    form: string | undefined,
    family: string,
  ): void {
    const { known: keys } = compiled(table);
    for (const key in value) {
      if (key === discriminator || keys.has(key) || !hasOwn(value, key)) continue;
      const known = discriminator === undefined ? Object.keys(table) : [discriminator, ...Object.keys(table)];
      const absent = known.filter((candidate) => !hasOwn(value, candidate));
      const suggestion = nearestName(key, absent, Math.max(2, Math.floor(key.length / 2)));
      const hint =
        suggestion !== undefined
          ? `did you mean ${quoted(suggestion)}?`
          : `its keys are ${known.map((k) => quoted(k)).join(", ")}`;
      // Named only here: a plan of 60,000 steps has 60,000 steps with no unknown key.
      const what = form === undefined ? family : named(form, family);
      this.problems.push({
        phase: "validate",
        kind: "unknown_key",
        message: `${what} has no key ${quoted(key)}, so the runtime ignores it: ${hint}`,
        path: [...pathOf(at), key],
        target: "key",
        severity: "warning",
        field: key,
        ...(suggestion !== undefined ? { suggestion } : {}),
      });
    }
  }
}
