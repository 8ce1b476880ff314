// Every binding in a plan file and every variable reference, each resolved to the binding it
// names (bindingWalk.ts's rules), and what is in scope at any path: what go to definition, find
// references, rename, the quick fixes, hover and completion share, so every feature agrees on
// what a name means. Built once per analysed tree, on first use.

import type { JsonPath } from "@rlm-plan/shared-runtime";
import type { Node } from "jsonc-parser";
import type { AnalyzedPlan } from "./analyzedPlan";
import { walk, type PlanBinding, type Scope, type VariableReference } from "./bindingWalk";
import { nodeAt, stepPositions } from "./planTree";

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
  /**
   * The variables a reference at `path` could name, in binding order (outermost plan first),
   * each name once with the binding it would resolve to.
   */
  inScopeAt(path: JsonPath): PlanBinding[];
  /** The binding a reference to `name` at `path` resolves to. */
  resolve(path: JsonPath, name: string): PlanBinding | undefined;
}

/** Keyed by the tree's root: the index holds its nodes, and a tree rebuilt from the text is new. */
const indexes = new WeakMap<Node, BindingIndex>();
const NO_TREE = buildIndex(undefined);

/** The index of an analysed document's tree, built on first use and kept while the tree is. */
export function bindingIndex(plan: AnalyzedPlan): BindingIndex {
  const root = plan.tree;
  if (!root) return NO_TREE;
  let index = indexes.get(root);
  if (!index) {
    index = buildIndex(root);
    indexes.set(root, index);
  }
  return index;
}

function buildIndex(root: Node | undefined): BindingIndex {
  const bindings: PlanBinding[] = [];
  const references: VariableReference[] = [];
  const byBinding = new Map<PlanBinding, VariableReference[]>();
  const declarations = new Map<Node, PlanBinding>();
  const referenceNodes = new Map<Node, VariableReference>();
  const scopes = new Map<Node, Scope>();
  /** The innermost walked plan on the way to `path`, and the index of the step `path` is in. */
  const scopeAt = (path: JsonPath): { scope: Scope; cut: number } | undefined => {
    let found: { scope: Scope; cut: number } | undefined;
    for (const position of stepPositions(path)) {
      const planNode = nodeAt(root, position.planPath);
      const scope = planNode && scopes.get(planNode);
      // A "plan" the walk did not enter (under an operation that has none) is no scope.
      if (!scope || scope.parent !== found?.scope) break;
      found = { scope, cut: position.index };
    }
    return found;
  };
  walk(
    root,
    {
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
    },
    (planNode, scope) => scopes.set(planNode, scope),
  );
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
    resolve(path, name) {
      const at = scopeAt(path);
      return at?.scope.visibleBefore(name, at.cut);
    },
    inScopeAt(path) {
      const at = scopeAt(path);
      if (!at) return [];
      const levels: { scope: Scope; cut: number }[] = [];
      for (let level: { scope: Scope; cut: number } | undefined = at; level;) {
        levels.unshift(level);
        const parent: Scope | undefined = level.scope.parent;
        level = parent && { scope: parent, cut: level.scope.ownerIndexInParent };
      }
      const names = new Set<string>();
      for (const { scope, cut } of levels) {
        for (const binding of scope.ordered) {
          if (binding.index >= cut) break;
          names.add(binding.name);
        }
      }
      return [...names].map((name) => at.scope.visibleBefore(name, at.cut) as PlanBinding);
    },
  };
}
