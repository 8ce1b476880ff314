// Before the first side effect: the host configuration (inputs, context options) is sane and
// every tool and provider named anywhere in the plan (nested plans, branches, retries) is
// registered.

import { newJsonObject, type JsonObject, type JsonPath } from "../json";
import { childPlans, type Expr, type Plan, type Step } from "../plan/ast";
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
  return unregisteredNames(plan, registered, collectAll ? Infinity : 1).map(({ kind, name, message }) => ({
    phase: "preflight",
    kind,
    value: name,
    message,
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
  const inputs = (expr: Expr | undefined): void => {
    if (expr === undefined || registered.input === undefined) return;
    const pending: Expr[] = [expr];
    for (let e = pending.pop(); e; e = pending.pop()) {
      if (e.kind === "input" && !registered.input(e.name)) {
        found.push({
          kind: "undeclared_input",
          name: e.name,
          path: [...e.path, "name"],
          message: `the plan reads input ${quoted(e.name)}, which the host profile does not declare under "inputs"`,
        });
      } else if (e.kind === "field") pending.push(e.base);
      // Pushed one by one, last first: a spread of a 130,000-item list overflows the call stack.
      else if (e.kind === "list") for (let k = e.items.length - 1; k >= 0; k--) pending.push(e.items[k]!);
      else if (e.kind === "object") for (let k = e.entries.length - 1; k >= 0; k--) pending.push(e.entries[k]![1]);
    }
  };
  const visit = (p: Plan): boolean => {
    for (const step of p.steps) {
      inputs(stepExpression(step));
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
      if (found.length >= limit) return false;
      for (const child of childPlans(step)) if (!visit(child)) return false;
    }
    return true;
  };
  visit(plan);
  return found;
}

/** The expression a step evaluates, if any. */
function stepExpression(step: Step): Expr | undefined {
  switch (step.op) {
    case "context":
      return step.handle;
    case "model":
      return step.prompt;
    case "tool":
      return step.args;
    case "final":
      return step.value;
    default:
      return undefined;
  }
}

function inputMap(inputs: JsonObject): ReadonlyMap<string, unknown> {
  const map = new Map<string, unknown>();
  for (const key of Object.keys(inputs)) map.set(key, inputs[key]);
  return map;
}
