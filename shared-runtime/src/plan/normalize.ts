// JSON value -> closed plan AST. Checks happen in the order the reference checks them, so the
// first problem recorded is the one the reference reports; in collect-all mode the walk goes
// on past a broken field or step so an editor can show every problem at once.
// Over 400 lines because it is one walk in the reference's check order, which split files would scatter.

import { ownValue, type JsonObject, type JsonPath, type JsonValue } from "../json";
import { MAX_JSON_DEPTH } from "../text/jsonText";
import {
  CONTEXT_ACTIONS,
  OPERATIONS,
  PARTITION_STRATEGIES,
  REFERENCE_KINDS,
  SELECTOR_TYPES,
  type ContextAction,
  type Expr,
  type OpaqueStep,
  type PartitionStrategy,
  type Plan,
  type Selector,
  type Step,
} from "./ast";
import { detailText, orList, quoted, type PlanProblem, type ProblemTarget } from "./problems";

/**
 * Plans that lost a step to a problem already reported (collect-all mode drops broken steps):
 * their shape (empty, no final step) is not checked again, which would only repeat that problem.
 */
const INCOMPLETE = new WeakSet<Plan>();

/** Whether normalization dropped a broken step of this plan. */
export function lostSteps(plan: Plan): boolean {
  return INCOMPLETE.has(plan);
}

export interface NormalizeOptions {
  /** Keep going after the first problem (editors); the default stops at it (runtime). */
  readonly collectAll?: boolean;
}

export interface NormalizeResult {
  /** The plan; when there are problems it is the part that could be recovered. */
  readonly plan: Plan | undefined;
  readonly problems: readonly PlanProblem[];
}

export function normalizePlan(value: unknown, options: NormalizeOptions = {}): NormalizeResult {
  const normalizer = new Normalizer(options.collectAll === true);
  let plan: Plan | undefined;
  try {
    plan = normalizer.plan(value, undefined, 0);
  } catch (error) {
    // A host value can be hostile (a getter that throws, a revoked proxy): report, never throw.
    if (error !== STOP) {
      plan = undefined;
      normalizer.problems.push({
        phase: "normalize",
        kind: "invalid_plan",
        reason: "unreadable_value",
        detail: "unreadable_value",
        message: "the plan value could not be read: pass plain JSON data",
      });
    }
  }
  return { plan, problems: normalizer.problems };
}

const STOP = Symbol("stop after first problem");

/**
 * Where the walk is, as a parent-linked list: one small object per level instead of a copied
 * array, turned into a JsonPath only for nodes that keep one and for problems.
 */
type At = { readonly parent: At; readonly key: string | number } | undefined;

function child(parent: At, key: string | number): At {
  return { parent, key };
}

function pathOf(at: At): JsonPath {
  // Sized first: an array grown by push keeps room for 17 items, and every step and expression
  // of an open plan keeps its path (three times the memory of the keys themselves).
  let length = 0;
  for (let node = at; node; node = node.parent) length++;
  const path = new Array<string | number>(length);
  for (let node = at; node; node = node.parent) path[--length] = node.key;
  return path;
}

/** Marks a field that could not be read; the problem is already recorded. */
const BROKEN = Symbol("broken");
type Read<T> = T | typeof BROKEN;

class Normalizer {
  readonly problems: PlanProblem[] = [];

  constructor(private readonly collectAll: boolean) {}

  private fail(
    path: At,
    reason: string,
    args: readonly unknown[],
    message: string,
    target: ProblemTarget = "value",
  ): typeof BROKEN {
    this.problems.push({
      phase: "normalize",
      kind: "invalid_plan",
      reason,
      detail: detailText(reason, ...args),
      message,
      path: pathOf(path),
      target,
    });
    if (!this.collectAll) throw STOP;
    return BROKEN;
  }

