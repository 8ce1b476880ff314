// Binding names and variable references under the cursor, as the runtime's semantic model
// (`analysis.model`) resolves them: this module only maps between the model's JSON paths and
// the source tree's name tokens. Scopes and resolution are the model's, never restated here.

import type { ModelBinding, ModelReference } from "@rlm-plan/core/plan";
import type { PlanModel } from "@rlm-plan/core";
import type { Node } from "jsonc-parser";
import type { AnalyzedPlan } from "./analyzedPlan";
import { isStepPath, nodeAt, propertyValue, type NodeAtOffset } from "./planTree";

/** The name token under a cursor: a binding's own `"bind"` value, or a variable reference's name. */
export interface NameAtCursor {
  readonly node: Node;
  /** The binding it means: the declaration itself, or what the reference resolves to. */
  readonly binding: ModelBinding | undefined;
  /** Set when the token is a reference's name. */
  readonly reference?: ModelReference;
}

export function modelOf(plan: AnalyzedPlan): PlanModel | undefined {
  return plan.analysis.model;
}

export function nameAtCursor(plan: AnalyzedPlan, at: NodeAtOffset | undefined): NameAtCursor | undefined {
  const model = modelOf(plan);
  if (!model || !at || at.isKey || at.node.type !== "string") return undefined;
  const last = at.path[at.path.length - 1];
  const owner = at.path.slice(0, -1);
  if (last === "bind" && isStepPath(owner)) {
    const binding = model.bindingAt(owner);
    return binding ? { node: at.node, binding } : undefined;
  }
  if (last === "name") {
    const reference = model.referenceAt(owner);
    return reference ? { node: at.node, binding: reference.binding, reference } : undefined;
  }
  return undefined;
}

/** The `"bind"` value token of a binding. */
export function bindingToken(plan: AnalyzedPlan, binding: ModelBinding): Node | undefined {
  return nodeAt(plan.tree, [...binding.stepPath, "bind"]);
}

/** The `"name"` value token of a reference. */
export function referenceToken(plan: AnalyzedPlan, reference: ModelReference): Node | undefined {
  return nodeAt(plan.tree, [...reference.path, "name"]);
}

/** 1-based line of a binding's name, for messages. */
export function bindingLine(plan: AnalyzedPlan, binding: ModelBinding): number {
  const token = bindingToken(plan, binding);
  return token ? plan.document.positionAt(token.offset).line + 1 : 0;
}

/**
 * 1-based lines of many bindings' names (completion lists thousands). Each binding's line is
 * found once per analysed version, when first asked (a completion in a nested plan asks for the
 * few bindings in scope, not the 10,000 of the plan): each plan's `steps` node once, then a step
 * is its index there, not a walk from the root per binding.
 */
export function bindingLines(plan: AnalyzedPlan, bindings: readonly ModelBinding[]): number[] {
  const model = modelOf(plan);
  if (!model) return bindings.map(() => 0);
  let known = modelLines.get(model);
  if (!known) {
    known = { lines: new Map(), stepsNodes: new Map() };
    modelLines.set(model, known);
  }
  const { lines, stepsNodes } = known;
  return bindings.map((binding) => {
    let line = lines.get(binding);
    if (line === undefined) {
      let steps = stepsNodes.get(binding.planPath);
      if (!stepsNodes.has(binding.planPath)) {
        steps = nodeAt(plan.tree, [...binding.planPath, "steps"]);
        stepsNodes.set(binding.planPath, steps);
      }
      const step = steps?.type === "array" ? steps.children?.[binding.index] : undefined;
      const token = step ? propertyValue(step, "bind") : undefined;
      line = token ? plan.document.positionAt(token.offset).line + 1 : 0;
      lines.set(binding, line);
    }
    return line;
  });
}

/** Binding lines by model: a model is one document version, so the lines never go stale. */
const modelLines = new WeakMap<
  PlanModel,
  {
    readonly lines: Map<ModelBinding, number>;
    /** Each plan's `steps` node, by the bindings' `planPath` (one array per plan). */
    readonly stepsNodes: Map<readonly (string | number)[], Node | undefined>;
  }
>();
