// One step of a plan run alone (`rlm-plan run PLAN --step PATH --bindings JSON`, a test case's
// `step`, the editor's Test This Step): the names the step reads from outside itself must each
// be given, and only names in scope there may be; then it is a run of the session like any other
// (the host profile's grants, budget, sandbox and lock; recorded, origin `step`), whose value is
// what the step binds. Reached only through `session.runStep()`.

import { jsonObjectFrom, stepPathText, type JsonPath } from "../json";
import type { SecretMask } from "../mask/secretMask";
import type { PlanModel } from "../plan/semanticModel";
import type { StepOnly } from "../run/stepOnly";
import type { RunLife, SessionRun } from "./runLife";

/** The step to run and the values of the bindings in scope there. */
export type StepRequest = StepOnly;

/** What a step run alone may and must be given. */
export interface StepScope {
  /** The step as `runs show` prints its path (steps/1/plan/steps/0). */
  readonly shown: string;
  /** Every binding name in scope at the step, in binding order. */
  readonly inScope: readonly string[];
  /** The names the step reads from outside itself: each must be given. */
  readonly needed: readonly string[];
}

/**
 * The step started, or why not (`usage`: no step at that path, a name it reads is not given,
 * or a name given is not in scope there), with the names in scope and those missing.
 */
export type StepStart =
  | { readonly ok: true; readonly run: SessionRun }
  | {
      readonly ok: false;
      readonly kind: "usage";
      readonly refusal: string;
      readonly inScope: readonly string[];
      readonly missing: readonly string[];
    };

/** What running a step asks of its session (PlanSession, named structurally: the session imports this module). */
export interface StepSession<O extends { readonly life: RunLife; readonly only?: StepOnly }> {
  readonly mask: SecretMask;
  analysis(): { readonly model: PlanModel | undefined };
  run(options: O): SessionRun;
}

/** The names in scope at `at` and those the step there reads, or why there is no such step. */
export function stepScope(model: PlanModel | undefined, at: JsonPath): StepScope | string {
  const shown = stepPathText(at);
  if (!model?.stepAt(at)) return `there is no step at ${shown} in this plan`;
  return {
    shown,
    inScope: model.inScopeAt(at).map((binding) => binding.name),
    needed: readsFromOutside(model, at),
  };
}

/**
 * The bindings from outside the step at `at` that it reads (its own fields and its sub-plans'),
 * each name once in first-read order, from the model's references: what running it alone needs.
 */
function readsFromOutside(model: PlanModel, at: JsonPath): string[] {
  const inside = (path: JsonPath) => path.length >= at.length && at.every((key, i) => path[i] === key);
  const names = new Set<string>();
  for (const reference of model.references)
    if (inside(reference.path) && reference.binding && !inside(reference.binding.stepPath)) names.add(reference.name);
  return [...names];
}

/** "no binding "x" is in scope at steps/2 (in scope: a, b)": a fork's --set and a step's bindings say it alike. */
export function notInScope(name: string, shown: string, inScope: readonly string[]): string {
  const names = inScope.length > 0 ? `in scope: ${inScope.join(", ")}` : "no binding is in scope there";
  return `no binding ${JSON.stringify(name)} is in scope at ${shown} (${names})`;
}

/**
 * Why `given` cannot be a step's bindings: a name not in scope there (`name` says which), or
 * names it reads that are not given (`missing`); undefined when they can. One rule for the CLI's
 * --bindings, a test case's `bindings` and the editor's.
 */
export function bindingsProblem(
  scope: StepScope,
  given: readonly string[],
): { readonly message: string; readonly name?: string; readonly missing: readonly string[] } | undefined {
  const { shown, inScope, needed } = scope;
  const unknown = given.find((name) => !inScope.includes(name));
  if (unknown !== undefined) return { message: notInScope(unknown, shown, inScope), name: unknown, missing: [] };
  const missing = needed.filter((name) => !given.includes(name));
  if (missing.length === 0) return undefined;
  return {
    message: `the step at ${shown} reads ${missing.map((name) => JSON.stringify(name)).join(", ")}, which is not given (in scope: ${inScope.join(", ")}; the step reads: ${needed.join(", ")})`,
    missing,
  };
}

export function runStep<O extends { readonly life: RunLife; readonly only?: StepOnly }>(
  session: StepSession<O>,
  request: StepRequest,
  options: O,
): StepStart {
  const scope = stepScope(session.analysis().model, request.at);
  if (typeof scope === "string") return { ok: false, kind: "usage", refusal: scope, inScope: [], missing: [] };
  const { shown, inScope } = scope;
  const refused = (refusal: string, missing: readonly string[] = []): StepStart => ({
    ok: false,
    kind: "usage",
    refusal: session.mask.mask(refusal),
    inScope,
    missing,
  });
  const problem = bindingsProblem(scope, [...request.bindings.keys()]);
  if (problem) return refused(problem.message, problem.missing);
  const life: RunLife = {
    ...options.life,
    // A test case's step stays its case's run; any other is a step run, listed by its path.
    origin: options.life.origin === "test" ? "test" : "step",
    label: options.life.label ?? shown,
    given: { ...options.life.given, step: shown, bindings: jsonObjectFrom([...request.bindings]) },
  };
  return { ok: true, run: session.run({ ...options, life, only: request }) };
}
