// Before the first side effect: the host configuration (inputs, context options) is sane and
// every tool and provider named anywhere in the plan (nested plans, branches, retries) is
// registered.

import { newJsonObject, type JsonObject, type JsonPath } from "../json";
import type { Plan } from "../plan/ast";
import { planSteps, stepInputs } from "../plan/walk";
import { describe, isPlainObject } from "../plan/normalize";
import { detailText, quoted } from "../plan/problems";
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

export interface UnregisteredName {
  readonly kind: "unknown_tool" | "unknown_provider" | "undeclared_input";
  readonly name: string;
  /** The name's place in the plan: the step's "name" or "provider", or the input reference. */
  readonly path: JsonPath;
  readonly message: string;
}

/**
 * Tools and providers the plan names that the host does not register, in the order the
 * runtime visits steps (nested plans, branches and retries included): preflight's one rule,
 * which editors and the CLI ask of a host profile's names too. With an `input` predicate (editors
 * and `check`, where a host profile is known), input references the host does not declare are
 * found too: the runtime itself reports those only when it reaches them (missing_input), as the
 * reference does, so a tool step may already have run.
 */
export function unregisteredNames(
  plan: Plan,
  registered: {
    readonly tool: (name: string) => boolean;
    readonly provider: (name: string) => boolean;
    readonly input?: (name: string) => boolean;
  },
  limit = Infinity,
): UnregisteredName[] {
  const found: UnregisteredName[] = [];
  for (const { step } of planSteps(plan)) {
    if (registered.input !== undefined) {
      for (const { name, path } of stepInputs(step)) {
        if (registered.input(name)) continue;
        found.push({
          kind: "undeclared_input",
          name,
          path,
          message: `the plan reads input ${quoted(name)}, which the host profile does not declare under "inputs"`,
        });
      }
    }
    if (step.op === "tool" && !registered.tool(step.name)) {
      found.push({
        kind: "unknown_tool",
        name: step.name,
        path: [...step.path, "name"],
        message: `the plan calls tool ${quoted(step.name)}, which the host does not register`,
      });
    } else if (step.op === "model" && !registered.provider(step.provider)) {
      found.push({
        kind: "unknown_provider",
        name: step.provider,
        path: [...step.path, "provider"],
        message: `the plan calls provider ${quoted(step.provider)}, which the host does not register`,
      });
    }
    if (found.length >= limit) break;
  }
  return found;
}

function inputMap(inputs: JsonObject): ReadonlyMap<string, unknown> {
  const map = new Map<string, unknown>();
  for (const key of Object.keys(inputs)) map.set(key, inputs[key]);
  return map;
}
