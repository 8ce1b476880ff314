// What "Rerun From Here" shows before it forks (RecordedScopeRequest): the bindings in scope at a
// step of a recorded run with the values that run had there, asked of the run's own session (the
// core replays it, executing nothing, up to the step). Nothing is called: the replay's tools and
// providers all answer from the journal.

import { parseStepPath } from "@rlm-plan/core/json";
import type { Feature } from "./feature";
import { RecordedScopeRequest } from "../protocol";
import { openRecordedSession } from "./recordedSession";

export const recordedScopes: Feature = (ctx) => {
  ctx.connection.onRequest(
    RecordedScopeRequest.type,
    ctx.guard.request(RecordedScopeRequest.method, (params) => scope(params, (values) => ctx.secretsLearned(values)), {
      ok: false,
      kind: "refused",
      refusal: "the run's scope could not be read",
      bindings: [],
    }),
  );
};

/** `learned`: the session's secrets, which the server's output boundary then masks in the answer too. */
async function scope(
  params: RecordedScopeRequest.Params,
  learned: (values: readonly string[]) => void,
): Promise<RecordedScopeRequest.Result> {
  const refused = (refusal: string): RecordedScopeRequest.Result => ({
    ok: false,
    kind: "refused",
    refusal,
    bindings: [],
  });
  if (typeof params?.dir !== "string" || !Number.isSafeInteger(params.id) || typeof params.step !== "string")
    return refused(`${RecordedScopeRequest.method} needs {"dir", "id", "step"}`);
  const at = parseStepPath(params.step);
  if (!at) return refused(`${JSON.stringify(params.step)} is not a step path such as "steps/2"`);
  const opened = openRecordedSession(params.dir, params.id, "fork", {});
  if ("message" in opened) return refused(opened.message);
  learned(opened.session.secretValues());
  return opened.session.scopeAt(opened.recorded, at);
}
