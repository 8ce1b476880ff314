// What `rlm-plan ui`'s JSON API answers and an HTML export carries, in one place: the server
// (uiServer.ts, runView.ts) writes these shapes, the page (cli/ui/src) reads them. Types only, so
// the browser bundle takes nothing of Node from here.

import type { RunDiff, RunFork, RunSummary, StepOutcome } from "@rlm-plan/core/journal";
import type { RunWorstCase, StepWorstCase } from "@rlm-plan/core/session";

export type { RunWorstCase, StepWorstCase };

/** A step of a run as its page shows it: the core's outcome (recordedSteps.ts) with its place in time. */
export interface RunViewStep extends StepOutcome {
  /** The step's JSON path as a pointer (/steps/2): what `run --from RUN --step PATH` takes. */
  readonly pointer: string;
  /** The graph's id of the step (its node's data-id). */
  readonly id: string;
  /** When the step last started, ms from the run's recorded start (the journal's clock, as calls); null when it never started. */
  readonly startedMs: number | null;
  /** A model step's worst case (all its runs at worst); null for other steps. */
  readonly worstCase: StepWorstCase | null;
}

/** A model or tool call on the run's timeline. */
export interface RunViewCall {
  readonly kind: "model" | "tool";
  readonly name: string;
  readonly model: string | null;
  /** The step that made it (a pointer). */
  readonly step: string;
  readonly status: string;
  /** When it started, ms from the run's recorded start (the clock steps are on), and how long it took. */
  readonly startedMs: number;
  readonly durationMs: number;
  readonly error: string | null;
}

/** One run, as its page and its HTML export show it. */
export interface RunView {
  readonly run: RunSummary;
  readonly planDigest: string;
  readonly hostFile: string | null;
  /** The plan's text as the run ran it (what file:line:col points into). */
  readonly planText: string | null;
  /** The plan graph drawn by the core's renderer with each step's state; null when the plan text gives none. */
  readonly graphSvg: string | null;
  readonly steps: readonly RunViewStep[];
  readonly calls: readonly RunViewCall[];
  /** The run's value (JSON text, pretty) when it ended with one. */
  readonly value: string | null;
  readonly error: { readonly phase: string; readonly kind: string; readonly message: string } | null;
  /** spent, estimate (worst case) and budget by counter, as the journal recorded them. */
  readonly counters: readonly {
    readonly name: string;
    readonly spent: number | null;
    readonly estimate: number | null;
    readonly budget: number | null;
  }[];
  readonly forks: readonly { readonly id: number; readonly step: string }[];
  readonly forkOf: RunFork | null;
  /** Tokens and money at worst, beside `run.usage` (what its model calls spent). */
  readonly worstCase: RunWorstCase;
}

/** The answer of /api/diff: the core's comparison (journal/runDiff.ts). */
export type RunCompare = RunDiff;

/** The id of the script block an HTML export carries its RunView in (the page reads it instead of fetching). */
export const EXPORT_DATA_ID = "rlm-plan-run";

/** One case of a test run, as the HTML test report shows it. */
export interface TestReportCase {
  /** FILE#CASE, as the test runner names it. */
  readonly id: string;
  /** Where the case is written: FILE:LINE:COL. */
  readonly place: string;
  readonly ok: boolean;
  readonly durationMs: number;
  /** How its tools and providers answered: live, mocks, cassette or recorded. */
  readonly answered: string;
  /** Each failed expectation; expected and actual as pretty JSON text. */
  readonly failures: readonly {
    readonly assertion: string;
    readonly message: string;
    readonly expected: string | null;
    readonly actual: string | null;
  }[];
  /** The case's run as the run page draws it; null when it was not recorded here (and why). */
  readonly run: RunView | null;
  readonly unrecorded: string | null;
}

/** A test run, as `rlm-plan test --format html` writes it. */
export interface TestReportView {
  readonly passed: number;
  readonly failed: number;
  readonly durationMs: number;
  readonly cases: readonly TestReportCase[];
}

/** The id of the script block a test report carries its TestReportView in. */
export const TEST_REPORT_DATA_ID = "rlm-plan-test-report";

/** An open request of a waiting run, as the Approvals page lists it (the arguments as recorded: masked). */
export interface PendingApproval {
  readonly run: number;
  readonly plan: string;
  readonly label: string | null;
  /** The request's number in the run's approvals log. */
  readonly request: number;
  readonly step: string;
  readonly capability: string;
  readonly arguments: string;
  /** SHA-256 of the action asked for: a vote counts for this action only. */
  readonly hash: string;
  readonly quorum: number;
  readonly approvers: readonly string[];
  /** Who approved so far. */
  readonly approved: readonly string[];
  readonly requester: string;
  readonly requesterMayApprove: boolean;
  /** ISO 8601. */
  readonly deadline: string;
  readonly askedAt: string;
}

/** The page's vote (POST /api/approvals/vote), as `runs approve|deny RUN --as NAME --reason TEXT [--step PATH]`. */
export interface VoteForm {
  readonly run: number;
  readonly decision: "approve" | "deny";
  readonly approver: string;
  readonly reason: string;
  readonly step?: string;
}

/** The answer to a vote: what it did (the lines `runs approve` says), or why it was refused. */
export type VoteAnswer = { readonly said: readonly string[]; readonly resumed: boolean } | { readonly error: string };

/** The Fleet page (`rlm-plan ui --queue URL`), as queue/fleetStatus.ts reads it. */
export interface FleetWorker {
  /** The name it was started with (`rlm-plan worker --name`). */
  readonly name: string;
  /** Its connection's address (host:port), age and idle time in seconds, as Redis tells them. */
  readonly addr: string;
  readonly ageSeconds: number;
  readonly idleSeconds: number;
}

export interface FleetJob {
  readonly id: string;
  readonly state: "waiting" | "active" | "failed";
  /** The plan the job runs, as it was sent (its name). */
  readonly name: string;
  /** How many times a worker took it; more than 1 is a retry. */
  readonly attempts: number;
  /** ISO 8601. */
  readonly queuedAt: string;
  /** Why it failed last (masked by the server, as every answer). */
  readonly failedReason: string | null;
}

export interface FleetView {
  /** The queue as shown (a password as ***). */
  readonly queue: string;
  readonly workers: readonly FleetWorker[];
  readonly counts: Readonly<Record<string, number>>;
  readonly jobs: readonly FleetJob[];
  /** Jobs among those listed that were tried more than once. */
  readonly retried: number;
  /** The queue's schedules (`rlm-plan schedule`), soonest first: queue/schedules.ts' rows. */
  readonly schedules: readonly FleetSchedule[];
}

/** One schedule of a queue (`rlm-plan schedule list`, the Fleet page). */
export interface FleetSchedule {
  readonly name: string;
  readonly cron: string;
  readonly tz: string;
  /** The plan's name as `schedule add` was given it (its path). */
  readonly plan: string;
  /** When the next iteration is due (ms since the epoch), if one waits. */
  readonly next?: number;
  /** How many iterations have been queued so far. */
  readonly iterations: number;
}
