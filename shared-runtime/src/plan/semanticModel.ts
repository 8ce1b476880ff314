// The semantic model of a plan, as the collect-all validation walk left it: every plan's scope,
// every binding and variable reference (each resolved, or not), each step's worst case (its
// subtree, its plan so far, the whole run so far) and the rows of worst case against budget.
// Editors, the CLI and the client ask it; nothing outside the runtime restates a scope or cost
// rule. Lookups by path are indexed on first use, so a model nobody asks costs little.

import type { JsonPath } from "../json";
import type { Plan, RetryStep, Step } from "./ast";
import type { Budget } from "./budget";
import { costRows, type CostRow } from "./costRows";
import { planNeeds, type PlanUses } from "./needs";
import { addEstimates, estimatePlan, scaleEstimate, type Estimate, type PlanEstimates } from "./estimate";
import type { ModelBinding, ModelReference, PlanScope, ScopeRecord } from "./scopeWalk";
import { ScopeTree, type ScopePosition } from "./scopeTree";
import { samePath, stepChainAt, stepPositions, type StepLink } from "./stepChain";
import { PlanTypes, type TypeHost } from "./types/planTypes";
import { childPlans, expressionsOf, planSteps, stepInputs, type InputReference, type StepExpression } from "./walk";

export type { ModelBinding, ModelReference, PlanScope } from "./scopeWalk";
export type { ScopePosition } from "./scopeTree";

/** A normalized step as the model sees it, from `PlanModel.steps()`. */
export interface StepInModel {
  readonly step: Step;
  /** The step's JSON path (`step.path`). */
  readonly path: JsonPath;
  /** The plan the step is in, and the step's source index there as the cut (what it sees). */
  readonly scope: ScopePosition | undefined;
  /**
   * The variable references in the step's own fields (not in its sub-plans' steps), in walk
   * order, each with the binding it resolves to.
   */
  readonly references: readonly ModelReference[];
}

/** A retry step's worst case: one run of its plan, and every attempt's. */
export interface RetryCost {
  readonly attempts: number;
  readonly perAttempt: Estimate;
  readonly allAttempts: Estimate;
}

export interface StepCost {
  /** Depth the step runs at (the root plan's steps are depth 1). */
  readonly depth: number;
  /** This step and everything under it. */
  readonly subtree: Estimate;
  /** Its own plan from the first step through this one. */
  readonly planSoFar: Estimate;
  /** The whole run when this step finishes for the last time, or undefined when unknown. */
  readonly runSoFar: Estimate | undefined;
  readonly retry?: RetryCost;
}

/**
 * Resolving a reference by scope costs a scan of its plan's bindings back from its place; the
 * index costs a map of every reference. A hover resolves a few, a type check of every field
 * read thousands: past this many, the index.
 */
const RESOLVES_BEFORE_INDEX = 256;

const EMPTY: Estimate = estimatePlan({ steps: [], path: [] });

export class PlanModel {
  readonly scopes: readonly PlanScope[];
  readonly bindings: readonly ModelBinding[];
  readonly references: readonly ModelReference[];
  private scopeIndex: Map<string, PlanScope> | undefined;
  private scopeTree: ScopeTree | undefined;
  private referenceIndex: Map<string, ModelReference> | undefined;
  /** References resolved without the index so far (bindingOfReference). */
  private resolves = 0;
  private referencesIndex: Map<ModelBinding, ModelReference[]> | undefined;
  private stepReferenceIndex: Map<string, ModelReference[]> | undefined;
  private uniqueNames: boolean | undefined;
  private typed: PlanTypes | undefined;
  private uses: PlanUses | undefined;
  /** Every step with its scope and references, as the validator's walk met them (when it went to the end). */
  private readonly walked: readonly StepInModel[] | undefined;

  constructor(
    /** The normalized plan; partial when some steps did not normalize. */
    readonly plan: Plan,
    record: ScopeRecord,
    readonly estimates: PlanEstimates,
    /** The budget in force; undefined when the budget given has problems. */
    readonly budget: Budget | undefined,
  ) {
    this.scopes = record.scopes;
    this.bindings = record.bindings;
    this.references = record.references;
    this.walked = record.steps;
  }

