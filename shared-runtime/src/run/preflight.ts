// Before the first side effect: the host configuration (inputs, context options) is sane and
// every tool and provider named anywhere in the plan (nested plans, branches, retries) is
// registered.

import { newJsonObject, type JsonObject } from "../json";
import type { Plan } from "../plan/ast";
import { describe, isPlainObject } from "../plan/normalize";
import { detailText } from "../plan/problems";
import { unregisteredNames } from "../plan/unregisteredNames";
import type { PlanError } from "./errors";
import type { RunHost } from "./host";

export type PreflightResult =
  | { readonly ok: true; readonly inputs: ReadonlyMap<string, unknown> }
  | { readonly ok: false; readonly errors: readonly PlanError[] };

/** Checks in the reference's order; `collectAll` lists every unknown name (editors). */
export function preflightPlan(plan: Plan, host: RunHost, collectAll = false): PreflightResult {
  // Left out, there are no inputs; given, even as null, they must be an object.
  const inputs = host.inputs === undefined ? newJsonObject() : host.inputs;
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
  const options = host.contextLimits;
  if (options !== undefined && !isPlainObject(options)) {
    return {
      ok: false,
      errors: [
        {
          phase: "preflight",
          kind: "invalid_runtime",
          reason: "invalid_context_options",
          detail: detailText("invalid_context_options", options),
          message: `the host's context options must be an object (max_results, max_bytes, time_limit), got ${describe(options)}`,
        },
      ],
    };
  }
  const errors = unknownNames(plan, host, collectAll);
  if (errors.length > 0) return { ok: false, errors };
  return { ok: true, inputs: inputMap(inputs) };
}

function unknownNames(plan: Plan, host: RunHost, collectAll: boolean): PlanError[] {
  const registered = {
    tool: (name: string) => host.tools?.has(name) === true,
    provider: (name: string) => host.providers?.has(name) === true,
  };
  // The name's JSON path names the step: every output locates the refusal (file:line:col).
  return unregisteredNames(plan, registered, collectAll ? Infinity : 1).map(({ kind, name, path, message }) => ({
    phase: "preflight",
    kind,
    value: name,
    message,
    path: [...path],
  }));
}

function inputMap(inputs: JsonObject): ReadonlyMap<string, unknown> {
  const map = new Map<string, unknown>();
  for (const key of Object.keys(inputs)) map.set(key, inputs[key]);
  return map;
}