  plan(value: unknown, path: At, depth: number): Plan | undefined {
    if (this.tooDeep(path, depth)) return undefined;
    if (!isPlainObject(value)) {
      this.fail(path, "invalid_plan", [value], `a plan must be an object with "steps", got ${describe(value)}`);
      return undefined;
    }
    const steps = this.required(value, "steps", path, 'a plan needs "steps": a list of steps');
    if (steps === BROKEN) return undefined;
    const stepsPath = child(path, "steps");
    if (!Array.isArray(steps)) {
      this.fail(stepsPath, "invalid_list", ["steps", steps], `"steps" must be a list, got ${describe(steps)}`);
      return undefined;
    }
    const normalized: Step[] = [];
    const opaque: OpaqueStep[] = [];
    for (let i = 0; i < steps.length; i++) {
      const at = child(stepsPath, i);
      const step = this.step(steps[i], at, depth + 1);
      if (step) normalized.push(step);
      else if (this.collectAll && isPlainObject(steps[i])) opaque.push({ index: i, path: pathOf(at), value: steps[i] });
    }
    const plan: Plan =
      opaque.length > 0 ? { steps: normalized, path: pathOf(path), opaque } : { steps: normalized, path: pathOf(path) };
    if (normalized.length < steps.length) INCOMPLETE.add(plan);
    return plan;
  }

  private step(value: unknown, path: At, depth: number): Step | undefined {
    if (this.tooDeep(path, depth)) return undefined;
    if (!isPlainObject(value)) {
      this.fail(path, "invalid_step", [value], `a step must be an object with "op", got ${describe(value)}`);
      return undefined;
    }
    const op = this.text(value, "op", path);
    if (op === BROKEN) return undefined;
    const step = this.operation(op, value, path, depth);
    if (step !== BROKEN) return step;
    // A final step that did not normalize still ends its plan as far as the plan's shape goes:
    // an editor reports what is wrong with it, not also a plan "without" a final step. The
    // runtime stops at the first problem and never sees this stand-in.
    if (op === "final") return { op, value: { kind: "literal", value: null }, path: pathOf(path) };
    return undefined;
  }

  private operation(op: string, step: JsonObject, path: At, depth: number): Read<Step> {
    switch (op) {
      case "context": {
        const handle = this.exprField(step, "handle", path, depth);
        const action = this.contextAction(step, path);
        const bind = this.text(step, "bind", path);
        if (handle === BROKEN || action === BROKEN || bind === BROKEN) return BROKEN;
        return { op, handle, action, bind, path: pathOf(path) };
      }
      case "model": {
        const provider = this.text(step, "provider", path);
        const prompt = this.exprField(step, "prompt", path, depth);
        const options = this.modelOptions(step, path);
        const bind = this.text(step, "bind", path);
        if (provider === BROKEN || prompt === BROKEN || options === BROKEN || bind === BROKEN) return BROKEN;
        return { op, provider, prompt, options, bind, path: pathOf(path) };
      }
      case "rlm": {
        const plan = this.planField(step, "plan", path, depth);
        const bind = this.text(step, "bind", path);
        if (plan === BROKEN || bind === BROKEN) return BROKEN;
        return { op, plan, bind, path: pathOf(path) };
      }
      case "tool": {
        const name = this.text(step, "name", path);
        const args = this.exprField(step, "args", path, depth);
        const bind = this.text(step, "bind", path);
        if (name === BROKEN || args === BROKEN || bind === BROKEN) return BROKEN;
        return { op, name, args, bind, path: pathOf(path) };
      }
      case "parallel": {
        const plans = this.parallelPlans(step, path, depth);
        const bind = this.text(step, "bind", path);
        if (plans === BROKEN || bind === BROKEN) return BROKEN;
        return { op, plans, bind, path: pathOf(path) };
      }
      case "retry": {
        const attempts = this.integer(step, "attempts", path);
        const plan = this.planField(step, "plan", path, depth);
        const bind = this.text(step, "bind", path);
        if (attempts === BROKEN || plan === BROKEN || bind === BROKEN) return BROKEN;
        return { op, attempts, plan, bind, path: pathOf(path) };
      }
      case "checkpoint": {
        const label = this.required(step, "label", path, 'a checkpoint needs a "label"');
        if (label === BROKEN) return BROKEN;
        // The reference reads true, false and null as atoms, which are valid labels; a label
        // is only ever reported back, so taking their JSON text loses nothing.
        if (typeof label === "boolean" || label === null) return { op, label: String(label), path: pathOf(path) };
        if (typeof label !== "string") {
          return this.fail(
            child(path, "label"),
            "invalid_checkpoint_label",
            [label],
            `a checkpoint label must be text, got ${describe(label)}`,
          );
        }
        return { op, label, path: pathOf(path) };
      }
      case "final": {
        const value = this.exprField(step, "value", path, depth);
        if (value === BROKEN) return BROKEN;
        return { op, value, path: pathOf(path) };
      }
      case "spawn_agent":
        return this.spawnAgent(step, path);
      default:
        return this.fail(
          child(path, "op"),
          "unknown_operator",
          [op],
          `unknown operation ${quoted(op)}: use ${orList(OPERATIONS)}`,
        );
    }
  }

