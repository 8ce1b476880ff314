// Worst-case cost of a plan, with the reference's arithmetic: the root plan is depth 1; a leaf
// step costs one step (and one of its counter) at its depth; rlm, parallel and retry cost one
// step at depth+1 plus their children at depth+1; retry multiplies its child's steps and call
// counts by its attempts; parallel width is the widest step anywhere. Counts are exact
// (`Count`): numbers, or bigints beyond 2^53.

import type { ModelStep, Plan, Step } from "./ast";
import type { Budget } from "./budget";
import { addCounts, multiplyCounts, type Count } from "./count";
import { roundMoney } from "./modelCost";
import { planSteps } from "./walk";

export type { Count } from "./count";

export interface Estimate {
  readonly steps: Count;
  readonly depth: number;
  readonly parallel_width: number;
  readonly model_calls: Count;
  readonly tool_calls: Count;
  readonly context_ops: Count;
}

export type EstimateCounter = "model_calls" | "tool_calls" | "context_ops";

export interface StepEstimate {
  /** Depth the step runs at (the root plan's steps are depth 1). */
  readonly depth: number;
  /** Worst case of this step and everything under it. */
  readonly subtree: Estimate;
  /** Worst case of the step's own plan from its first step up to and including this one. */
  readonly runningTotal: Estimate;
}

export interface PlanEstimates {
  readonly total: Estimate;
  /**
   * Every step's estimate: a map of the whole plan, built on first ask (the CLI's report counts
   * it). The editor asks the figures below instead, for the steps it shows.
   */
  readonly steps: ReadonlyMap<Step, StepEstimate>;
  /** The worst case of `plan`, whose steps run at `depth` (a sub-plan's is computed once). */
  planTotal(plan: Plan, depth: number): Estimate;
  /** The estimate of `plan.steps[index]`, whose steps run at `depth`; undefined past the end. */
  stepEstimate(plan: Plan, index: number, depth: number): StepEstimate | undefined;
}

const ZERO: Estimate = zeroAt(1);

/**
 * Every estimate is made by one literal of this shape, never by a spread: an object spread gives
 * objects of other hidden classes, and `addEstimates` fed by several of them ran the nested
 * 10,000-step plan's estimate in 5.6 ms instead of 0.3 (issue 34 item 11).
 */
function estimateOf(
  steps: Count,
  depth: number,
  parallel_width: number,
  model_calls: Count,
  tool_calls: Count,
  context_ops: Count,
): Estimate {
  return { steps, depth, parallel_width, model_calls, tool_calls, context_ops };
}

function zeroAt(depth: number): Estimate {
  return estimateOf(0, depth, 0, 0, 0, 0);
}

export function estimatePlan(plan: Plan): Estimate {
  return estimateAt(plan, 1, undefined);
}

/**
 * The whole plan's estimate, and each step's (what the editor shows on hover, code lens and
 * inlay hints) computed on ask: an analysis per keystroke never pays for figures nobody reads.
 * A step's figures need only the sub-plans under it and the steps before it in its own plan:
 * the first hover after an edit computes those, not a map of every step (10,000 steps: 10-15 ms
 * and 30,000 objects, the garbage of each keystroke). Sub-plans' totals and each plan's running
 * totals are kept once computed, for the rest of this analysis.
 */
export function estimateEachStep(plan: Plan): PlanEstimates {
  return new OnDemandEstimates(plan);
}

class OnDemandEstimates implements PlanEstimates {
  readonly total: Estimate;
  private all: Map<Step, StepEstimate> | undefined;
  private readonly totals = new Map<Plan, Estimate>();
  /** Each asked plan's running totals: `[i]` is steps 0..i's worst case; filled up to the step asked. */
  private readonly running = new Map<Plan, Estimate[]>();
  private readonly childTotal = (child: Plan, depth: number): Estimate => this.planTotal(child, depth);

  constructor(private readonly root: Plan) {
    this.total = estimateAt(root, 1, undefined);
    this.totals.set(root, this.total);
  }

  get steps(): ReadonlyMap<Step, StepEstimate> {
    if (!this.all) {
      this.all = new Map();
      estimateAt(this.root, 1, this.all);
    }
    return this.all;
  }

