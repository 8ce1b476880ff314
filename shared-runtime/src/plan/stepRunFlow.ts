// The data flow across a run of consecutive steps of one plan, from the semantic model's
// resolved references: what the run reads from before it, and what steps after it read of what
// the run binds. Extracting the run into a sub-plan (or inlining one) asks this, so the scope
// rule stays the model's: a sub-plan sees what its plan bound before it, and its own bindings
// never leak out, so only the bindings read after the run have to come back as its value.

import type { JsonPath } from "../json";
import type { ModelBinding, PlanModel } from "./semanticModel";
import { samePath } from "./stepChain";

export interface StepRunFlow {
  /** Bindings made outside the run (before it) that its steps read, in first-read order. */
  readonly into: readonly ModelBinding[];
  /** Bindings of the run's own steps that something after the run reads, in step order. */
  readonly out: readonly ModelBinding[];
  /** Every binding the run's own steps make (not their sub-plans'), in step order. */
  readonly bound: readonly ModelBinding[];
}

/**
 * The flow across steps `first..last` (source indexes) of the plan at `planPath`. References
 * that resolve to nothing are left out: the validator reports them, and they mean the same
 * wherever the steps go.
 */
export function stepRunFlow(model: PlanModel, planPath: JsonPath, first: number, last: number): StepRunFlow {
  const inRun = (path: JsonPath) => {
    const index = runIndexOf(path, planPath);
    return index !== undefined && index >= first && index <= last;
  };
  const bound = model.bindings.filter(
    (binding) => samePath(binding.planPath, planPath) && binding.index >= first && binding.index <= last,
  );
  const boundSet = new Set(bound);
  const into = new Set<ModelBinding>();
  const out = new Set<ModelBinding>();
  for (const reference of model.references) {
    const binding = reference.binding;
    if (!binding) continue;
    const inside = inRun(reference.path);
    if (inside && !inRun(binding.stepPath)) into.add(binding);
    else if (!inside && boundSet.has(binding)) out.add(binding);
  }
  return { into: [...into], out: bound.filter((binding) => out.has(binding)), bound };
}

/** The source index of the step of the plan at `planPath` that `path` is in (or is). */
function runIndexOf(path: JsonPath, planPath: JsonPath): number | undefined {
  if (path.length < planPath.length + 2 || path[planPath.length] !== "steps") return undefined;
  for (let i = 0; i < planPath.length; i++) if (path[i] !== planPath[i]) return undefined;
  const index = path[planPath.length + 1];
  return typeof index === "number" ? index : undefined;
}