  /**
   * The reference's `spawn_agent` step is sugar for calling the host's trusted `spawn_agent`
   * tool with the agent's spec and capabilities as a literal: it needs `tool(spawn_agent)`.
   */
  private spawnAgent(step: JsonObject, path: At): Read<Step> {
    const spec = this.required(step, "spec", path, 'spawn_agent needs a "spec"');
    const capabilities = this.required(step, "capabilities", path, 'spawn_agent needs "capabilities"');
    if (capabilities !== BROKEN && !Array.isArray(capabilities)) {
      this.fail(
        child(path, "capabilities"),
        "invalid_list",
        ["child_capabilities", capabilities],
        `"capabilities" must be a list, got ${describe(capabilities)}`,
      );
      return BROKEN;
    }
    const bind = this.text(step, "bind", path);
    if (spec === BROKEN || capabilities === BROKEN || bind === BROKEN) return BROKEN;
    const request = this.literalTree({ spec, capabilities } as JsonValue, path);
    if (request === BROKEN) return BROKEN;
    return { op: "tool", name: "spawn_agent", args: { kind: "literal", value: request }, bind, path: pathOf(path) };
  }

  /** A JSON value taken as a literal: only JSON, only finite numbers, bounded depth. */
  private literalTree(value: JsonValue, path: At): Read<JsonValue> {
    const expr = this.expr(value, path, 0);
    return expr === BROKEN ? BROKEN : value;
  }

  private planField(step: JsonObject, key: string, path: At, depth: number): Read<Plan> {
    const value = this.required(step, key, path, `this step needs "${key}": a plan object`);
    if (value === BROKEN) return BROKEN;
    const plan = this.plan(value, child(path, key), depth + 1);
    return plan ?? BROKEN;
  }

  private parallelPlans(step: JsonObject, path: At, depth: number): Read<Plan[]> {
    const value = this.required(step, "plans", path, 'a parallel step needs "plans": a list of plans');
    if (value === BROKEN) return BROKEN;
    const plansPath = child(path, "plans");
    if (!Array.isArray(value)) {
      return this.fail(
        plansPath,
        "invalid_list",
        ["parallel_plans", value],
        `"plans" must be a list of plans, got ${describe(value)}`,
      );
    }
    const plans: Plan[] = [];
    let broken = false;
    // Indexed loops, not forEach: a host's sparse array has holes, which must be reported.
    for (let i = 0; i < value.length; i++) {
      const plan = this.plan(value[i], child(plansPath, i), depth + 1);
      if (plan) plans.push(plan);
      else broken = true;
    }
    return broken ? BROKEN : plans;
  }

  private modelOptions(step: JsonObject, path: At): Read<JsonObject> {
    const value = ownValue(step, "options");
    if (value === undefined) return Object.create(null) as JsonObject;
    if (!isPlainObject(value)) {
      return this.fail(
        child(path, "options"),
        "invalid_dict",
        ["model_options", value],
        `"options" must be an object, got ${describe(value)}`,
      );
    }
    return value;
  }

