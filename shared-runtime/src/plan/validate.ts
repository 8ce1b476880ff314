// Whole-plan validation: one walk that both the runtime (first problem, in the reference's
// order) and the editor (every problem, each located) use. Order: the capability list, the
// budget, then each plan's shape (non-empty, one final and last) and its steps in order
// (expressions in scope, action values, capability, binding), then the estimate vs the budget.

import type { JsonPath } from "../json";
import { MAP_TRANSFORMS, REDUCERS, type ContextAction, type ContextStep, type Expr, type Plan, type Step } from "./ast";
import { resolveBudget, type Budget } from "./budget";
import { formatCapability, grantedKeys, requiredCapability } from "./capabilities";
import { ESTIMATE_LIMITS, estimatePlan, type Estimate } from "./estimate";
import { describe, lostSteps } from "./normalize";
import { detailText, quoted, type PlanProblem, type ProblemTarget, type RelatedLocation } from "./problems";

export interface ValidateOptions {
  /**
   * Granted capabilities, as the reference writes them. `undefined` means "no host known":
   * capability checks are skipped (editors without a host profile), never guessed.
   */
  readonly capabilities?: unknown;
  /** "default" or a partial budget object; `undefined` is the default budget. */
  readonly budget?: unknown;
  readonly collectAll?: boolean;
  /** Names bound by steps that did not normalize: not reported as unbound (editor mode). */
  readonly opaqueBinds?: ReadonlySet<string>;
}

export interface ValidatedPlan {
  readonly plan: Plan;
  readonly budget: Budget;
  readonly estimate: Estimate;
}

export type ValidationResult =
  | { readonly ok: true; readonly validated: ValidatedPlan; readonly problems: readonly [] }
  | {
      readonly ok: false;
      readonly problems: readonly PlanProblem[];
      readonly budget?: Budget;
      readonly estimate?: Estimate;
    };

const STOP = Symbol("stop after first problem");

export function validatePlan(plan: Plan, options: ValidateOptions = {}): ValidationResult {
  const validator = new Validator(options);
  let budget: Budget | undefined;
  let estimate: Estimate | undefined;
  try {
    const granted = validator.capabilityList();
    budget = validator.budget();
    validator.plan(plan, granted);
    estimate = estimatePlan(plan);
    if (budget) validator.estimate(plan, estimate, budget);
  } catch (error) {
    if (error !== STOP) throw error;
  }
  if (validator.problems.length === 0 && budget && estimate) {
    return { ok: true, validated: { plan, budget, estimate }, problems: [] };
  }
  return {
    ok: false,
    problems: validator.problems,
    ...(budget ? { budget } : {}),
    ...(estimate ? { estimate } : {}),
  };
}

/** Names in scope, with where each was bound; nested plans add and then drop their own. */
class Scope {
  private readonly bound = new Map<string, JsonPath>();
  private readonly added: string[] = [];

  has(name: string): boolean {
    return this.bound.has(name);
  }
  where(name: string): JsonPath | undefined {
    return this.bound.get(name);
  }
  add(name: string, path: JsonPath): void {
    this.bound.set(name, path);
    this.added.push(name);
  }
  mark(): number {
    return this.added.length;
  }
  /** Drops every name added since `mark`: a sub-plan's bindings never leak out. */
  release(mark: number): void {
    while (this.added.length > mark) this.bound.delete(this.added.pop() as string);
  }
}

class Validator {
  readonly problems: PlanProblem[] = [];
  private readonly scope = new Scope();

  constructor(private readonly options: ValidateOptions) {}

  private report(problem: PlanProblem): void {
    this.problems.push(problem);
    if (this.options.collectAll !== true) throw STOP;
  }

  private invalid(
    path: JsonPath | undefined,
    reason: string,
    args: readonly unknown[],
    message: string,
    target: ProblemTarget = "value",
    related?: readonly RelatedLocation[],
  ): void {
    this.report({
      phase: "validate",
      kind: "invalid_plan",
      reason,
      detail: detailText(reason, ...args),
      message,
      ...(path ? { path, target } : {}),
      ...(related ? { related } : {}),
    });
  }

