// Whole-plan validation: one walk that both the runtime (first problem, in the reference's
// order) and the editor (every problem, each located) use. Order: the capability list, the
// budget, then each plan's shape (non-empty, one final and last) and its steps in order
// (expressions in scope, action values, capability, binding), then the estimate vs the budget.
// Over 400 lines because it is one walk whose order of checks is the reference's (first problem) and the editor's (all).

import type { JsonPath } from "../json";
import {
  MAP_TRANSFORMS,
  REDUCERS,
  type ContextAction,
  type ContextStep,
  type Expr,
  type OpaqueStep,
  type Plan,
  type Step,
} from "./ast";
import { resolveBudget, type Budget } from "./budget";
import { capabilityTexts, grantedKeys, requiredCapability } from "./capabilities";
import { costRows } from "./costRows";
import { estimateEachStep, estimatePlan, type Estimate, type PlanEstimates } from "./estimate";
import { PlanModel } from "./semanticModel";
import { bindingNameProblem } from "./names";
import { ScopeWalk, type ModelBinding } from "./scopeWalk";
import { describe, lostSteps } from "./normalize";
import { forEachExpressionNode } from "./walk";
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
  /**
   * Record the semantic model (every scope, binding and reference, each step's worst case) as
   * the walk goes: what editors and the CLI read. Costs a little; hosts leave it off.
   */
  readonly model?: boolean;
}

export interface ValidatedPlan {
  readonly plan: Plan;
  readonly budget: Budget;
  readonly estimate: Estimate;
}

export type ValidationResult =
  | {
      readonly ok: true;
      readonly validated: ValidatedPlan;
      readonly problems: readonly [];
      /** With `model: true`. */
      readonly model?: PlanModel;
    }
  | {
      readonly ok: false;
      readonly problems: readonly PlanProblem[];
      readonly budget?: Budget;
      readonly estimate?: Estimate;
      readonly model?: PlanModel;
    };

const STOP = Symbol("stop after first problem");

export function validatePlan(plan: Plan, options: ValidateOptions = {}): ValidationResult {
  const validator = new Validator(options);
  let budget: Budget | undefined;
  let estimate: Estimate | undefined;
  let estimates: PlanEstimates | undefined;
  let walkedAll = false;
  try {
    const granted = validator.capabilityList();
    budget = validator.budget();
    validator.plan(plan, granted, 0);
    walkedAll = true;
    if (options.model === true) {
      estimates = estimateEachStep(plan);
      estimate = estimates.total;
    } else {
      estimate = estimatePlan(plan);
    }
    if (budget) validator.estimate(plan, estimate, budget);
  } catch (error) {
    if (error !== STOP) throw error;
  }
  const record = walkedAll ? validator.scopes.completeRecord : validator.scopes.record;
  const model = record ? { model: new PlanModel(plan, record, estimates ?? estimateEachStep(plan), budget) } : {};
  if (validator.problems.length === 0 && budget && estimate) {
    return { ok: true, validated: { plan, budget, estimate }, problems: [], ...model };
  }
  return {
    ok: false,
    problems: validator.problems,
    ...(budget ? { budget } : {}),
    ...(estimate ? { estimate } : {}),
    ...model,
  };
}

class Validator {
  readonly problems: PlanProblem[] = [];
  readonly scopes: ScopeWalk;
  /** For a binding that repeats a name in scope: the name's first binding there. */
  private readonly firstBindings = new Map<ModelBinding, ModelBinding>();
  private readonly capabilityText = capabilityTexts();
  /** One message a denied capability: 60,000 checkpoints share one string, not 60,000 copies. */
  private readonly deniedMessages = new Map<string, string>();

  constructor(private readonly options: ValidateOptions) {
    this.scopes = new ScopeWalk(options.model === true);
  }

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

