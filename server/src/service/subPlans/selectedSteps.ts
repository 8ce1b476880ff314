// Which steps a selection means, read from the jsonc tree: the innermost plan whose `steps`
// list holds the whole selection, and the consecutive steps of that list the selection touches.
// A selection inside one step's sub-plan means steps of that sub-plan, never the step around it.

import { getNodePath, type Node } from "jsonc-parser";
import type { JsonPath } from "@rlm-plan/core";
import { propertyValue } from "../planTree";

export interface StepRun {
  /** The plan the steps are in. */
  readonly planPath: JsonPath;
  /** The plan's `steps` list. */
  readonly list: Node;
  /** Source indexes of the first and last step of the run. */
  readonly first: number;
  readonly last: number;
}

/** The steps of one plan that `[start, end)` touches; undefined outside any plan's steps. */
export function stepRunAt(root: Node | undefined, start: number, end: number): StepRun | undefined {
  let plan = root;
  let found: { plan: Node; list: Node } | undefined;
  while (plan) {
    const list = propertyValue(plan, "steps");
    if (list?.type !== "array" || !(list.offset < start && end <= list.offset + list.length)) break;
    found = { plan, list };
    plan = subPlanHolding(list, start, end);
  }
  if (!found) return undefined;
  const steps = found.list.children ?? [];
  const first = steps.findIndex((step) => step.offset + step.length > start);
  let last = -1;
  for (let i = steps.length - 1; i >= 0; i--) {
    if ((steps[i] as Node).offset < Math.max(end, start + 1)) {
      last = i;
      break;
    }
  }
  if (first < 0 || last < first) return undefined;
  return { planPath: getNodePath(found.plan), list: found.list, first, last };
}

/** The sub-plan of one of `list`'s steps whose `steps` hold `[start, end)`, if any. */
function subPlanHolding(list: Node, start: number, end: number): Node | undefined {
  for (const step of list.children ?? []) {
    if (step.offset > start || step.offset + step.length < end) continue;
    const plans = [propertyValue(step, "plan"), ...(propertyValue(step, "plans")?.children ?? [])];
    for (const plan of plans) {
      const steps = propertyValue(plan, "steps");
      if (steps && steps.offset < start && end <= steps.offset + steps.length) return plan;
    }
  }
  return undefined;
}

/** The innermost step whose text holds `offset`, with its plan; undefined outside any step. */
export function stepAtOffset(root: Node | undefined, offset: number): { run: StepRun; step: Node } | undefined {
  const run = stepRunAt(root, offset, offset);
  const step = run?.list.children?.[run.first];
  if (!run || !step || step.offset > offset || offset > step.offset + step.length) return undefined;
  return { run, step };
}
