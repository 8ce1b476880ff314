// The options a model step may pass to a provider, and the one rule that checks them: the
// provider applies it when the step runs, editors and `rlm-plan check` before anything runs.

import { hasOwn, type JsonObject, type JsonValue } from "../json";
import type { Plan, Step } from "./ast";
import { planSteps } from "./walk";
import { quoted, type PlanProblem } from "./problems";
import { nearestName } from "../text/nearestName";

/**
 * Request options a plan step may set, each with the JSON type it must have. Anything else is
 * refused rather than ignored or passed on: a misspelt option silently ignored would run a plan
 * differently from what its author reads, and passing unknown keys through would let plan
 * text override what the host decides (model, messages, stream, tools, n, provider routing,
 * user), which changes cost and what leaves the machine. The refusal is a model_error that
 * names the option, so the author sees it on the first run.
 */
const OPTION_RULES: Readonly<Record<string, { readonly ok: (value: JsonValue) => boolean; readonly what: string }>> = {
  temperature: { ok: isNumber, what: "a number" },
  top_p: { ok: isNumber, what: "a number" },
  max_tokens: { ok: (v) => Number.isInteger(v) && (v as number) > 0, what: "a positive integer" },
  stop: {
    ok: (v) => typeof v === "string" || (Array.isArray(v) && v.every((item) => typeof item === "string")),
    what: "a string or a list of strings",
  },
  seed: { ok: (v) => Number.isInteger(v), what: "an integer" },
  presence_penalty: { ok: isNumber, what: "a number" },
  frequency_penalty: { ok: isNumber, what: "a number" },
  response_format: {
    ok: (v) => typeof v === "object" && v !== null && !Array.isArray(v) && typeof (v as JsonObject).type === "string",
    what: 'an object with a "type"',
  },
};

export const ALLOWED_OPTIONS: readonly string[] = Object.keys(OPTION_RULES);

function isNumber(value: JsonValue): boolean {
  return typeof value === "number" && Number.isFinite(value);
}

export interface ModelOptionProblem {
  readonly kind: "unknown_model_option" | "invalid_model_option";
  readonly message: string;
  /** For an unknown option: the allowed one nearest to it, if any is near. */
  readonly suggestion?: string;
}

/** Why the provider refuses `key: value`, or undefined when it takes it. */
export function modelOptionProblem(key: string, value: JsonValue): ModelOptionProblem | undefined {
  const rule = hasOwn(OPTION_RULES, key) ? OPTION_RULES[key] : undefined;
  if (!rule) {
    const suggestion = nearestName(key, ALLOWED_OPTIONS, Math.max(2, Math.floor(key.length / 2)));
    return {
      kind: "unknown_model_option",
      message: `option ${quoted(key)} is not allowed (allowed: ${ALLOWED_OPTIONS.join(", ")})`,
      ...(suggestion !== undefined ? { suggestion } : {}),
    };
  }
  return rule.ok(value)
    ? undefined
    : { kind: "invalid_model_option", message: `option ${quoted(key)} must be ${rule.what}` };
}

/**
 * Every model step's options the provider would refuse when the step runs, found before the
 * run. Host-dependent: the allow-list is the host's provider's (the one kind a profile has).
 */
export function modelOptionProblems(
  plan: Plan,
  /** The plan's steps when the caller has them walked already (the semantic model's `steps()`). */
  steps: Iterable<{ readonly step: Step }> = planSteps(plan),
): PlanProblem[] {
  const problems: PlanProblem[] = [];
  // Indexed over a list: this loop runs once per analysis, in the interpreter, where `for...of`
  // makes an iterator result a step.
  const list = Array.isArray(steps) ? (steps as readonly { readonly step: Step }[]) : [...steps];
  for (let k = 0; k < list.length; k++) {
    const step = (list[k] as { readonly step: Step }).step;
    if (step.op === "model") {
      for (const key of Object.keys(step.options)) {
        const refused = modelOptionProblem(key, step.options[key] as JsonValue);
        if (!refused) continue;
        const unknown = refused.kind === "unknown_model_option";
        const hint = refused.suggestion !== undefined ? `; did you mean ${quoted(refused.suggestion)}?` : "";
        problems.push({
          phase: "validate",
          kind: refused.kind,
          message: `model ${refused.message}: the provider refuses it when this step runs${hint}`,
          path: [...step.path, "options", key],
          target: unknown ? "key" : "value",
          hostDependent: true,
          field: key,
          ...(refused.suggestion !== undefined ? { suggestion: refused.suggestion } : {}),
        });
      }
    }
  }
  return problems;
}
