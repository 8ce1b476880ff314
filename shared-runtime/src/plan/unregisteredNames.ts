// The names a plan uses that a host does not register: preflight's one rule (run/preflight.ts),
// which the static analysis asks of a host profile's names too. In the plan layer because it
// reads only the plan and the names given; the run and the analysis share it.

import type { JsonPath } from "../json";
import type { Plan } from "./ast";
import { quoted } from "./problems";
import { planSteps, stepInputs } from "./walk";

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
