// Silent caps: a context search, partition or map returns at most max_results items and says
// nothing when it stops there (the reference's behaviour), so a count or a sum of that result
// counts at most max_results items however many there are. This follows each capped result
// through the semantic model's references (into tools that keep a subset of a list, and out of
// sub-plans whose final value it is) to the built-ins that count or add (count_items, sum), and
// reports each such step once, as a hint. Counting an input directly (a context `reduce`) is
// not capped and stays quiet; a `reduce` over a search result cannot run at all (a context
// step's handle must be an input), which the run reports, so it is no silent cap either.

import type { JsonPath } from "../json";
import type { BuiltinToolName } from "./builtinToolNames";
import { builtinOf, DEFAULT_DATA_LIMITS, type DataLimits } from "./dataLimits";
import type { ModelBinding, PlanModel } from "./semanticModel";
import { quoted, type PlanProblem } from "./problems";
import { samePath } from "./stepChain";

export const SILENT_CAP_KIND = "silent_cap";

/** Context actions whose result stops at max_results items, and what each calls its items. */
const CAPPED_ACTIONS: Readonly<Record<string, string>> = { search: "hits", partition: "parts", map: "items" };

/** Built-ins whose result is a number made from every item of their list. */
const COUNTING: Readonly<Partial<Record<BuiltinToolName, string>>> = { count_items: "counts", sum: "adds up" };

/** Built-ins whose result is (a subset of) their list's items: a capped list stays capped. */
const KEEPING: Readonly<Partial<Record<BuiltinToolName, readonly (readonly string[])[]>>> = {
  unique: [["args"]],
  sort: [["args"], ["args", "items"]],
  pick: [["args", "items"]],
};

/** Where a capped value comes from. */
interface Origin {
  /** The context step that made it. */
  readonly stepPath: JsonPath;
  readonly action: string;
  readonly name: string;
}

export interface SilentCap {
  /** The counting tool step. */
  readonly stepPath: JsonPath;
  readonly tool: string;
  readonly builtin: BuiltinToolName;
  /** The binding the count reads. */
  readonly counted: string;
  /** The context step whose result is capped, its action and binding. */
  readonly origin: Origin;
  readonly limit: number;
  readonly limitSource: string;
}

/** Every counting step that reads a capped result, in reference order, each step once. */
export function silentCaps(model: PlanModel, limits: DataLimits = DEFAULT_DATA_LIMITS): SilentCap[] {
  const capped = new Map<ModelBinding, Origin>();
  for (const binding of model.bindings) {
    const step = binding.step;
    if (step?.op === "context" && Object.hasOwn(CAPPED_ACTIONS, step.action.type)) {
      capped.set(binding, { stepPath: binding.stepPath, action: step.action.type, name: binding.name });
    }
  }
  if (capped.size === 0) return [];
  const found = new Map<string, SilentCap>();
  // Steps come in source order, so data flows forward: one pass nearly always settles it;
  // repeat while a pass marks a new binding (each binding is marked at most once).
  for (let changed = true; changed;) {
    changed = false;
    for (const { step, path: stepPath, references } of model.steps()) {
      if (step.op !== "tool" && step.op !== "final") continue;
      const builtin = step.op === "tool" ? builtinOf(step.name, limits) : undefined;
      if (step.op === "tool" && !builtin) continue;
      for (const reference of references) {
        const origin = reference.binding && capped.get(reference.binding);
        if (!origin) continue;
        const field = reference.path.slice(stepPath.length);
        if (step.op === "tool" && builtin) {
          if (COUNTING[builtin] && samePath(field, ["args"])) {
            found.set(JSON.stringify(stepPath), {
              stepPath,
              tool: step.name,
              builtin,
              counted: reference.name,
              origin,
              limit: limits.maxResults,
              limitSource: limits.maxResultsSource,
            });
          } else if (KEEPING[builtin]?.some((kept) => samePath(field, kept))) {
            changed = mark(capped, model.bindingAt(stepPath), origin) || changed;
          }
        } else if (step.op === "final" && samePath(field, ["value"])) {
          // The final value of an rlm or retry step's plan is that step's value.
          const planPath = stepPath.slice(0, -2);
          if (planPath[planPath.length - 1] === "plan") {
            changed = mark(capped, model.bindingAt(planPath.slice(0, -1)), origin) || changed;
          }
        }
      }
    }
  }
  return [...found.values()];
}

/** The hints for `caps`, located on each counting tool's name. */
export function silentCapProblems(caps: readonly SilentCap[]): PlanProblem[] {
  return caps.map((cap) => {
    const { origin, limit } = cap;
    const unit = CAPPED_ACTIONS[origin.action] ?? "items";
    const via =
      cap.counted === origin.name
        ? `${quoted(origin.name)} is a context ${origin.action} result`
        : `${quoted(cap.counted)} comes from ${quoted(origin.name)}, a context ${origin.action} result`;
    return {
      phase: "validate",
      kind: SILENT_CAP_KIND,
      severity: "hint",
      message:
        `${cap.tool} ${COUNTING[cap.builtin] ?? "counts"} at most ${limit} items here: ${via}, and a ${origin.action} ` +
        `stops at ${limit} ${unit} without saying so (${cap.limitSource})`,
      path: [...cap.stepPath, "name"],
      target: "value",
      limit,
      related: [
        {
          path: [...origin.stepPath, "action", "type"],
          target: "value",
          message: `this ${origin.action} returns at most ${limit} ${unit}`,
        },
      ],
    };
  });
}

function mark(capped: Map<ModelBinding, Origin>, binding: ModelBinding | undefined, origin: Origin): boolean {
  if (!binding || capped.has(binding)) return false;
  capped.set(binding, origin);
  return true;
}
