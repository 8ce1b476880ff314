// The normalized steps on the way to a step's JSON path, found by walking down the AST along
// the path instead of through an index of every step: a plan's steps are in source order (one
// that did not normalize is left out), so the step at source index i is `plan.steps[i]` unless
// an earlier one failed, and then a bisection finds it. A few comparisons per nesting level,
// nothing built per document version. Also which steps a JSON path goes through.

import type { JsonPath } from "../json";
import type { Plan, Step } from "./ast";

/** One step on the way down from the root plan. */
export interface StepLink {
  /** The plan the step is in. */
  readonly plan: Plan;
  /** The step's index in `plan.steps` (not in the source: steps that did not normalize are left out). */
  readonly index: number;
  readonly step: Step;
  /** Which of the previous link's step's child plans `plan` is (0 for the root plan). */
  readonly branch: number;
}

/**
 * The steps from the root plan down to the step at `stepPath`, outermost first; undefined when
 * that step, or a step it is nested in, did not normalize.
 */
export function stepChainAt(root: Plan | undefined, stepPath: JsonPath): StepLink[] | undefined {
  const chain: StepLink[] = [];
  let plan = root;
  let branch = 0;
  let i = 0;
  while (plan && stepPath[i] === "steps") {
    const source = stepPath[i + 1];
    if (typeof source !== "number") return undefined;
    const index = indexOfSource(plan.steps, source);
    const step = plan.steps[index];
    if (!step) return undefined;
    chain.push({ plan, index, step, branch });
    i += 2;
    if (i === stepPath.length) return samePath(step.path, stepPath) ? chain : undefined;
    const key = stepPath[i];
    const next = stepPath[i + 1];
    if (key === "plan" && (step.op === "rlm" || step.op === "retry")) {
      plan = step.plan;
      branch = 0;
      i += 1;
    } else if (key === "plans" && step.op === "parallel" && typeof next === "number") {
      plan = step.plans[next];
      branch = next;
      i += 2;
    } else {
      return undefined;
    }
  }
  return undefined;
}

/** The normalized step at `stepPath`, if it normalized. */
export function stepAt(root: Plan | undefined, stepPath: JsonPath): Step | undefined {
  const chain = stepChainAt(root, stepPath);
  return chain?.[chain.length - 1]?.step;
}

/** Index in `steps` of the step at source index `source`, or -1. */
function indexOfSource(steps: readonly Step[], source: number): number {
  if (sourceIndex(steps[source]) === source) return source;
  let low = 0;
  let high = Math.min(source, steps.length) - 1;
  while (low <= high) {
    const mid = (low + high) >> 1;
    const at = sourceIndex(steps[mid]);
    if (at === source) return mid;
    if (at < source) low = mid + 1;
    else high = mid - 1;
  }
  return -1;
}

function sourceIndex(step: Step | undefined): number {
  const last = step?.path[step.path.length - 1];
  return typeof last === "number" ? last : -1;
}

/** True when two JSON paths are the same, segment by segment. */
export function samePath(a: JsonPath, b: JsonPath): boolean {
  return a.length === b.length && a.every((segment, i) => segment === b[i]);
}

/** A step on the way down to a path: the plan it belongs to and its index there. */
export interface StepPosition {
  readonly planPath: JsonPath;
  readonly index: number;
  readonly stepPath: JsonPath;
}

/** The steps a path goes through, outermost first (the last one is the innermost step). */
export function stepPositions(path: JsonPath): StepPosition[] {
  const positions: StepPosition[] = [];
  let planPath: JsonPath = [];
  let i = 0;
  while (i + 1 < path.length && path[i] === "steps" && typeof path[i + 1] === "number") {
    const index = path[i + 1] as number;
    const stepPath = path.slice(0, i + 2);
    positions.push({ planPath, index, stepPath });
    // Into the step's own sub-plan, if the path goes on into one.
    if (path[i + 2] === "plan") {
      planPath = path.slice(0, i + 3);
      i += 3;
    } else if (path[i + 2] === "plans" && typeof path[i + 3] === "number") {
      planPath = path.slice(0, i + 4);
      i += 4;
    } else {
      break;
    }
  }
  return positions;
}
