// The bindings in scope at a step of a recorded run, with the values that run had there: what an
// editor shows before "Rerun From Here" so the user edits them and forks with the ones changed.
// Binding values are not recorded (only replies are), so they are found by replaying the run,
// executing nothing, until the step starts; the replay then stops. Reached through
// `session.scopeAt()`.

import { samePath } from "../plan/stepChain";
import { stepPathText, type JsonPath, type JsonValue } from "../json";
import type { PlanModel } from "../plan/semanticModel";
import type { StepPause } from "../run/pause";
import type { RecordedRun } from "./recordedRun";
import type { RunLife, SessionRun } from "./runLife";

/** One binding in scope at the step: its value when the run reached it (absent when it never did). */
export interface ScopedBinding {
  readonly name: string;
  readonly value?: JsonValue;
}

/**
 * The bindings at the step, in binding order (outer plans first); `reached` is false when the run
 * never started the step (it failed or stopped before), so no value is known. Or why not:
 * `usage`, no such step in this plan; `changed`, the plan or profile changed since the run (its
 * values cannot be replayed; the names alone are given).
 */
export type RecordedScope =
  | { readonly ok: true; readonly reached: boolean; readonly bindings: readonly ScopedBinding[] }
  | {
      readonly ok: false;
      readonly kind: "usage" | "changed";
      readonly refusal: string;
      readonly bindings: readonly ScopedBinding[];
    };

/** What this reads of its session (PlanSession, named structurally: the session imports this module). */
export interface ScopingSession {
  analysis(): { readonly model: PlanModel | undefined };
  changedSince(recorded: RecordedRun, purpose: "fork"): string | undefined;
  replay(
    recorded: RecordedRun,
    options: {
      readonly life: RunLife;
      readonly beforeStep: (pause: StepPause) => void;
    },
  ): { readonly ok: true; readonly run: SessionRun } | { readonly ok: false; readonly refusal: string };
}

export async function recordedScope(
  session: ScopingSession,
  recorded: RecordedRun,
  at: JsonPath,
): Promise<RecordedScope> {
  const model = session.analysis().model;
  if (!model?.stepAt(at))
    return { ok: false, kind: "usage", refusal: `there is no step at ${stepPathText(at)} in this plan`, bindings: [] };
  const names = model.inScopeAt(at).map((binding) => binding.name);
  // Said as a fork says it (the replay below would refuse it as a resume does).
  const changed = session.changedSince(recorded, "fork");
  if (changed !== undefined)
    return { ok: false, kind: "changed", refusal: changed, bindings: names.map((name) => ({ name })) };
  let found: Map<string, JsonValue> | undefined;
  // The replay, once started: its hook stops it when the step is found.
  const started: { run?: SessionRun } = {};
  const replay = session.replay(recorded, {
    life: { origin: "editor" },
    beforeStep: (pause) => {
      if (found || !samePath(pause.path, at)) return;
      // The live scope, read while the hook holds the run: copied, then the replay is stopped.
      found = new Map(names.flatMap((name) => (pause.bindings.has(name) ? [[name, pause.bindings.get(name)!]] : [])));
      started.run?.cancel();
    },
  });
  if (!replay.ok)
    return { ok: false, kind: "changed", refusal: replay.refusal, bindings: names.map((name) => ({ name })) };
  started.run = replay.run;
  // A step reached before the replay was handed back (the first one) is stopped here instead.
  if (found) replay.run.cancel();
  await replay.run.done;
  const values = found;
  return {
    ok: true,
    reached: values !== undefined,
    bindings: names.map((name) => (values?.has(name) ? { name, value: values.get(name)! } : { name })),
  };
}
