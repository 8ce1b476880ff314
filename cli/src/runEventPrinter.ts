// The CLI's one printer of run events, for every command that shows a run: `run` (local or on a
// queue), `propose --run`, `runs show` and a worker's log of its jobs. A step's transition is a line in columns sized from
// the plan's own steps, a failed retry attempt (which leaves no transition) a line naming where it
// failed and why; in JSON, transitions and (with --events) every event are JSON lines, and the
// failed attempts also go into the result (`failed_attempts`). Nothing else in the CLI formats an
// event (test/unit/architecture.one-event-printer.test.ts holds that).

import { lineColumn } from "@rlm-plan/core/analysis";
import { stepPathText } from "@rlm-plan/core/json";
import { parsePlan, type Plan, planSteps } from "@rlm-plan/core/plan";
import { operationName, type AttemptFailedEvent, type RunEvent, type RunObserver } from "@rlm-plan/core/run";
import { lineText, shownFile } from "./guardedOutput";
import type { Style } from "./output";

/** The plan a run's events are about: its file as the user named it, and its text. */
export interface PrintedPlan {
  readonly file: string;
  readonly text: string;
}

/**
 * Text lines of a run's events, as `run` prints them on stderr. The columns are sized from the
 * plan: the run's own validated plan when it is known (`sizeFrom`), else the plan read from its
 * text at the first line (a queued run, a recorded one).
 */
export class RunEventLines {
  private columns: { sequence: number; operation: number; bind: number } | undefined;
  private plan: Plan | undefined;

  constructor(
    private readonly printed: PrintedPlan,
    private readonly style: Style,
    /** `paths`: end each transition's line with its step's path (`runs show`, for `run --from`). */
    private readonly shown: { readonly paths?: boolean } = {},
  ) {}

  /** The validated plan of a run that is starting: no second parse of a large plan. */
  sizeFrom(plan: Plan): void {
    this.plan = plan;
  }

  /** The event's line, or undefined for an event that text output does not show. */
  line(event: RunEvent): string | undefined {
    if (event.type === "transition") {
      const t = event.transition;
      const widths = this.widths();
      // A tool's or a binding's name is the plan's: escaped into the step's one line.
      const bind = t.bind === null ? "" : `-> ${lineText(t.bind)}`;
      const path = this.shown.paths ? `  ${lineText(stepPathText(event.path))}` : "";
      const line = `${String(t.sequence).padStart(widths.sequence)}  ${lineText(t.operation).padEnd(widths.operation)}  ${bind.padEnd(widths.bind)}  ${this.style.green(t.status)}  ${String(t.duration_ms).padStart(5)} ms${path}`;
      return line.trimEnd();
    }
    // A call held for approval is no failed attempt: the run waits, and says so at its end.
    if (event.type === "attempt_failed")
      return event.error.kind === "approval_pending" ? undefined : this.attemptLine(event);
    return undefined;
  }

  private attemptLine(event: AttemptFailedEvent): string {
    const range = event.error.range;
    const where = range ? ` at ${shownFile(this.printed.file)}:${position(this.printed.text, range.offset)}` : "";
    const next = event.retrying ? "retrying" : "no attempts left";
    // One line: a reason quoting a tool's multi-line output is escaped as every message is.
    const reason = lineText(event.error.message);
    return `     retry attempt ${event.attempt}/${event.attempts} failed${where} [${event.error.phase}/${event.error.kind}]: ${reason}; ${next}`;
  }

  private widths(): { sequence: number; operation: number; bind: number } {
    if (this.columns) return this.columns;
    const plan = this.plan ?? parsePlan({ kind: "document", text: this.printed.text }).plan;
    let operation = "final".length;
    let bind = 0;
    let steps = 0;
    for (const { step } of plan ? planSteps(plan) : []) {
      steps++;
      operation = Math.max(operation, operationName(step).length);
      if ("bind" in step) bind = Math.max(bind, step.bind.length + 3);
    }
    this.columns = { sequence: Math.max(3, String(steps).length), operation, bind };
    return this.columns;
  }
}

/** How a live run's events are printed. */
/** The line of an event that ends a step at a call held for approval (its masked message), else undefined. */
export function heldForApprovalText(event: RunEvent): string | undefined {
  const held = (event.type === "step_failed" || event.type === "attempt_failed") && event.error;
  return held && held.kind === "approval_pending" ? lineText(held.message) : undefined;
}

export interface PrintOptions {
  /** JSON lines (transitions; every event with `events`) instead of text lines. */
  readonly json: boolean;
  readonly events?: boolean;
  readonly mocked: boolean;
  readonly style: Style;
  /** Where JSON lines go (stdout for `run`); a printer of text needs none. */
  readonly jsonOut?: (line: string) => void;
  /** Where text lines go (stderr for `run`, stdout for `propose`'s report, a worker's log). */
  readonly textOut: (line: string) => void;
}

/** A live run's printer: an observer of its events, and the failed attempts it saw (for the result). */
export interface RunEventPrinter {
  readonly observer: RunObserver;
  readonly failedAttempts: readonly AttemptFailedEvent[];
}

export function runEventPrinter(plan: PrintedPlan, options: PrintOptions): RunEventPrinter {
  const failedAttempts: AttemptFailedEvent[] = [];
  const lines = new RunEventLines(plan, options.style);
  const mark = options.mocked ? { mocked: true } : {};
  const print = (event: RunEvent): void => {
    if (event.type === "attempt_failed") failedAttempts.push(event);
    if (!options.json) {
      const line = lines.line(event);
      if (line !== undefined) options.textOut(`${line}\n`);
      return;
    }
    if (event.type === "transition")
      options.jsonOut?.(`${JSON.stringify({ type: "transition", ...mark, ...event.transition })}\n`);
    if (options.events) options.jsonOut?.(`${JSON.stringify({ type: "event", ...mark, event })}\n`);
  };
  return {
    observer: { started: (start) => lines.sizeFrom(start.validated.plan), event: print },
    failedAttempts,
  };
}

/** A result's `failed_attempts` field: each failed retry attempt's event, as --events prints it (absent when none failed). */
export function failedAttemptsField(attempts: readonly AttemptFailedEvent[]): {
  failed_attempts?: readonly AttemptFailedEvent[];
} {
  return attempts.length > 0 ? { failed_attempts: attempts } : {};
}

function position(text: string, offset: number): string {
  const { line, character } = lineColumn(text, offset);
  return `${line + 1}:${character + 1}`;
}
