// A plan's scopes as a tree, to find the scope of a place by its JSON path: down from the root
// scope, each level among the sub-plans of the scope above, bisected by the step that owns them.
// No index of every plan by path string: the first hover or completion after each edit asks for
// a scope, and such a map of a nested 10,000-step plan's 1,885 plans cost up to 40 ms to build.

import type { JsonPath } from "../json";
import type { PlanScope } from "./scopeWalk";
import { samePath, stepPositions } from "./stepChain";

/** Where a place of the plan is, scope-wise: the innermost plan and the step index it is at. */
export interface ScopePosition {
  readonly scope: PlanScope;
  /** Bindings of `scope` at source indexes below this are visible. */
  readonly cut: number;
}

export class ScopeTree {
  /** Each scope's sub-plans' scopes in walk order; under `undefined`, the root's. */
  private readonly children = new Map<PlanScope | undefined, PlanScope[]>();

  constructor(scopes: readonly PlanScope[]) {
    for (const scope of scopes) {
      const list = this.children.get(scope.parent);
      if (list) list.push(scope);
      else this.children.set(scope.parent, [scope]);
    }
  }

  /** The innermost walked plan on the way to `path`, and the index of the step `path` is in. */
  at(path: JsonPath): ScopePosition | undefined {
    let found: ScopePosition | undefined;
    for (const position of stepPositions(path)) {
      // A "plan" the walk did not enter (under an operation that has none) is no scope.
      const scope = this.inside(found, position.planPath);
      if (!scope) break;
      found = { scope, cut: position.index };
    }
    return found;
  }

  /** The scope of the plan at `planPath` directly inside `outer` (the root's when there is none). */
  private inside(outer: ScopePosition | undefined, planPath: JsonPath): PlanScope | undefined {
    const candidates = this.children.get(outer?.scope) ?? [];
    // The walk enters sub-plans in step order: bisect to the owner's; else look through them all.
    const owner = outer ? outer.cut : 0;
    let low = 0;
    let high = candidates.length;
    while (low < high) {
      const mid = (low + high) >> 1;
      if ((candidates[mid] as PlanScope).ownerIndex < owner) low = mid + 1;
      else high = mid;
    }
    for (let i = low; i < candidates.length && (candidates[i] as PlanScope).ownerIndex === owner; i++)
      if (samePath((candidates[i] as PlanScope).planPath, planPath)) return candidates[i];
    return candidates.find((scope) => samePath(scope.planPath, planPath));
  }
}
