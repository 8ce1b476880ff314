// What the "Compare Runs" view's page is given (comparePanel.ts writes it into the page,
// compareView.ts draws it): each run's plan graph as the server drew it, the diff style of its
// steps (by graph id), and the table of per-step differences from the core's runDiff.

import type { WireGraph } from "@rlm-plan/core/graph";
import type { RunDiff } from "@rlm-plan/core/journal";

/** How a step is marked on a side's graph: what the diff says of it (no mark: the run did not reach it). */
export type StepMark = "same" | "changed" | "added" | "removed" | "first";

export interface CompareSide {
  /** "Run 3 · ok · plan.rlmplan.json". */
  readonly title: string;
  /** Null when the plan could not be drawn (its file is gone): the table still shows. */
  readonly graph: WireGraph | null;
  readonly marks: Readonly<Record<string, StepMark>>;
}

export interface CompareMessage {
  readonly type: "compare";
  readonly a: CompareSide;
  readonly b: CompareSide;
  readonly diff: RunDiff;
}

/** The id of the page's data block holding its CompareMessage. */
export const COMPARE_DATA_ID = "rlm-plan-compare";