  /** A plan owned by the step at source index `ownerIndex` of the enclosing plan. */
  plan(plan: Plan, granted: ReadonlySet<string> | undefined, ownerIndex: number): void {
    const mark = this.scopes.enter(plan.path, ownerIndex);
    this.planShape(plan);
    const opaque = plan.opaque ?? [];
    let next = 0;
    // Indexed: a loop that runs once per analysis stays in the interpreter, where `for...of`
    // makes an iterator result a step.
    for (let k = 0; k < plan.steps.length; k++) {
      const step = plan.steps[k] as Step;
      const index = step.path[step.path.length - 1] as number;
      // Steps that did not normalize bind from their own place in the plan.
      while (next < opaque.length && (opaque[next] as OpaqueStep).index < index) {
        const broken = opaque[next++] as OpaqueStep;
        this.scopes.opaqueStep(broken.value, broken.path);
      }
      this.step(step, granted);
    }
    for (; next < opaque.length; next++) {
      const broken = opaque[next] as OpaqueStep;
      this.scopes.opaqueStep(broken.value, broken.path);
    }
    this.scopes.leave(mark);
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
    this.scopes.step(step);
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
        this.plan(step.plan, granted, ownIndex(step));
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
        for (const branch of step.plans) this.plan(branch, granted, ownIndex(step));
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
        this.plan(step.plan, granted, ownIndex(step));
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
    // Made once per validation, not per step (the editor validates every step on each keystroke).
    forEachExpressionNode(expr, this.visitExpression);
  }

  private readonly visitExpression = (e: Expr): void => {
    if (e.kind !== "var" || this.scopes.refer(e.name, e.path, true)) return;
    this.invalid(
      [...e.path, "name"],
      "unbound_variable",
      [e.name],
      `variable ${quoted(e.name)} is not bound here: bind it in an earlier step of this plan or an enclosing one`,
    );
  };

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
    const text = this.capabilityText(needed);
    if (granted.has(text)) return;
    let message = this.deniedMessages.get(text);
    if (message === undefined) {
      message = `this step needs the capability ${text}, which the host does not grant`;
      this.deniedMessages.set(text, message);
    }
    this.report({
      phase: "validate",
      kind: "capability_denied",
      capability: text,
      message,
      path: capabilityPath(step),
      target: "value",
      hostDependent: true,
    });
  }

  private bind(step: Step & { bind: string }): void {
    const earlier = this.scopes.lookup(step.bind);
    // Editors and check hold names to the rule rename keeps; the reference accepts any text,
    // so the runtime (first-error mode) does not.
    const badName = this.options.collectAll === true ? bindingNameProblem(step.bind) : undefined;
    if (badName) {
      this.invalid([...step.path, "bind"], "invalid_binding_name", [step.bind], badName);
    }
    // Bound even when it is a duplicate: later references mean the latest binding.
    const binding = this.scopes.bind(step.bind, step.path, step.op, step);
    if (earlier) {
      const first = this.firstBindings.get(earlier) ?? earlier;
      this.firstBindings.set(binding, first);
      this.invalid(
        [...step.path, "bind"],
        "duplicate_binding",
        [step.bind],
        `${quoted(step.bind)} is already bound in this scope: choose another name`,
        "value",
        [{ path: [...first.stepPath, "bind"], target: "value", message: `${quoted(step.bind)} is first bound here` }],
      );
    }
  }

  estimate(plan: Plan, estimate: Estimate, budget: Budget): void {
    for (const row of costRows(estimate, budget)) {
      if (!row.over) continue;
      this.report({
        phase: "validate",
        kind: "budget_exceeded",
        budget: row.name,
        field: row.field,
        estimated: row.estimate,
        limit: row.limit,
        message: `worst case ${row.label} ${row.estimate} exceeds the budget's ${row.field} of ${row.limit}`,
        path: plan.path,
        target: "value",
        hostDependent: true,
      });
    }
  }
}

/** A step's index in its plan's source `steps`. */
function ownIndex(step: Step): number {
  return step.path[step.path.length - 1] as number;
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
