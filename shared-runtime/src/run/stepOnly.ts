// One step of a plan run by itself (`rlm-plan run PLAN --step PATH --bindings JSON`, a test case's
// `step`): the step is found by its path, and the host is built and preflighted for what that
// step alone names, so a plan's other tools and providers need no program or key for it.

import type { JsonPath, JsonValue } from "../json";
import type { Plan, Step } from "../plan/ast";
import { stepChainAt } from "../plan/stepChain";

/** The step to run alone, and the values of the bindings it reads from outside itself. */
export interface StepOnly {
  readonly at: JsonPath;
  readonly bindings: ReadonlyMap<string, JsonValue>;
}

/** The step at `at` as a plan of its own (for the host's needs and the preflight), and how deep it is. */
export interface StepAlone {
  readonly step: Step;
  readonly plan: Plan;
  readonly depth: number;
}

export function stepAlone(root: Plan, at: JsonPath): StepAlone | undefined {
  const chain = stepChainAt(root, at);
  const last = chain?.[chain.length - 1];
  if (!chain || !last) return undefined;
  return { step: last.step, plan: { steps: [last.step], path: last.plan.path }, depth: chain.length };
}