  private contextAction(step: JsonObject, path: At): Read<ContextAction> {
    const value = this.required(step, "action", path, 'a context step needs an "action" object');
    if (value === BROKEN) return BROKEN;
    const actionPath = child(path, "action");
    if (!isPlainObject(value)) {
      return this.fail(
        actionPath,
        "invalid_context_action",
        [value],
        `a context action must be an object with "type", got ${describe(value)}`,
      );
    }
    const type = this.text(value, "type", actionPath);
    if (type === BROKEN) return BROKEN;
    switch (type) {
      case "search": {
        const pattern = this.required(value, "pattern", actionPath, 'a search needs a "pattern"');
        if (pattern === BROKEN) return BROKEN;
        if (typeof pattern !== "string") {
          return this.fail(
            child(actionPath, "pattern"),
            "invalid_search_pattern",
            [pattern],
            `a search pattern must be text, got ${describe(pattern)}`,
          );
        }
        return { type, pattern };
      }
      case "slice": {
        const start = this.integer(value, "start", actionPath);
        const length = this.integer(value, "length", actionPath);
        if (start === BROKEN || length === BROKEN) return BROKEN;
        return { type, start, length };
      }
      case "peek": {
        const selector = this.required(value, "selector", actionPath, 'a peek needs a "selector"');
        if (selector === BROKEN) return BROKEN;
        const normalized = this.selector(selector, child(actionPath, "selector"));
        return normalized === BROKEN ? BROKEN : { type, selector: normalized };
      }
      case "partition": {
        const strategy = this.required(value, "strategy", actionPath, 'a partition needs a "strategy"');
        if (strategy === BROKEN) return BROKEN;
        const normalized = this.strategy(strategy, child(actionPath, "strategy"));
        return normalized === BROKEN ? BROKEN : { type, strategy: normalized };
      }
      case "map": {
        const transform = this.text(value, "transform", actionPath);
        return transform === BROKEN ? BROKEN : { type, transform };
      }
      case "reduce": {
        const reducer = this.text(value, "reducer", actionPath);
        return reducer === BROKEN ? BROKEN : { type, reducer };
      }
      default:
        return this.fail(
          child(actionPath, "type"),
          "unknown_context_action",
          [type],
          `unknown context action ${quoted(type)}: use ${orList(CONTEXT_ACTIONS)}`,
        );
    }
  }

  private selector(value: unknown, path: At): Read<Selector> {
    if (value === "metadata") return { type: "metadata" };
    if (!isPlainObject(value)) {
      return this.fail(
        path,
        "invalid_selector",
        [value],
        `a selector is "metadata" or an object with "type" ${orList(SELECTOR_TYPES)}, got ${describe(value)}`,
      );
    }
    const type = this.text(value, "type", path);
    if (type === BROKEN) return BROKEN;
    switch (type) {
      case "head":
      case "tail": {
        const count = this.integer(value, "count", path);
        return count === BROKEN ? BROKEN : { type, count };
      }
      case "item": {
        const index = this.integer(value, "index", path);
        return index === BROKEN ? BROKEN : { type, index };
      }
      default:
        return this.fail(
          child(path, "type"),
          "unknown_selector",
          [type],
          `unknown selector ${quoted(type)}: use ${orList(SELECTOR_TYPES)}`,
        );
    }
  }

  private strategy(value: unknown, path: At): Read<PartitionStrategy> {
    if (!isPlainObject(value)) {
      return this.fail(
        path,
        "invalid_partition_strategy",
        [value],
        `a partition strategy is an object {"type": "fixed" or "lines", "size": N}, got ${describe(value)}`,
      );
    }
    const type = this.text(value, "type", path);
    const size = this.integer(value, "size", path);
    if (type === BROKEN || size === BROKEN) return BROKEN;
    if (!(PARTITION_STRATEGIES as readonly string[]).includes(type)) {
      return this.fail(
        child(path, "type"),
        "unknown_partition_strategy",
        [type],
        `unknown partition strategy ${quoted(type)}: use ${orList(PARTITION_STRATEGIES)}`,
      );
    }
    return { type: type as PartitionStrategy["type"], size };
  }

  private exprField(object: JsonObject, key: string, path: At, depth: number): Read<Expr> {
    const value = this.required(object, key, path, `this step needs "${key}"`);
    if (value === BROKEN) return BROKEN;
    return this.expr(value, child(path, key), depth + 1);
  }

  private expr(value: unknown, path: At, depth: number): Read<Expr> {
    if (this.tooDeep(path, depth)) return BROKEN;
    if (Array.isArray(value)) {
      const items: Expr[] = [];
      let broken = false;
      for (let i = 0; i < value.length; i++) {
        const expr = this.expr(value[i], child(path, i), depth + 1);
        if (expr === BROKEN) broken = true;
        else items.push(expr);
      }
      return broken ? BROKEN : { kind: "list", items };
    }
    if (isPlainObject(value)) {
      const ref = ownValue(value, "ref");
      if (ref !== undefined) return this.reference(ref, value, path, depth);
      // The reference evaluates object entries in key order; so do we, for the same first error.
      const keys = Object.keys(value).sort();
      const entries: (readonly [string, Expr])[] = [];
      let broken = false;
      for (const key of keys) {
        const expr = this.expr(value[key], child(path, key), depth + 1);
        if (expr === BROKEN) broken = true;
        else entries.push([key, expr]);
      }
      return broken ? BROKEN : { kind: "object", entries };
    }
    return this.literal(value, path);
  }

