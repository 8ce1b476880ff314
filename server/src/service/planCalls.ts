// What a plan calls, from the semantic model's one walk over steps: each tool and provider call
// (its name's range, the plan it is made in) and each sub-plan (an `rlm` or `retry` step's plan,
// each branch of a `parallel` step), for the call hierarchy and for the references from a host
// profile's entries. Pure: no connection, no disk.

import type { JsonPath } from "@rlm-plan/core";
import type { Range } from "vscode-languageserver-protocol";
import type { AnalyzedPlan } from "./analyzedPlan";
import { modelOf } from "./planNames";
import { nodeAt } from "./planTree";

/** A registry a plan names: a tool (`tool` steps) or a provider (`model` steps). */
export type CalledKind = "tool" | "provider";

export interface CallSite {
  readonly kind: CalledKind;
  readonly name: string;
  /** The name's string, quotes included. */
  readonly range: Range;
  /** The plan the step is in (`[]` for the root plan). */
  readonly planPath: JsonPath;
}

export interface SubPlan {
  /** The sub-plan's own path: `[...step, "plan"]` or `[...step, "plans", i]`. */
  readonly path: JsonPath;
  /** The plan the step that holds it is in. */
  readonly parentPath: JsonPath;
  /** "rlm → summary", "retry ×3", "parallel branch 2 of 3". */
  readonly name: string;
  /** The holding step, whole (a parallel branch: its plan object). */
  readonly range: Range;
  /** The step's `op` value (a parallel branch: its plan object). */
  readonly selectionRange: Range;
}

export interface PlanCalls {
  readonly calls: readonly CallSite[];
  readonly plans: readonly SubPlan[];
}

/** Every call and sub-plan of the plan, in source order; steps that did not normalize are left out. */
export function planCalls(plan: AnalyzedPlan): PlanCalls {
  const model = modelOf(plan);
  if (!model || !plan.tree) return { calls: [], plans: [] };
  const range = (path: JsonPath): Range | undefined => {
    const node = nodeAt(plan.tree, path);
    return (
      node && { start: plan.document.positionAt(node.offset), end: plan.document.positionAt(node.offset + node.length) }
    );
  };
  const calls: CallSite[] = [];
  const plans: SubPlan[] = [];
  for (const { step, path } of model.steps()) {
    const planPath = path.slice(0, -2);
    if (step.op === "tool" || step.op === "model") {
      const kind: CalledKind = step.op === "tool" ? "tool" : "provider";
      const at = range([...path, step.op === "tool" ? "name" : "provider"]);
      if (at) calls.push({ kind, name: step.op === "tool" ? step.name : step.provider, range: at, planPath });
      continue;
    }
    const whole = range(path);
    const op = range([...path, "op"]);
    if (!whole || !op) continue;
    const sub = (subPath: JsonPath, name: string, at: Range = whole, selected: Range = op) =>
      plans.push({ path: subPath, parentPath: planPath, name, range: at, selectionRange: selected });
    if (step.op === "rlm") sub([...path, "plan"], `rlm${step.bind ? ` → ${step.bind}` : ""}`);
    else if (step.op === "retry") sub([...path, "plan"], `retry ×${step.attempts}`);
    else if (step.op === "parallel")
      step.plans.forEach((_, i) => {
        // A branch is its own plan object: it is where the branch is, told apart from its siblings.
        const branch = range([...path, "plans", i]) ?? whole;
        sub([...path, "plans", i], `parallel branch ${i + 1} of ${step.plans.length}`, branch, branch);
      });
  }
  return { calls, plans };
}
