// One step of a plan run alone (`rlm-plan run PLAN --step PATH --bindings JSON`, a test case's
// `step`, the editor's Test This Step): the names the step reads from outside itself must each
// be given, and only names in scope there may be; then it is a run of the session like any other
// (the host profile's grants, budget, sandbox and lock; recorded, origin `step`), whose value is
// what the step binds. Reached only through `session.runStep()`.

import { jsonObjectFrom } from "../json";
import type { SecretMask } from "../mask/secretMask";
import type { PlanModel } from "../plan/semanticModel";
import { bindingsProblem, stepScope } from "../plan/stepScope";
import type { StepOnly } from "../run/stepOnly";
import type { RunLife, SessionRun } from "./runLife";

/** The step to run and the values of the bindings in scope there. */
export type StepRequest = StepOnly;

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