  /** The whole plan's worst case. */
  get total(): Estimate {
    return this.estimates.total;
  }

  /** The normalized step at a step path; undefined when it (or a step around it) did not normalize. */
  stepAt(stepPath: JsonPath): Step | undefined {
    const chain = stepChainAt(this.plan, stepPath);
    return chain?.[chain.length - 1]?.step;
  }

  /**
   * The binding made by the step at `stepPath`: found in its plan's scope (bindings in step
   * order), not through an index of every binding. The first hover after each edit asks it, and
   * a map of 10,000 path strings cost 7 ms (flat) to 35 ms (nested, longer paths) to build.
   */
  bindingAt(stepPath: JsonPath): ModelBinding | undefined {
    const level = this.scopeAt(stepPath);
    if (!level || !samePath(level.scope.planPath, stepPath.slice(0, -2))) return undefined;
    const bindings = level.scope.bindings;
    const at = bindings[countBefore(bindings, level.cut)];
    return at && at.index === level.cut && samePath(at.stepPath, stepPath) ? at : undefined;
  }

  /**
   * The binding the variable reference at `path` (named `name`) means. The walk recorded it
   * (`referenceAt`); the scope rule at that place (`resolve`) gives the same binding without an
   * index of every reference: the first few asks of a model (a hover's types) resolve, and past
   * RESOLVES_BEFORE_INDEX (a check of every field read) the index is built once and read.
   */
  bindingOfReference(path: JsonPath, name: string): ModelBinding | undefined {
    if (this.referenceIndex || ++this.resolves > RESOLVES_BEFORE_INDEX) return this.referenceAt(path)?.binding;
    return this.resolve(path, name);
  }

  /** The variable reference whose `{"ref": "var"}` object is at `path`. */
  referenceAt(path: JsonPath): ModelReference | undefined {
    this.referenceIndex ??= new Map(this.references.map((r) => [pathKey(r.path), r]));
    return this.referenceIndex.get(pathKey(path));
  }

  /** Every reference that means `binding`, in walk order. */
  referencesTo(binding: ModelBinding): readonly ModelReference[] {
    if (!this.referencesIndex) {
      const index = new Map<ModelBinding, ModelReference[]>();
      for (const reference of this.references) {
        if (!reference.binding) continue;
        const list = index.get(reference.binding);
        if (list) list.push(reference);
        else index.set(reference.binding, [reference]);
      }
      this.referencesIndex = index;
    }
    return this.referencesIndex.get(binding) ?? [];
  }

  /**
   * Every normalized step, nested plans included, in source order (a step, then its sub-plans'
   * steps, then the next step): the one walk over steps for the analyses that look at each.
   * Steps that did not normalize, and the steps inside them, are left out.
   */
  steps(): readonly StepInModel[] {
    // A list, not a generator: the analyses walk it on every keystroke, and a generator's
    // results were 4-5 MB of garbage a walk at 60,000 steps.
    if (this.walked) return this.walked;
    this.scopeIndex ??= new Map(this.scopes.map((s) => [pathKey(s.planPath), s]));
    const byStep = this.referencesByStep();
    const steps: StepInModel[] = [];
    for (const { step, plan } of planSteps(this.plan)) {
      const scope = this.scopeIndex.get(pathKey(plan.path));
      // The cut is the step's source index (steps that did not normalize are not in `plan.steps`).
      const index = step.path[step.path.length - 1];
      steps.push({
        step,
        path: step.path,
        scope: scope && typeof index === "number" ? { scope, cut: index } : undefined,
        references: byStep.get(pathKey(step.path)) ?? [],
      });
    }
    return steps;
  }

  /**
   * What the plan asks of a host (needs.ts, the one `planNeeds`): tools, providers and inputs
   * with the path of each one's first use, the capabilities its steps need in order of first
   * use, and the inputs read as contexts. Computed on first ask.
   */
  needs(): PlanUses {
    this.uses ??= planNeeds(this.plan);
    return this.uses;
  }

