// Every binding in a plan file and every variable reference, each resolved to the binding it
// names: what go to definition, find references, rename and the rename quick fix share. It reads
// the source tree (half-typed and broken steps still bind and refer) in the validator's order:
// a step's expressions, then its sub-plans, then its own binding; sub-plans see the enclosing
// scope and their bindings never leak out. A name bound again in scope (an error the validator
// reports) shadows the earlier binding from there on, so "rename this one" has a meaning.

import type { JsonPath } from "@rlm-plan/shared-runtime";
import type { Node } from "jsonc-parser";
import type { AnalyzedPlan } from "./analyzedPlan";
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

/** The binding or reference whose name token is under a cursor. */
export interface BindingSymbol {
  readonly binding: PlanBinding;
  /** The token under the cursor: the binding's own name, or a reference's. */
  readonly node: Node;
  readonly reference?: VariableReference;
}

export interface BindingIndex {
  readonly bindings: readonly PlanBinding[];
  readonly references: readonly VariableReference[];
  referencesOf(binding: PlanBinding): readonly VariableReference[];
  /** The binding at a name token (declaration or resolved reference); undefined elsewhere. */
  symbolAt(node: Node): BindingSymbol | undefined;
  /** A reference at a name token, resolved or not. */
  referenceAt(node: Node): VariableReference | undefined;
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

class Scope implements ScopeView {
  private readonly own = new Map<string, PlanBinding>();
  constructor(private readonly parent: Scope | undefined) {}
  lookup(name: string): PlanBinding | undefined {
    return this.own.get(name) ?? this.parent?.lookup(name);
  }
  add(binding: PlanBinding): void {
    this.own.set(binding.name, binding);
  }
}

/** Walks the plan in scope order, calling the visitor at every binding and reference. */
export function walkBindings(root: Node | undefined, visitor: BindingVisitor): void {
  if (root?.type === "object") walkPlan(root, [], new Scope(undefined), visitor);
}

function walkPlan(planNode: Node, planPath: JsonPath, parent: Scope | undefined, visitor: BindingVisitor): void {
  const steps = propertyValue(planNode, "steps");
  if (steps?.type !== "array") return;
  const scope = new Scope(parent);
  (steps.children ?? []).forEach((stepNode, index) => {
    if (stepNode.type !== "object") return;
    const stepPath = [...planPath, "steps", index];
    const op = stringProperty(stepNode, "op");
    const known = op !== undefined && Object.hasOwn(EXPRESSION_KEYS, op);
    for (const key of known ? (EXPRESSION_KEYS[op] ?? []) : ANY_EXPRESSION_KEYS) {
      const expr = propertyValue(stepNode, key);
      if (expr) walkExpression(expr, [...stepPath, key], scope, visitor);
    }
    if (!known || op === "rlm" || op === "retry") {
      const sub = propertyValue(stepNode, "plan");
      if (sub?.type === "object") walkPlan(sub, [...stepPath, "plan"], scope, visitor);
    }
    if (!known || op === "parallel") {
      const branches = propertyValue(stepNode, "plans");
      if (branches?.type === "array") {
        (branches.children ?? []).forEach((branch, i) => {
          if (branch.type === "object") walkPlan(branch, [...stepPath, "plans", i], scope, visitor);
        });
      }
    }
    const nameNode = propertyValue(stepNode, "bind");
    if (op !== "checkpoint" && op !== "final" && nameNode?.type === "string" && typeof nameNode.value === "string") {
      const binding: PlanBinding = { name: nameNode.value, nameNode, stepPath, planPath, index, op };
      visitor.declare?.(binding, scope);
      scope.add(binding);
    }
  });
}

/** The expression forms of the normalizer: lists, references, objects of expressions, literals. */
function walkExpression(node: Node, path: JsonPath, scope: Scope, visitor: BindingVisitor): void {
  if (node.type === "array") {
    (node.children ?? []).forEach((item, i) => walkExpression(item, [...path, i], scope, visitor));
    return;
  }
  if (node.type !== "object") return;
  const ref = propertyValue(node, "ref");
  if (ref === undefined) {
    for (const property of node.children ?? []) {
      const [key, value] = property.children ?? [];
      if (value && typeof key?.value === "string") walkExpression(value, [...path, key.value], scope, visitor);
    }
    return;
  }
  if (ref.value === "var") {
    const nameNode = propertyValue(node, "name");
    if (nameNode?.type === "string" && typeof nameNode.value === "string") {
      visitor.reference?.({ name: nameNode.value, nameNode, path, binding: scope.lookup(nameNode.value) }, scope);
    }
  } else if (ref.value === "field") {
    const base = propertyValue(node, "value");
    if (base) walkExpression(base, [...path, "value"], scope, visitor);
  }
}

const indexes = new WeakMap<AnalyzedPlan, BindingIndex>();

/** The index of an analysed document, built on first use and kept with the analysis. */
export function bindingIndex(plan: AnalyzedPlan): BindingIndex {
  let index = indexes.get(plan);
  if (!index) {
    index = buildIndex(plan.tree);
    indexes.set(plan, index);
  }
  return index;
}

function buildIndex(root: Node | undefined): BindingIndex {
  const bindings: PlanBinding[] = [];
  const references: VariableReference[] = [];
  const byBinding = new Map<PlanBinding, VariableReference[]>();
  const declarations = new Map<Node, PlanBinding>();
  const referenceNodes = new Map<Node, VariableReference>();
  walkBindings(root, {
    declare(binding) {
      bindings.push(binding);
      byBinding.set(binding, []);
      declarations.set(binding.nameNode, binding);
    },
    reference(reference) {
      references.push(reference);
      referenceNodes.set(reference.nameNode, reference);
      if (reference.binding) byBinding.get(reference.binding)?.push(reference);
    },
  });
  return {
    bindings,
    references,
    referencesOf: (binding) => byBinding.get(binding) ?? [],
    referenceAt: (node) => referenceNodes.get(node),
    symbolAt(node) {
      const declared = declarations.get(node);
      if (declared) return { binding: declared, node };
      const reference = referenceNodes.get(node);
      return reference?.binding ? { binding: reference.binding, node, reference } : undefined;
    },
  };
}