  planTotal(plan: Plan, depth: number): Estimate {
    let total = this.totals.get(plan);
    if (!total) {
      const running = this.runningTotals(plan, depth, plan.steps.length - 1);
      total = running[plan.steps.length - 1] ?? zeroAt(depth);
      this.totals.set(plan, total);
    }
    return total;
  }

  stepEstimate(plan: Plan, index: number, depth: number): StepEstimate | undefined {
    const step = plan.steps[index];
    if (!step || index < 0) return undefined;
    const runningTotal = this.runningTotals(plan, depth, index)[index] as Estimate;
    return { depth, subtree: estimateStep(step, depth, this.childTotal), runningTotal };
  }

  private runningTotals(plan: Plan, depth: number, through: number): Estimate[] {
    let running = this.running.get(plan);
    if (!running) {
      running = [];
      this.running.set(plan, running);
    }
    let total = running[running.length - 1] ?? zeroAt(depth);
    for (let i = running.length; i <= through; i++) {
      total = addEstimates(total, estimateStep(plan.steps[i] as Step, depth, this.childTotal));
      running.push(total);
    }
    return running;
  }
}

function estimateAt(plan: Plan, depth: number, record: Map<Step, StepEstimate> | undefined): Estimate {
  if (!record) return totalAt(plan, depth);
  const child = (sub: Plan, subDepth: number): Estimate => estimateAt(sub, subDepth, record);
  let total: Estimate = zeroAt(depth);
  for (const step of plan.steps) {
    const subtree = estimateStep(step, depth, child);
    total = addEstimates(total, subtree);
    record?.set(step, { depth, subtree, runningTotal: total });
  }
  return total;
}

/**
 * estimateAt's total without the steps' figures: the plan's leaf steps are counted, then added
 * once, not summed an object at a time (two objects a step: 8 MB of garbage at 60,000 steps, on
 * each keystroke). Sums are exact and order-free, so the total is estimateAt's.
 */
function totalAt(plan: Plan, depth: number): Estimate {
  let total: Estimate = zeroAt(depth);
  const counts = { steps: 0, model_calls: 0, tool_calls: 0, context_ops: 0 };
  // Indexed: a loop that runs once per analysis stays in the interpreter, where `for...of`
  // makes an iterator result a step.
  for (let k = 0; k < plan.steps.length; k++) {
    const step = plan.steps[k] as Step;
    if (!isLeaf(step)) {
      total = addEstimates(total, estimateStep(step, depth, totalAt));
      continue;
    }
    counts.steps++;
    const counter = LEAF_COUNTERS[step.op];
    if (counter) counts[counter]++;
  }
  if (counts.steps === 0) return total;
  const own = estimateOf(counts.steps, depth, 0, counts.model_calls, counts.tool_calls, counts.context_ops);
  return addEstimates(total, own);
}

/** The one cost rule of a step: its own figure plus its sub-plans' (`childTotal`, at depth+1). */
function estimateStep(step: Step, depth: number, childTotal: (plan: Plan, depth: number) => Estimate): Estimate {
  if (isLeaf(step)) return leaf(depth, LEAF_COUNTERS[step.op]);
  switch (step.op) {
    case "rlm":
      return addEstimates(leaf(depth + 1), childTotal(step.plan, depth + 1));
    case "parallel": {
      let branches: Estimate = ZERO;
      for (const branch of step.plans) branches = addEstimates(branches, childTotal(branch, depth + 1));
      return addEstimates(estimateOf(1, depth + 1, step.plans.length, 0, 0, 0), branches);
    }
    case "retry":
      return addEstimates(leaf(depth + 1), scaleEstimate(childTotal(step.plan, depth + 1), childRuns(step)));
  }
}

/** How many times a step's sub-plans may run each time it runs: a retry's attempts, else once. */
export function childRuns(step: Step): number {
  return step.op === "retry" ? step.attempts : 1;
}

/** A plan's worst case in money: each model call's worst cost, times the times it may run. */
export interface MoneyEstimate {
  /** The sum over priced calls, in the host's currency. */
  readonly cost: number;
  /** Why some calls have no figure (no price, no max_tokens), one reason each, in walk order: then `cost` is not the worst case. */
  readonly unpriced: readonly string[];
}

/**
 * The count walk's rule in money: a model step may run as often as `worstCaseRuns()` says, and each
 * run costs at most `callCost(step)` (undefined with a reason when it has no figure).
 */
