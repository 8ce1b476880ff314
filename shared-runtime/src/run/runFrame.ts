// Where a step of a running plan runs (its scope, nesting, retry attempt and branch signal), shared
// by the interpreter's scheduling and its step modules.

import type { RunFrame } from "./pause";

/** Where a step runs: its scope, its nesting, its retry attempt and the signal of its branch. */
export interface Frame {
  readonly vars: Map<string, unknown>;
  readonly depth: number;
  readonly attempt: number | undefined;
  /** Aborted when the run stops or a sibling branch fails. */
  readonly signal: AbortSignal;
  /** Host calls of this frame's branch still settling, awaited when a sibling's failure cancels it. */
  readonly pending: Set<Promise<unknown>>;
  /** The nested plans this frame is inside, outermost first (what a debugger shows as frames). */
  readonly frames: readonly RunFrame[];
}
