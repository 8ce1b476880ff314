// What a plan names (tools, providers, inputs, each with its first place): what a run's host
// builds, and what a check compares the mocks against. Apart from startRun.ts so that a static
// check (host/mockNames.ts) loads no interpreter.

import type { JsonPath } from "../json";
import { childPlans, stepExpressions, type Expr, type Plan } from "../plan/ast";

/** What a plan names: the host builds these and nothing else. */
export interface PlanNeeds {
  readonly tools: ReadonlySet<string>;
  readonly providers: ReadonlySet<string>;
  readonly inputs: ReadonlySet<string>;
  /**
   * Where each name is first used in the plan (the step's "name" or "provider", the input
   * reference's "name"): a host's preflight error names its step by this path.
   */
  readonly paths?: {
    readonly tools: ReadonlyMap<string, JsonPath>;
    readonly providers: ReadonlyMap<string, JsonPath>;
    readonly inputs: ReadonlyMap<string, JsonPath>;
  };
}

/** Tools, providers and inputs named anywhere in the plan (nested plans, branches, retries). */
export function planNeeds(plan: Plan): PlanNeeds {
  const tools = new Map<string, JsonPath>();
  const providers = new Map<string, JsonPath>();
  const inputs = new Map<string, JsonPath>();
  const first = (map: Map<string, JsonPath>, name: string, path: JsonPath) => {
    if (!map.has(name)) map.set(name, path);
  };
  const visit = (p: Plan): void => {
    for (const step of p.steps) {
      for (const [, expr] of stepExpressions(step)) {
        for (const { name, path } of inputReferences(expr)) first(inputs, name, path);
      }
      if (step.op === "tool") first(tools, step.name, [...step.path, "name"]);
      if (step.op === "model") first(providers, step.provider, [...step.path, "provider"]);
      childPlans(step).forEach(visit);
    }
  };
  visit(plan);
  return {
    tools: new Set(tools.keys()),
    providers: new Set(providers.keys()),
    inputs: new Set(inputs.keys()),
    paths: { tools, providers, inputs },
  };
}

/** The input references of an expression, in source order, each with its "name" path. */
function inputReferences(expr: Expr): { name: string; path: JsonPath }[] {
  const found: { name: string; path: JsonPath }[] = [];
  const pending: Expr[] = [expr];
  for (let e = pending.pop(); e; e = pending.pop()) {
    if (e.kind === "input") found.push({ name: e.name, path: [...e.path, "name"] });
    else if (e.kind === "field") pending.push(e.base);
    // Pushed last to first one at a time: a literal list may hold a million items (no spread).
    else if (e.kind === "list") for (let i = e.items.length - 1; i >= 0; i--) pending.push(e.items[i] as Expr);
    else if (e.kind === "object") for (let i = e.entries.length - 1; i >= 0; i--) pending.push(e.entries[i]![1]);
  }
  return found;
}