export function estimateMoney(
  plan: Plan,
  callCost: (step: ModelStep) => { readonly cost: number } | { readonly unpriced: string },
): MoneyEstimate {
  let cost = 0;
  const unpriced: string[] = [];
  for (const [step, times] of worstCaseRuns(plan, (step) => step.op === "model")) {
    const one = callCost(step as ModelStep);
    if ("cost" in one) cost += Number(times) * one.cost;
    else if (!unpriced.includes(one.unpriced)) unpriced.push(one.unpriced);
  }
  return { cost: roundMoney(cost), unpriced };
}

/**
 * How many times, at worst, each leaf step `counted` picks runs: the cost rule above applied to
 * them alone (each sub-plan once, every parallel branch, a retry's plan times its attempts), in
 * one pass. Summed over the plan's tool steps it is the estimate's tool_calls. The approvals a
 * plan can ask for at worst (host/approvalSteps.ts).
 */
export function worstCaseRuns(plan: Plan, counted: (step: Step) => boolean): Map<Step, Count> {
  const found = new Map<Step, Count>();
  // Read off the one walk: it yields a step's sub-plans right after it, so `runs[depth + 1]` holds
  // for them (each branch of a parallel, a retry's plan times its attempts).
  const runs: Count[] = [1];
  for (const { step, depth } of planSteps(plan)) {
    const times = runs[depth] as Count;
    runs[depth + 1] = multiplyCounts(times, childRuns(step));
    if (isLeaf(step) && counted(step)) found.set(step, times);
  }
  return found;
}

type LeafStep = Extract<Step, { readonly op: "context" | "model" | "tool" | "checkpoint" | "final" }>;

/** The one leaf rule: a leaf step costs one step at its depth and one of this counter, if any. */
const LEAF_COUNTERS: { readonly [op in LeafStep["op"]]: EstimateCounter | undefined } = {
  context: "context_ops",
  model: "model_calls",
  tool: "tool_calls",
  checkpoint: undefined,
  final: undefined,
};

function isLeaf(step: Step): step is LeafStep {
  return step.op in LEAF_COUNTERS;
}

function leaf(depth: number, counter?: EstimateCounter): Estimate {
  return estimateOf(
    1,
    depth,
    0,
    counter === "model_calls" ? 1 : 0,
    counter === "tool_calls" ? 1 : 0,
    counter === "context_ops" ? 1 : 0,
  );
}

/** Exact sums (see count.ts). */
export function addEstimates(a: Estimate, b: Estimate): Estimate {
  return estimateOf(
    addCounts(a.steps, b.steps),
    Math.max(a.depth, b.depth),
    Math.max(a.parallel_width, b.parallel_width),
    addCounts(a.model_calls, b.model_calls),
    addCounts(a.tool_calls, b.tool_calls),
    addCounts(a.context_ops, b.context_ops),
  );
}

/** Exact products. Depth and width are not multiplied: attempts run one after another at the same depth. */
export function scaleEstimate(a: Estimate, factor: Count): Estimate {
  return estimateOf(
    multiplyCounts(a.steps, factor),
    a.depth,
    a.parallel_width,
    multiplyCounts(a.model_calls, factor),
    multiplyCounts(a.tool_calls, factor),
    multiplyCounts(a.context_ops, factor),
  );
}

/** Each estimate figure beside the budget field that limits it, in the reference's check order. */
export const ESTIMATE_LIMITS: readonly {
  readonly name: "steps" | "depth" | "parallel" | "model_calls" | "tool_calls" | "context_ops";
  readonly figure: keyof Estimate;
  readonly field: keyof Budget;
  readonly label: string;
}[] = [
  { name: "steps", figure: "steps", field: "max_steps", label: "steps" },
  { name: "depth", figure: "depth", field: "max_depth", label: "depth" },
  { name: "parallel", figure: "parallel_width", field: "max_parallel", label: "parallel width" },
  { name: "model_calls", figure: "model_calls", field: "max_model_calls", label: "model calls" },
  { name: "tool_calls", figure: "tool_calls", field: "max_tool_calls", label: "tool calls" },
  { name: "context_ops", figure: "context_ops", field: "max_context_ops", label: "context operations" },
];
