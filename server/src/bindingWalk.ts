// Every binding in a plan file and every variable reference, walked in the validator's order:
// a step's expressions, then its sub-plans, then its own binding; sub-plans see the enclosing
// scope and their bindings never leak out. It reads the source tree (half-typed and broken
// steps still bind and refer). A name bound again in scope (an error the validator reports)
// shadows the earlier binding from there on, so "rename this one" has a meaning. Each plan's
// scope stays answerable after the walk, for bindingIndex.ts's queries at any path.

import type { JsonPath } from "@rlm-plan/shared-runtime";
import type { Node } from "jsonc-parser";
import { propertyValue, stringProperty } from "./planTree";

export interface PlanBinding {
  readonly name: string;
  /** The `"bind"` value's string token. */
  readonly nameNode: Node;
  readonly stepPath: JsonPath;
  /** The plan the step is in, and the step's index there. */
  readonly planPath: JsonPath;
  readonly index: number;
  /** The step's `op`, when it is a string. */
  readonly op: string | undefined;
}

export interface VariableReference {
  readonly name: string;
  /** The `"name"` value's string token of `{"ref": "var", "name": ...}`. */
  readonly nameNode: Node;
  /** Path of the reference object. */
  readonly path: JsonPath;
  /** The binding in scope under that name, if any. */
  readonly binding: PlanBinding | undefined;
}

/** The bindings visible at one place of the walk (the innermost plan's, then its parents'). */
export interface ScopeView {
  lookup(name: string): PlanBinding | undefined;
}

export interface BindingVisitor {
  /** A step binds a name; `scope` is what it sees before its own binding is added. */
  declare?(binding: PlanBinding, scope: ScopeView): void;
  reference?(reference: VariableReference, scope: ScopeView): void;
}

/** Which keys of a step hold expressions, by operation; an unknown op may hold any of them. */
const EXPRESSION_KEYS: Readonly<Record<string, readonly string[]>> = {
  context: ["handle"],
  model: ["prompt"],
  tool: ["args"],
  final: ["value"],
  rlm: [],
  parallel: [],
  retry: [],
  checkpoint: [],
  spawn_agent: [],
};
const ANY_EXPRESSION_KEYS = ["handle", "prompt", "args", "value"];

/**
 * One plan's bindings, kept after the walk: what is visible before its step `cut` is the latest
 * binding there of the name, else what the enclosing plan sees before the step that owns this
 * plan (`ownerIndexInParent`). During the walk a plan holds only the bindings of the steps
 * walked so far, so `lookup` is simply "the latest".
 */
export class Scope implements ScopeView {
  /** The plan's bindings in step order. */
  readonly ordered: PlanBinding[] = [];
  /** Every binding of each name in step order (more than one is an error the validator reports). */
  private readonly byName = new Map<string, PlanBinding[]>();
  constructor(
    readonly parent: Scope | undefined,
    readonly ownerIndexInParent: number,
  ) {}
  lookup(name: string): PlanBinding | undefined {
    return this.visibleBefore(name, Infinity);
  }
  visibleBefore(name: string, cut: number): PlanBinding | undefined {
    const bound = this.byName.get(name) ?? [];
    for (let i = bound.length - 1; i >= 0; i--) {
      const binding = bound[i] as PlanBinding;
      if (binding.index < cut) return binding;
    }
    return this.parent?.visibleBefore(name, this.ownerIndexInParent);
  }
  add(binding: PlanBinding): void {
    this.ordered.push(binding);
    const bound = this.byName.get(binding.name);
    if (bound) bound.push(binding);
    else this.byName.set(binding.name, [binding]);
  }
}

/** Walks the plan in scope order, calling the visitor at every binding and reference. */
export function walkBindings(root: Node | undefined, visitor: BindingVisitor): void {
  walk(root, visitor, () => undefined);
}

/** The walk, also telling `planScope` which scope belongs to each plan node. */
export function walk(
  root: Node | undefined,
  visitor: BindingVisitor,
  planScope: (plan: Node, scope: Scope) => void,
): void {
  if (root?.type === "object") walkPlan(root, undefined, undefined, 0, visitor, planScope);
}

/**
 * A JSON path built one segment per level as the walk goes down, spelled out only when read
 * (few are): copying the path at every step and expression node was most of the walk's cost.
 */