  private reference(ref: unknown, object: JsonObject, path: At, depth: number): Read<Expr> {
    // true, false and null are atoms to the reference, hence references of unknown kind.
    if (typeof ref === "boolean" || ref === null) {
      return this.fail(
        child(path, "ref"),
        "unknown_reference",
        [String(ref)],
        `unknown reference ${String(ref)}: use ${orList(REFERENCE_KINDS)}`,
      );
    }
    if (typeof ref !== "string") {
      return this.fail(
        child(path, "ref"),
        "invalid_reference",
        [ref],
        `"ref" must be input, var or field, got ${describe(ref)}`,
      );
    }
    switch (ref) {
      case "input":
      case "var": {
        const name = this.text(object, "name", path);
        return name === BROKEN ? BROKEN : { kind: ref, name, path: pathOf(path) };
      }
      case "field": {
        const base = this.exprField(object, "value", path, depth);
        const key = this.text(object, "key", path);
        if (base === BROKEN || key === BROKEN) return BROKEN;
        return { kind: "field", base, key, path: pathOf(path) };
      }
      default:
        return this.fail(
          child(path, "ref"),
          "unknown_reference",
          [ref],
          `unknown reference ${quoted(ref)}: use ${orList(REFERENCE_KINDS)}`,
        );
    }
  }

  private literal(value: unknown, path: At): Read<Expr> {
    switch (typeof value) {
      case "string":
      case "boolean":
        return { kind: "literal", value };
      case "number":
        if (Number.isFinite(value)) return { kind: "literal", value };
        return this.fail(
          path,
          "invalid_number",
          [String(value)],
          "numbers must be finite: JSON has no NaN or Infinity, and this one overflows",
        );
      case "object":
        if (value === null) return { kind: "literal", value };
        return this.fail(
          path,
          "invalid_value",
          [describe(value)],
          `plans hold JSON values only, got ${describe(value)}`,
        );
      default:
        return this.fail(path, "invalid_value", [typeof value], `plans hold JSON values only, got ${typeof value}`);
    }
  }

  private required(object: JsonObject, key: string, path: At, message: string): Read<unknown> {
    const value = ownValue(object, key);
    if (value === undefined) return this.fail(path, "missing_field", [key], `missing field "${key}": ${message}`);
    return value;
  }

  private text(object: JsonObject, key: string, path: At): Read<string> {
    const value = this.required(object, key, path, `"${key}" is required here`);
    if (value === BROKEN) return BROKEN;
    if (typeof value !== "string") {
      return this.fail(
        child(path, key),
        "invalid_text_field",
        [key, value],
        `"${key}" must be text, got ${describe(value)}`,
      );
    }
    return value;
  }

  private integer(object: JsonObject, key: string, path: At): Read<number> {
    const value = this.required(object, key, path, `"${key}" is required here`);
    if (value === BROKEN) return BROKEN;
    if (typeof value !== "number" || !Number.isInteger(value)) {
      return this.fail(
        child(path, key),
        "invalid_integer_field",
        [key, value],
        `"${key}" must be an integer, got ${describe(value)}`,
      );
    }
    return value;
  }

  private tooDeep(path: At, depth: number): boolean {
    if (depth <= MAX_JSON_DEPTH) return false;
    this.fail(path, "too_deep", [], `the plan nests more than ${MAX_JSON_DEPTH} levels: flatten it`);
    return true;
  }
}

/** Plain JSON-like objects only: not arrays, dates, maps or class instances from a host. */
export function isPlainObject(value: unknown): value is JsonObject {
  if (typeof value !== "object" || value === null || Array.isArray(value)) return false;
  const proto: unknown = Object.getPrototypeOf(value);
  return proto === Object.prototype || proto === null;
}

/** A value's kind and, for short scalars, the value itself: never long or nested content. */
export function describe(value: unknown): string {
  if (value === undefined) return "nothing";
  if (value === null) return "null";
  if (Array.isArray(value)) return "a list";
  switch (typeof value) {
    case "string":
      return value.length <= 40 ? `the text ${JSON.stringify(value)}` : "a long text";
    case "number":
      return `the number ${String(value)}`;
    case "boolean":
      return String(value);
    case "object":
      return isPlainObject(value) ? "an object" : "a non-JSON object";
    default:
      return `a ${typeof value}`;
  }
}

export type { JsonValue };
