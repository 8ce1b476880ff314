// The messages between the graph panel (extension host) and its webview, in one place.

import type { WireGraph } from "@rlm-plan/core/graph";

/** A failure the run's events reported on a step: a failed attempt, or the step's own failure. */
export interface StepFailure {
  readonly phase: string;
  readonly kind: string;
  /** The error's message as the runtime sent it (secrets masked). */
  readonly message: string;
  /** The retry attempt (1-based) the failure happened in, when inside a retry. */
  readonly attempt?: number;
  /** On a retry step's own failures: how many attempts it allows. */
  readonly attempts?: number;
}

/** A step's state in a run: what the run's events said of it. */
export interface StepRunState {
  /** cancelled: the step was running when the run (or its branch) was cancelled. */
  readonly state: "running" | "ok" | "failed" | "cancelled" | "skipped";
  readonly durationMs?: number;
  /** Steps and calls left in the run's budget once the step completed. */
  readonly remaining?: Readonly<Record<string, number>>;
  /** How many failures the events reported on the step (failed attempts included). */
  readonly failures?: number;
  /** The newest of them (at most runSteps' MAX_FAILURES_LISTED), oldest first. */
  readonly lastFailures?: readonly StepFailure[];
}

/** The id of the page's data block of the messages it was set with (graphPage.ts writes it, graphView.ts reads it). */
export const PAGE_MESSAGES_ID = "rlm-plan-messages";

export type ToWebview =
  /** The server's graph as it came (exact counts as digits; the webview restores them). */
  | {
      readonly type: "graph";
      readonly graph: WireGraph;
      readonly title: string;
      /**
       * The panel's count of graphs sent: a graph posted before the page was ready is sent again
       * when it is (graphPanel.ts), and the page draws each number once.
       */
      readonly seq?: number;
    }
  | { readonly type: "select"; readonly id: string | null }
  | {
      readonly type: "run";
      /** Run states by step id; empty to clear. */
      readonly states: Readonly<Record<string, StepRunState>>;
      /** One line on the run: "Run 3 · running", "Run 3 · failed after 1.2 s". */
      readonly summary: string;
    }
  | { readonly type: "hover"; readonly id: string; readonly text: string }
  | { readonly type: "export" }
  | { readonly type: "copyImage" }
  /** Whether the run shown is recorded in the journal: its steps' context menu offers "Rerun From Here" (rerunMenu.ts). */
  | { readonly type: "rerunMenu"; readonly recorded: boolean };

/** An edit of the plan asked from the graph (graphEditKeys.ts; the extension's graphEdits.ts makes it). */
export type GraphEditAction = "insert" | "delete" | "moveUp" | "moveDown" | "wrapRetry" | "wrapParallel" | "rename";

export type FromWebview =
  /** The page is there, its script still loading (graphPage.ts): when, as Date.now() time. */
  | { readonly type: "loading"; readonly at: number }
  /** The page's script ran: when its page started loading and when the script began (Date.now() time). */
  | { readonly type: "ready"; readonly pageStarted: number; readonly scriptRan: number }
  | { readonly type: "reveal"; readonly id: string }
  | { readonly type: "edit"; readonly action: GraphEditAction; readonly id: string }
  | { readonly type: "hover"; readonly id: string }
  | { readonly type: "svg"; readonly text: string }
  | { readonly type: "png"; readonly base64: string; readonly copied: boolean; readonly error?: string }
  /**
   * After each drawing: how long the layout and drawing took, how many steps were drawn and how
   * many of them showed a run state, when the graph reached the page and when it was drawn.
   */
  | {
      readonly type: "rendered";
      readonly ms: number;
      readonly steps: number;
      readonly nodes: number;
      readonly states: number;
      readonly receivedAt: number;
      readonly drawnAt: number;
    }
  | { readonly type: "error"; readonly message: string };