  /** The expressions a step evaluates itself, with their fields; its sub-plans' are theirs. */
  expressions(step: Step): StepExpression[] {
    return expressionsOf(step);
  }

  /** The input references in a step's own expressions, in source order. */
  inputsOf(step: Step): InputReference[] {
    return stepInputs(step);
  }

  /** References grouped by the innermost step whose fields hold them. */
  private referencesByStep(): Map<string, ModelReference[]> {
    if (!this.stepReferenceIndex) {
      const index = new Map<string, ModelReference[]>();
      for (const reference of this.references) {
        const positions = stepPositions(reference.path);
        const innermost = positions[positions.length - 1];
        if (!innermost) continue;
        const key = pathKey(innermost.stepPath);
        const list = index.get(key);
        if (list) list.push(reference);
        else index.set(key, [reference]);
      }
      this.stepReferenceIndex = index;
    }
    return this.stepReferenceIndex;
  }

  /**
   * The innermost walked plan on the way to `path`, and the index of the step `path` is in
   * (scopeTree.ts: down through the scopes, no index of every plan by path string).
   */
  scopeAt(path: JsonPath): ScopePosition | undefined {
    this.scopeTree ??= new ScopeTree(this.scopes);
    return this.scopeTree.at(path);
  }

  /** The binding a reference to `name` at `path` would mean. */
  resolve(path: JsonPath, name: string): ModelBinding | undefined {
    for (let level = this.scopeAt(path); level; level = outer(level)) {
      // Bindings are in step order: from the last one before the cut back (not from the plan's
      // end: a flat plan's reference near the top would scan 10,000 bindings first).
      const bindings = level.scope.bindings;
      for (let i = countBefore(bindings, level.cut) - 1; i >= 0; i--) {
        const binding = bindings[i] as ModelBinding;
        if (binding.name === name) return binding;
      }
    }
    return undefined;
  }

  /**
   * The variables a reference at `path` could name: each name once (in binding order,
   * outermost plan first) with the binding it would mean there.
   */
  inScopeAt(path: JsonPath): ModelBinding[] {
    const levels: ScopePosition[] = [];
    for (let level = this.scopeAt(path); level; level = outer(level)) levels.unshift(level);
    if (this.namesUnique()) {
      // No name is bound twice anywhere: what is visible is each level's bindings before its cut.
      return levels.flatMap(({ scope, cut }) => scope.bindings.slice(0, countBefore(scope.bindings, cut)));
    }
    const visible = new Map<string, ModelBinding>();
    for (const { scope, cut } of levels) {
      for (const binding of scope.bindings) {
        if (binding.index >= cut) break;
        visible.set(binding.name, binding);
      }
    }
    return [...visible.values()];
  }

  /** True when no name is bound twice in the whole plan (then no binding shadows another). */
  private namesUnique(): boolean {
    if (this.uniqueNames === undefined) {
      this.uniqueNames = new Set(this.bindings.map((b) => b.name)).size === this.bindings.length;
    }
    return this.uniqueNames;
  }

  /**
   * The type of every value the plan names, under what `host` tells (its inputs, providers,
   * tools' result schemas): plan/types/. Kept for the last host asked, each type computed on
   * first ask.
   */
  types(host: TypeHost = {}): PlanTypes {
    if (this.typed?.host !== host) this.typed = new PlanTypes(this, host);
    return this.typed;
  }

  /** The worst-case figures of the step at `stepPath`; undefined when it did not normalize. */
  costAt(stepPath: JsonPath): StepCost | undefined {
    const chain = stepChainAt(this.plan, stepPath);
    const link = chain?.[chain.length - 1];
    // The root plan's steps run at depth 1, and each step on the way down adds one.
    const recorded = link && this.estimates.stepEstimate(link.plan, link.index, chain.length);
    if (!chain || !link || !recorded) return undefined;
    const step = link.step;
    return {
      depth: recorded.depth,
      subtree: recorded.subtree,
      planSoFar: recorded.runningTotal,
      runSoFar: this.runSoFar(chain),
      ...(step.op === "retry" ? { retry: this.retryCost(step, recorded.depth) } : {}),
    };
  }

