// What a run needs from the server, as an interface of its own: the runner (runPlan.ts) takes one
// and the run's mask (runMask.ts) wraps one, and neither imports the other for it.

import type { HostProfileResult } from "@rlm-plan/core/host";
import type { PlanSession } from "@rlm-plan/core/session";
import type { AnalyzedPlan } from "../service/analyzedPlan";
import type { RunEventParams, RunFinishedParams } from "../protocol";

/** What a run needs from the server: the analysed plan, its host profile, and a way to talk. */
export interface PlanRunnerHost {
  /** The cached analysis of an open plan document. */
  plan(uri: string): AnalyzedPlan | undefined;
  /** The host profile file that applies to a plan document, if one was found. */
  hostProfileFileFor(uri: string): string | undefined;
  /** The runtime loader's result for that file (the editor's text when open). */
  hostProfile(file: string): HostProfileResult;
  /** One of the runtime's events, in the order it emitted them. */
  event(params: RunEventParams): void;
  finished(params: RunFinishedParams): void;
  /** A run's session opened: the server's own mask learns the keys the client passed for it. */
  sessionStarted?(session: PlanSession): void;
  /** A problem that did not stop the run (the journal could not record it), masked. */
  notice?(message: string): void;
}
