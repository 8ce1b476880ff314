// The "RLM Plan Runs" output channel: one block per run, a line per transition as it happens
// (sequence, operation, binding, status, time since the start, the step's own time) and per
// failed retry attempt (where, its kind and its masked reason), then the final value as pretty
// JSON, or the structured error with the step it failed in. It writes lines only: the channel
// and how a place is named come from outside (workspacePaths.ts in the extension), so the lines a
// run's events give can be checked without VS Code.

import type * as vscode from "vscode";
import type { AttemptFailedEvent } from "@rlm-plan/core";
import type { LoggedTransition, RunRecord, StepRef } from "./runLog";

export const RUN_OUTPUT_CHANNEL = "RLM Plan Runs";

/** How the output names a file and a step's place in it, for people. */
export interface RunPlaces {
  /** A plan's or profile's path (or URI) relative to its workspace folder. */
  show(uriOrPath: string): string;
  /**
   * Where a step is: `plans/x.rlmplan.json:12:11` while the plan is open and the offset is known,
   * else its JSON path (`steps[1].plan.steps[0]`).
   */
  step(plan: string, path: readonly (string | number)[], offset: number | undefined): string;
}

export class RunOutput implements vscode.Disposable {
  constructor(
    readonly channel: Pick<vscode.OutputChannel, "appendLine" | "show" | "dispose">,
    private readonly places: RunPlaces,
  ) {}

  show(preserveFocus = true): void {
    this.channel.show(preserveFocus);
  }

  started(run: RunRecord): void {
    this.channel.appendLine("");
    this.channel.appendLine(`Run ${run.number} started: ${this.places.show(run.plan)} at ${clock(run.startedAt)}`);
    if (run.mocks)
      this.channel.appendLine(`  mocked: tools and providers in ${this.places.show(run.mocks)} answer from it`);
    this.channel.appendLine(`  host profile: ${run.hostProfile ? this.places.show(run.hostProfile) : "(none)"}`);
  }

  transition(run: RunRecord, t: LoggedTransition): void {
    const bind = t.bind === null ? "" : `→ ${t.bind}`;
    this.channel.appendLine(
      `  #${String(t.sequence).padEnd(4)} ${t.operation.padEnd(22)} ${bind.padEnd(14)} ${t.status.padEnd(4)} ` +
        `at ${ms(t.elapsed_ms).padStart(8)}  took ${ms(t.duration_ms).padEnd(7)}${left(t)}`,
    );
  }

  /** `  retry attempt 1/3 failed at plans/x.rlmplan.json:12:11 [execute/tool_error]: <reason>; retrying` */
  attemptFailed(run: RunRecord, event: AttemptFailedEvent): void {
    const { error } = event;
    const where = error.path ? ` at ${this.places.step(run.plan, error.path, error.range?.offset)}` : "";
    const next = event.retrying ? "retrying" : "no attempts left";
    const reason = error.message.replace(/\s*\n\s*/g, " ");
    this.channel.appendLine(
      `  retry attempt ${event.attempt}/${event.attempts} failed${where} [${error.phase}/${error.kind}]: ${reason}; ${next}`,
    );
  }

  finished(run: RunRecord): void {
    const took = run.durationMs === undefined ? "" : ` in ${ms(run.durationMs)}`;
    const counts = `${run.transitions.length + (run.droppedTransitions ?? 0)} transitions`;
    switch (run.status) {
      case "succeeded":
        this.channel.appendLine(`Run ${run.number} succeeded${mockedText(run)}${took} (${counts}). Final value:`);
        this.channel.appendLine(run.valueTruncated ? `${String(run.value)}… (cut)` : pretty(run.value));
        break;
      case "cancelled":
        this.channel.appendLine(`Run ${run.number} was cancelled${took} (${counts}).`);
        break;
      default: {
        const error = run.error;
        const what = error ? ` (${error.phase}/${error.kind})` : "";
        this.channel.appendLine(
          `Run ${run.number} failed${mockedText(run)}${took}${what}${this.stepText(run.failedStep)}:`,
        );
        if (error) this.channel.appendLine(`  ${error.message}`);
        this.channel.appendLine(`Error: ${pretty(error ?? null)}`);
      }
    }
    if (run.checkpoints && run.checkpoints.length > 0) {
      this.channel.appendLine(`  checkpoints: ${run.checkpoints.join(", ")}`);
    }
    if (run.budgetRemaining) {
      const left = Object.entries(run.budgetRemaining).map(([counter, n]) => `${counter.replace(/_/g, " ")} ${n}`);
      if (left.length > 0) this.channel.appendLine(`  budget left: ${left.join(" · ")}`);
    }
  }

  private stepText(step: StepRef | undefined): string {
    if (!step) return "";
    const bind = step.bind === null ? "" : ` → ${step.bind}`;
    // Its JSON path: the failed step is named as the run's error names it, with no offset.
    const where = step.path ? ` at ${this.places.step("", step.path, undefined)}` : "";
    return ` at step ${step.operation}${bind}${where}`;
  }

  /** The server would not start the run (no host profile, a broken profile, ...). */
  refused(plan: string, message: string): void {
    this.channel.appendLine("");
    this.channel.appendLine(`Run not started: ${this.places.show(plan)}`);
    this.channel.appendLine(`  ${message}`);
  }

  line(text: string): void {
    this.channel.appendLine(text);
  }

  dispose(): void {
    this.channel.dispose();
  }
}

export function ms(value: number): string {
  return value >= 10_000 ? `${(value / 1000).toFixed(1)} s` : `${Math.round(value)} ms`;
}

function clock(iso: string): string {
  return new Date(iso).toLocaleTimeString();
}

function pretty(value: unknown): string {
  return JSON.stringify(value, null, 2) ?? "null";
}

/** The run's budget left after a step; older logged runs have no counters. */
function left(t: LoggedTransition): string {
  const r = t.remaining as LoggedTransition["remaining"] | undefined;
  if (!r) return "";
  return `  left: steps ${r.steps} · tools ${r.tool_calls} · models ${r.model_calls} · context ${r.context_ops} · bytes ${r.output_bytes}`;
}

/** " (mocked)" for a dry run, so no line of its report reads like a real run's. */
function mockedText(run: RunRecord): string {
  return run.mocks ? " (mocked)" : "";
}