  /** A retry step's plan once and over every attempt (the runtime's scaling). */
  retryCost(step: RetryStep, depth = stepDepth(step)): RetryCost {
    const perAttempt = this.planTotal(step.plan, depth + 1);
    return { attempts: step.attempts, perAttempt, allAttempts: scaleEstimate(perAttempt, step.attempts) };
  }

  /** A plan's worst case (its last step's running total), at the depth it runs at. */
  planTotal(plan: Plan, depth: number): Estimate {
    return this.estimates.planTotal(plan, depth);
  }

  /** `estimate` against the budget in force (or `budget`); undefined when there is none. */
  rows(estimate: Estimate = this.total, budget: Budget | undefined = this.budget): CostRow[] | undefined {
    return budget ? costRows(estimate, budget) : undefined;
  }

  /**
   * The run's worst case up to and including the chain's last step: everything before it in
   * every enclosing plan, earlier branches, earlier retry attempts, and the step itself.
   */
  private runSoFar(chain: readonly StepLink[]): Estimate | undefined {
    let total: Estimate = EMPTY;
    for (let k = 0; k < chain.length; k++) {
      const { plan, index, step } = chain[k] as StepLink;
      const depth = k + 1;
      const recorded = this.estimates.stepEstimate(plan, index, depth);
      if (!recorded) return undefined;
      if (k === chain.length - 1) return addEstimates(total, recorded.runningTotal);
      const previous = index > 0 ? this.estimates.stepEstimate(plan, index - 1, depth) : undefined;
      if (previous) total = addEstimates(total, previous.runningTotal);
      // The container step itself, before its children: its subtree minus its children.
      const children = childPlans(step);
      const next = chain[k + 1] as StepLink;
      if (children[next.branch] !== next.plan) return undefined;
      const childDepth = depth + 1;
      total = addEstimates(total, containerCost(step, depth));
      if (step.op === "parallel") {
        for (const earlier of children.slice(0, next.branch))
          total = addEstimates(total, this.planTotal(earlier, childDepth));
      } else if (step.op === "retry" && step.attempts > 1) {
        total = addEstimates(total, scaleEstimate(this.planTotal(step.plan, childDepth), step.attempts - 1));
      }
    }
    return undefined;
  }
}

/** The depth a step runs at: one per plan on its path (the root plan's steps are depth 1). */
function stepDepth(step: Step): number {
  let depth = 0;
  for (const segment of step.path) if (segment === "steps") depth++;
  return Math.max(depth, 1);
}

/** A container step's own cost, before its children: the estimator's figure for it with no children. */
function containerCost(step: Step, depth: number): Estimate {
  const bare = estimatePlan({
    steps: [step.op === "parallel" ? { ...step, plans: step.plans.map(() => emptyPlan) } : emptied(step)],
    path: [],
  });
  // estimatePlan counts the root at depth 1; the step runs at `depth`.
  return { ...bare, depth: Math.max(bare.depth, depth + 1) };
}

const emptyPlan: Plan = { steps: [], path: [] };

function emptied(step: Step): Step {
  return step.op === "rlm" || step.op === "retry" ? { ...step, plan: emptyPlan } : step;
}

/** How many of `bindings` (in step order) come from steps before source index `cut`. */
function countBefore(bindings: readonly ModelBinding[], cut: number): number {
  let low = 0;
  let high = bindings.length;
  while (low < high) {
    const mid = (low + high) >> 1;
    if ((bindings[mid] as ModelBinding).index < cut) low = mid + 1;
    else high = mid;
  }
  return low;
}

function outer(level: ScopePosition): ScopePosition | undefined {
  const parent = level.scope.parent;
  return parent && { scope: parent, cut: level.scope.ownerIndex };
}

/** One string per path: numbers and keys are told apart, so `[0]` and `["0"]` differ. */
function pathKey(path: JsonPath): string {
  let key = "";
  for (const segment of path) key += typeof segment === "number" ? `\u0001${segment}` : `\u0002${segment}`;
  return key;
}
