// What a plan asks of its host, read in one walk (walk.ts): the tools, providers and inputs it
// names (each with the path of its first use, for located host errors), the capabilities its
// steps need, and which inputs it reads as contexts. A run's host factory builds only these;
// the model's `needs()`, the host-profile template, mocks warnings and test files read the same
// answer. The one `planNeeds`.

import type { JsonPath } from "../json";
import type { Plan } from "./ast";
import { formatCapability, requiredCapability } from "./capabilities";
import { planSteps, stepInputs } from "./walk";

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

/** `planNeeds`' whole answer: the host's needs, and what a profile written for the plan grants. */
export interface PlanUses extends PlanNeeds {
  /** The capabilities the steps need, as the reference writes them, in order of first use. */
  readonly capabilities: readonly string[];
  /** Inputs some context step reads as its handle (a text or item list, not a plain value). */
  readonly contextInputs: ReadonlySet<string>;
  readonly paths: NonNullable<PlanNeeds["paths"]>;
}

/** Tools, providers, inputs and capabilities named anywhere in the plan (nested plans, branches, retries). */
export function planNeeds(plan: Plan): PlanUses {
  const tools = new Map<string, JsonPath>();
  const providers = new Map<string, JsonPath>();
  const inputs = new Map<string, JsonPath>();
  const capabilities = new Set<string>();
  const contextInputs = new Set<string>();
  const first = (map: Map<string, JsonPath>, name: string, path: JsonPath) => {
    if (!map.has(name)) map.set(name, path);
  };
  for (const { step } of planSteps(plan)) {
    const capability = requiredCapability(step);
    if (capability) capabilities.add(formatCapability(capability));
    for (const input of stepInputs(step)) {
      first(inputs, input.name, input.path);
      if (input.asContext) contextInputs.add(input.name);
    }
    if (step.op === "tool") first(tools, step.name, [...step.path, "name"]);
    if (step.op === "model") first(providers, step.provider, [...step.path, "provider"]);
  }
  return {
    tools: new Set(tools.keys()),
    providers: new Set(providers.keys()),
    inputs: new Set(inputs.keys()),
    capabilities: [...capabilities],
    contextInputs,
    paths: { tools, providers, inputs },
  };
}
