// A fork of a recorded run (`rlm-plan run --from RUN --step PATH [--set NAME=JSON]`): a new run of
// the session's plan whose steps before PATH are answered from the recorded run (ForkReplies in
// journal/replayRun.ts: no model or tool call made again, so the budget is spent as it was) and
// whose step at PATH and everything after run for real, with the bindings given new values as
// that step starts (the interpreter's `rebind`). A fork of a fork gives its parent's values again,
// so it reproduces its parent but for what is set now. Reached only through `session.fork()`.

import { jsonObjectFrom, parseStepPath, stepPathText, type JsonObject, type JsonPath, type JsonValue } from "../json";
import { ForkReplies } from "../journal/replayRun";
import type { SecretMask } from "../mask/secretMask";
import type { PlanModel } from "../plan/semanticModel";
import type { ParallelMode } from "../run/events";
import type { Rebind } from "../run/interpreter";
import type { RunObserver } from "../run/observer";
import type { RecordedRun } from "./recordedRun";
import type { RunLife, SessionRun } from "./runLife";
import { notInScope } from "../plan/stepScope";

/** Where a fork starts and what it changes. */
export interface ForkRequest {
  /** The step to run live from (its JSON path). */
  readonly at: JsonPath;
  /** Bindings in scope at that step given new values. */
  readonly set?: ReadonlyMap<string, JsonValue>;
  /** Fork even when the plan or host profile changed since the run: steps are then matched by path. */
  readonly allowChanged?: boolean;
}

/**
 * The fork started, or why not: `changed`, the plan or host profile changed since (said which,
 * with both digests); `usage`, the step or a binding to set is not in this plan (the names in
 * scope said); `refused`, the run cannot be forked (a test case's).
 */
export type ForkStart =
  | { readonly ok: true; readonly run: SessionRun }
  | { readonly ok: false; readonly kind: "usage" | "changed" | "refused"; readonly refusal: string };

/** Recorded new values as the interpreter takes them: of two at one step, the later wins. */
export function rebindsOf(recorded: readonly { readonly at: string; readonly values: JsonObject }[]): Rebind[] {
  const byStep = new Map<string, Map<string, JsonValue>>();
  for (const { at, values } of recorded) {
    const merged = byStep.get(at) ?? new Map<string, JsonValue>();
    for (const [name, value] of Object.entries(values)) merged.set(name, value);
    byStep.set(at, merged);
  }
  return [...byStep].flatMap(([at, values]) => {
    const path = parseStepPath(at);
    return path ? [{ at: path, values }] : [];
  });
}

/** What of a run's options a fork reads and sets (the session's SessionRunOptions). */
interface ForkRunOptions {
  readonly life: RunLife;
  readonly parallel?: ParallelMode;
  readonly observers?: readonly RunObserver[];
  readonly rebind?: readonly Rebind[];
}

/** What a fork asks of its session (PlanSession, named structurally: the session imports this module). */
export interface ForkingSession<O extends ForkRunOptions> {
  readonly mask: SecretMask;
  changedSince(recorded: RecordedRun, purpose: "fork"): string | undefined;
  analysis(): { readonly model: PlanModel | undefined };
  run(options: O): SessionRun;
}

export function forkRun<O extends ForkRunOptions>(
  session: ForkingSession<O>,
  recorded: RecordedRun,
  fork: ForkRequest,
  options: O,
): ForkStart {
  const shown = stepPathText(fork.at);
  const { run: row } = recorded.point;
  // A test case's run answered from its mocks or cassette, which a plain run does not have: a
  // fork would call the real tools and providers. Its test is run again instead.
  if (row.origin === "test")
    return {
      ok: false,
      kind: "refused",
      refusal: `run ${row.id} is the run of the test case ${row.label ?? "(unlabelled)"}: run its test again with rlm-plan test`,
    };
  if (!fork.allowChanged) {
    const changed = session.changedSince(recorded, "fork");
    if (changed !== undefined) return { ok: false, kind: "changed", refusal: changed };
  }
  const model = session.analysis().model;
  if (!model?.stepAt(fork.at))
    return { ok: false, kind: "usage", refusal: `there is no step at ${shown} in this plan` };
  const inScope = model.inScopeAt(fork.at).map((binding) => binding.name);
  const unknown = [...(fork.set?.keys() ?? [])].find((name) => !inScope.includes(name));
  if (unknown !== undefined)
    return { ok: false, kind: "usage", refusal: session.mask.mask(notInScope(unknown, shown, inScope)) };
  const rebinds = [...(recorded.options.rebinds ?? [])];
  if (fork.set && fork.set.size > 0) rebinds.push({ at: shown, values: jsonObjectFrom([...fork.set]) });
  const life: RunLife = {
    ...options.life,
    given: { ...options.life.given, ...(rebinds.length > 0 ? { rebinds: rebinds.map((r) => ({ ...r })) } : {}) },
    forkOf: { run: recorded.id, step: shown },
    // Recorded beside its parent: the two are one tree in one journal.
    journal: options.life.journal === false ? false : { dir: recorded.dir },
  };
  const parallel = options.parallel ?? recorded.options.parallel;
  const forked: O = {
    ...options,
    life,
    ...(parallel ? { parallel } : {}),
    ...(rebinds.length > 0 ? { rebind: rebindsOf(rebinds) } : {}),
    observers: [...(options.observers ?? []), new ForkReplies(recorded.point, JSON.stringify(fork.at), session.mask)],
  };
  const run = session.run(forked);
  return { ok: true, run };
}
