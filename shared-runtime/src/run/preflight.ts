// Before the first side effect: the host configuration is sane and every tool and provider
// named anywhere in the plan (nested plans, branches, retries) is registered.

import { newJsonObject, type JsonObject } from "../json";
import { childPlans, type Plan } from "../plan/ast";
import { describe, isPlainObject } from "../plan/normalize";
import { detailText, quoted } from "../plan/problems";
import type { PlanError } from "./errors";
import type { RunHost } from "./host";

export type PreflightResult =
  | { readonly ok: true; readonly inputs: ReadonlyMap<string, unknown> }
  | { readonly ok: false; readonly errors: readonly PlanError[] };

/** Checks in the reference's order; `collectAll` lists every unknown name (editors). */
export function preflightPlan(plan: Plan, host: RunHost, collectAll = false): PreflightResult {
  const inputs = host.inputs ?? newJsonObject();
  if (!isPlainObject(inputs)) {
    return {
      ok: false,
      errors: [
        {
          phase: "preflight",
          kind: "invalid_runtime",
          reason: "invalid_field",
          detail: detailText("invalid_field", "inputs", inputs),
          message: `the host's inputs must be an object of named inputs, got ${describe(inputs)}`,
        },
      ],
    };
  }
  const errors = unknownNames(plan, host, collectAll);
  if (errors.length > 0) return { ok: false, errors };
  return { ok: true, inputs: inputMap(inputs) };
}

function unknownNames(plan: Plan, host: RunHost, collectAll: boolean): PlanError[] {
  const errors: PlanError[] = [];
  const visit = (p: Plan): boolean => {
    for (const step of p.steps) {
      if (step.op === "tool" && !host.tools?.has(step.name)) {
        errors.push({
          phase: "preflight",
          kind: "unknown_tool",
          value: step.name,
          message: `the plan calls tool ${quoted(step.name)}, which the host does not register`,
        });
        if (!collectAll) return false;
      } else if (step.op === "model" && !host.providers?.has(step.provider)) {
        errors.push({
          phase: "preflight",
          kind: "unknown_provider",
          value: step.provider,
          message: `the plan calls provider ${quoted(step.provider)}, which the host does not register`,
        });
        if (!collectAll) return false;
      }
      for (const child of childPlans(step)) if (!visit(child)) return false;
    }
    return true;
  };
  visit(plan);
  return errors;
}

function inputMap(inputs: JsonObject): ReadonlyMap<string, unknown> {
  const map = new Map<string, unknown>();
  for (const key of Object.keys(inputs)) map.set(key, inputs[key]);
  return map;
}