  /** Granted keys, or undefined when there is no host to ask (nothing is checked then). */
  capabilityList(): ReadonlySet<string> | undefined {
    const caps = this.options.capabilities;
    if (caps === undefined) return undefined;
    if (!Array.isArray(caps)) {
      this.report({
        phase: "validate",
        kind: "invalid_plan",
        reason: "invalid_capabilities",
        detail: detailText("invalid_capabilities", caps),
        message: `capabilities must be a list of capability terms such as "tool(count_items)", got ${describe(caps)}`,
        hostDependent: true,
      });
      return undefined;
    }
    return grantedKeys(caps);
  }

  budget(): Budget | undefined {
    const result = resolveBudget(this.options.budget);
    if (result.ok) return result.budget;
    for (const problem of result.problems) this.report(problem);
    return undefined;
  }

  plan(plan: Plan, granted: ReadonlySet<string> | undefined): void {
    const mark = this.scope.mark();
    this.planShape(plan);
    for (const step of plan.steps) this.step(step, granted);
    this.scope.release(mark);
  }

  private planShape(plan: Plan): void {
    if (lostSteps(plan)) return;
    const steps = plan.steps;
    if (steps.length === 0) {
      this.invalid(
        [...plan.path, "steps"],
        "empty_plan",
        [],
        "a plan needs at least one step, ending with a final step",
      );
      return;
    }
    const misplaced = steps.findIndex((s, i) => s.op === "final" && i < steps.length - 1);
    if (misplaced >= 0) {
      const step = steps[misplaced] as Step;
      this.invalid(
        [...step.path, "op"],
        "final_must_be_unique_and_last",
        [],
        "a final step must be the plan's last step, and the only one: move or remove this one",
      );
    } else if ((steps[steps.length - 1] as Step).op !== "final") {
      const last = steps[steps.length - 1] as Step;
      this.invalid(
        [...last.path, "op"],
        "final_must_be_unique_and_last",
        [],
        'this plan does not end with a final step: add {"op": "final", "value": ...} after this step',
      );
    }
  }

  private step(step: Step, granted: ReadonlySet<string> | undefined): void {
    switch (step.op) {
      case "context":
        this.expr(step.handle);
        this.contextAction(step);
        this.capability(step, granted);
        this.bind(step);
        return;
      case "model":
        this.expr(step.prompt);
        this.capability(step, granted);
        this.bind(step);
        return;
      case "rlm":
        this.capability(step, granted);
        this.plan(step.plan, granted);
        this.bind(step);
        return;
      case "tool":
        this.expr(step.args);
        this.capability(step, granted);
        this.bind(step);
        return;
      case "parallel":
        this.capability(step, granted);
        if (step.plans.length === 0) {
          this.invalid(
            [...step.path, "plans"],
            "invalid_parallel_plans",
            [],
            "a parallel step needs at least one branch plan",
          );
        }
        for (const branch of step.plans) this.plan(branch, granted);
        this.bind(step);
        return;
      case "retry":
        if (step.attempts <= 0) {
          this.invalid(
            [...step.path, "attempts"],
            "invalid_positive_integer",
            ["retry_attempts", step.attempts],
            `retry attempts must be 1 or more, got ${step.attempts}`,
          );
        }
        this.capability(step, granted);
        this.plan(step.plan, granted);
        this.bind(step);
        return;
      case "checkpoint":
        this.capability(step, granted);
        return;
      case "final":
        this.expr(step.value);
        return;
    }
  }

  private expr(expr: Expr): void {
    switch (expr.kind) {
      case "literal":
      case "input":
        return;
      case "var":
        if (!this.scope.has(expr.name) && this.options.opaqueBinds?.has(expr.name) !== true) {
          this.invalid(
            [...expr.path, "name"],
            "unbound_variable",
            [expr.name],
            `variable ${quoted(expr.name)} is not bound here: bind it in an earlier step of this plan or an enclosing one`,
          );
        }
        return;
      case "field":
        this.expr(expr.base);
        return;
      case "list":
        for (const item of expr.items) this.expr(item);
        return;
      case "object":
        for (const [, value] of expr.entries) this.expr(value);
        return;
    }
  }

