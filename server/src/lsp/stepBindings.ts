// The bindings of one step to run alone (StepBindingsRequest, asked by the "Test This Step" lens's
// command before the user edits them): the values the last run of that step recorded in the
// journal (its `bindings` option, `rlm-plan run --step`'s or the editor's), else a template from
// the types of the names the step reads. The scope rules are the core's (plan/stepScope.ts).

import { dirname } from "node:path";
import { bindingsTemplate, stepScope, type StepScope } from "@rlm-plan/core/analysis";
import { isJsonObject, parseStepPath, type JsonObject } from "@rlm-plan/core/json";
import { findJournalDir, JournalStore, listRuns, runDetail } from "@rlm-plan/core/journal";
import type { Feature } from "./feature";
import { filePathOf } from "./runPlan";
import { StepBindingsRequest } from "../protocol";

/** How many of the journal's newest step runs are looked through for this plan's step. */
const RECENT_STEP_RUNS = 50;

export const stepBindings: Feature = (ctx) => {
  ctx.connection.onRequest(
    StepBindingsRequest.type,
    ctx.guard.request(
      StepBindingsRequest.method,
      (params): StepBindingsRequest.Result | null => {
        const plan = typeof params?.uri === "string" ? ctx.workspace.plan(params.uri) : undefined;
        const at = typeof params?.step === "string" ? parseStepPath(params.step) : undefined;
        const model = plan?.analysis.model;
        if (!plan || !at || !model) return null;
        const scope = stepScope(model, at);
        if (typeof scope === "string") return null;
        const { shown, inScope, needed } = scope;
        const recorded = lastRecorded(filePathOf(params.uri), scope);
        if (recorded)
          return { shown, inScope, needed, bindings: recorded.bindings, from: "journal", run: recorded.run };
        return { shown, inScope, needed, bindings: bindingsTemplate(model, plan.analysis.types, at), from: "types" };
      },
      null,
    ),
  );
};

/**
 * The bindings the newest recorded run of this plan's step was given, kept to the names in scope
 * now and only when they still give every name the step reads; undefined otherwise (no journal,
 * no such run, an unreadable journal: the template is offered instead).
 */
function lastRecorded(
  planFile: string | undefined,
  scope: StepScope,
): { readonly bindings: JsonObject; readonly run: number } | undefined {
  if (planFile === undefined) return undefined;
  const dir = findJournalDir(dirname(planFile));
  if (dir === undefined) return undefined;
  let store: JournalStore | undefined;
  try {
    store = JournalStore.openExisting(dir);
    if (!store) return undefined;
    const runs = listRuns(store, { origin: "step", label: scope.shown, limit: RECENT_STEP_RUNS });
    const run = runs.find((r) => r.label === scope.shown && r.planFile === planFile);
    const options = run && (runDetail(store, run.id)?.details as { options?: unknown } | undefined)?.options;
    const given = isJsonObject(options) ? options["bindings"] : undefined;
    if (!run || !isJsonObject(given)) return undefined;
    const bindings: JsonObject = Object.create(null) as JsonObject;
    for (const name of scope.inScope) if (Object.hasOwn(given, name)) bindings[name] = given[name] ?? null;
    return scope.needed.every((name) => Object.hasOwn(bindings, name)) ? { bindings, run: run.id } : undefined;
  } catch {
    return undefined;
  } finally {
    store?.close();
  }
}