interface PathLink {
  readonly parent: PathLink | undefined;
  readonly key: string | number;
}

function spelled(link: PathLink | undefined): JsonPath {
  const path: (string | number)[] = [];
  for (let at = link; at; at = at.parent) path.push(at.key);
  return path.reverse();
}

class Binding implements PlanBinding {
  constructor(
    readonly name: string,
    readonly nameNode: Node,
    readonly index: number,
    readonly op: string | undefined,
    private readonly plan: PathLink | undefined,
  ) {}
  get planPath(): JsonPath {
    return spelled(this.plan);
  }
  get stepPath(): JsonPath {
    return [...this.planPath, "steps", this.index];
  }
}

class Reference implements VariableReference {
  constructor(
    readonly name: string,
    readonly nameNode: Node,
    readonly binding: PlanBinding | undefined,
    private readonly at: PathLink,
  ) {}
  get path(): JsonPath {
    return spelled(this.at);
  }
}

function walkPlan(
  planNode: Node,
  planPath: PathLink | undefined,
  parent: Scope | undefined,
  ownerIndex: number,
  visitor: BindingVisitor,
  planScope: (plan: Node, scope: Scope) => void,
): void {
  const steps = propertyValue(planNode, "steps");
  if (steps?.type !== "array") return;
  const scope = new Scope(parent, ownerIndex);
  planScope(planNode, scope);
  const stepsPath: PathLink = { parent: planPath, key: "steps" };
  const stepNodes = steps.children ?? [];
  for (let index = 0; index < stepNodes.length; index++) {
    const stepNode = stepNodes[index] as Node;
    if (stepNode.type !== "object") continue;
    const stepPath: PathLink = { parent: stepsPath, key: index };
    const op = stringProperty(stepNode, "op");
    const known = op !== undefined && Object.hasOwn(EXPRESSION_KEYS, op);
    for (const key of known ? (EXPRESSION_KEYS[op] ?? []) : ANY_EXPRESSION_KEYS) {
      const expr = propertyValue(stepNode, key);
      if (expr) walkExpression(expr, { parent: stepPath, key }, scope, visitor);
    }
    if (!known || op === "rlm" || op === "retry") {
      const sub = propertyValue(stepNode, "plan");
      if (sub?.type === "object") walkPlan(sub, { parent: stepPath, key: "plan" }, scope, index, visitor, planScope);
    }
    if (!known || op === "parallel") {
      const branches = propertyValue(stepNode, "plans");
      if (branches?.type === "array") {
        const plansPath: PathLink = { parent: stepPath, key: "plans" };
        (branches.children ?? []).forEach((branch, i) => {
          if (branch.type === "object")
            walkPlan(branch, { parent: plansPath, key: i }, scope, index, visitor, planScope);
        });
      }
    }
    const nameNode = propertyValue(stepNode, "bind");
    if (op !== "checkpoint" && op !== "final" && nameNode?.type === "string" && typeof nameNode.value === "string") {
      const binding = new Binding(nameNode.value, nameNode, index, op, planPath);
      visitor.declare?.(binding, scope);
      scope.add(binding);
    }
  }
}

/** The expression forms of the normalizer: lists, references, objects of expressions, literals. */
function walkExpression(node: Node, path: PathLink, scope: Scope, visitor: BindingVisitor): void {
  if (node.type === "array") {
    (node.children ?? []).forEach((item, i) => walkExpression(item, { parent: path, key: i }, scope, visitor));
    return;
  }
  if (node.type !== "object") return;
  const ref = propertyValue(node, "ref");
  if (ref === undefined) {
    for (const property of node.children ?? []) {
      const [key, value] = property.children ?? [];
      if (value && typeof key?.value === "string")
        walkExpression(value, { parent: path, key: key.value }, scope, visitor);
    }
    return;
  }
  if (ref.value === "var") {
    const nameNode = propertyValue(node, "name");
    if (nameNode?.type === "string" && typeof nameNode.value === "string") {
      const name = nameNode.value;
      visitor.reference?.(new Reference(name, nameNode, scope.lookup(name), path), scope);
    }
  } else if (ref.value === "field") {
    const base = propertyValue(node, "value");
    if (base) walkExpression(base, { parent: path, key: "value" }, scope, visitor);
  }
}