  private contextAction(step: ContextStep): void {
    const action: ContextAction = step.action;
    const path = [...step.path, "action"];
    const nonNegative = (value: number, field: string, key: string, at: JsonPath) => {
      if (value < 0) {
        this.invalid(
          [...at, key],
          "invalid_nonnegative_integer",
          [field, value],
          `"${key}" must be 0 or more, got ${value}`,
        );
      }
    };
    switch (action.type) {
      case "peek": {
        const selector = action.selector;
        const at = [...path, "selector"];
        if (selector.type === "head" || selector.type === "tail")
          nonNegative(selector.count, "peek_count", "count", at);
        else if (selector.type === "item") nonNegative(selector.index, "item_index", "index", at);
        return;
      }
      case "slice":
        nonNegative(action.start, "slice_start", "start", path);
        nonNegative(action.length, "slice_length", "length", path);
        return;
      case "search":
        if (action.pattern === "") {
          this.invalid([...path, "pattern"], "invalid_search_pattern", [""], "a search pattern must not be empty");
        }
        return;
      case "partition":
        if (action.strategy.size <= 0) {
          this.invalid(
            [...path, "strategy", "size"],
            "invalid_positive_integer",
            ["partition_size", action.strategy.size],
            `a partition size must be 1 or more, got ${action.strategy.size}`,
          );
        }
        return;
      case "map":
        if (!(MAP_TRANSFORMS as readonly string[]).includes(action.transform)) {
          this.invalid(
            [...path, "transform"],
            "invalid_map_transform",
            [action.transform],
            `unknown map transform ${quoted(action.transform)}: use ${MAP_TRANSFORMS.join(", ")}`,
          );
        }
        return;
      case "reduce":
        if (!(REDUCERS as readonly string[]).includes(action.reducer)) {
          this.invalid(
            [...path, "reducer"],
            "invalid_reducer",
            [action.reducer],
            `unknown reducer ${quoted(action.reducer)}: use ${REDUCERS.join(", ")}`,
          );
        }
        return;
    }
  }

  private capability(step: Step, granted: ReadonlySet<string> | undefined): void {
    const needed = requiredCapability(step);
    if (!needed || !granted) return;
    const text = formatCapability(needed);
    if (granted.has(text)) return;
    this.report({
      phase: "validate",
      kind: "capability_denied",
      capability: text,
      message: `this step needs the capability ${text}, which the host does not grant`,
      path: capabilityPath(step),
      target: "value",
      hostDependent: true,
    });
  }

  private bind(step: Step & { bind: string }): void {
    const first = this.scope.where(step.bind);
    if (first) {
      this.invalid(
        [...step.path, "bind"],
        "duplicate_binding",
        [step.bind],
        `${quoted(step.bind)} is already bound in this scope: choose another name`,
        "value",
        [{ path: [...first, "bind"], target: "value", message: `${quoted(step.bind)} is first bound here` }],
      );
      return;
    }
    this.scope.add(step.bind, step.path);
  }

  estimate(plan: Plan, estimate: Estimate, budget: Budget): void {
    for (const limit of ESTIMATE_LIMITS) {
      const used = estimate[limit.figure];
      const max = budget[limit.field];
      if (used <= max) continue;
      this.report({
        phase: "validate",
        kind: "budget_exceeded",
        budget: limit.name,
        field: limit.field,
        estimated: used,
        limit: max,
        message: `worst case ${limit.label} ${used} exceeds the budget's ${limit.field} of ${max}`,
        path: plan.path,
        target: "value",
        hostDependent: true,
      });
    }
  }
}

/** The token a capability problem points at: the name that needs granting, or the op. */
function capabilityPath(step: Step): JsonPath {
  switch (step.op) {
    case "tool":
      return [...step.path, "name"];
    case "model":
      return [...step.path, "provider"];
    case "context":
      return [...step.path, "action", "type"];
    default:
      return [...step.path, "op"];
  }
}
