// What `rlm-plan run` prints at the end: the result (with the failed retry attempts the run's
// printer saw, runEventPrinter.ts), a cancellation, host-profile errors.

import type { HostProfileError } from "@rlm-plan/core/host";
import type { Budget } from "@rlm-plan/core/plan";
import type { AttemptFailedEvent, RunOutcome, RunReport } from "@rlm-plan/core/run";
import { lineText, shownFile } from "./guardedOutput";
import { displayPath, type Style } from "./output";
import { failedAttemptsField } from "./runEventPrinter";
import type { Cancellation } from "./signals";
import type { RunArgs } from "./runArgs";

/** The streams `run` prints to (stdout: JSON and values; stderr: everything else). */
export interface RunStreams {
  readonly stdout: { write(text: string): unknown; readonly isTTY?: boolean };
  readonly stderr: { write(text: string): unknown; readonly isTTY?: boolean };
}

export function cancelled(
  args: RunArgs,
  io: RunStreams,
  cancel: Cancellation,
  result: RunReport,
  failedAttempts: readonly AttemptFailedEvent[],
): number {
  const { outcome } = result;
  if (args.json) {
    const error = outcome.ok
      ? { phase: "execute", kind: "cancelled", message: "the run was cancelled" }
      : outcome.error;
    io.stdout.write(
      `${JSON.stringify({ type: "result", ok: false, ...mockedField(result), error, checkpoints: outcome.checkpoints, budget_remaining: outcome.budget_remaining, ...failedAttemptsField(failedAttempts), host_profile: args.hostProfile, ...recordedField(args) })}\n`,
    );
  }
  io.stderr.write("rlm-plan: the run was cancelled\n");
  if (args.recordedWhere && !args.json)
    io.stderr.write(
      `rlm-plan: recorded as ${args.recordedWhere}; continue it with rlm-plan run --resume ${args.recordedAs}${args.recordedJournal ?? ""}\n`,
    );
  return cancel.status;
}

/** `"mocked": true` in every JSON output of a mocked run (absent otherwise). */
function mockedField(result: RunReport): { mocked?: true } {
  return result.mocked ? { mocked: true } : {};
}

export function report(
  result: RunReport,
  args: RunArgs,
  io: RunStreams,
  style: Style,
  failedAttempts: readonly AttemptFailedEvent[],
): void {
  const { outcome, location: where, budget } = result;
  const { checkpoints, budget_remaining } = outcome;
  const mocked = result.mocked ? ` ${style.yellow("(mocked)")}` : "";
  if (args.json) {
    const base = { type: "result", ...mockedField(result) };
    const json = outcome.ok
      ? {
          ...base,
          ok: true,
          value: outcome.value,
          checkpoints,
          budget_remaining,
          ...failedAttemptsField(failedAttempts),
          host_profile: args.hostProfile,
          ...recordedField(args),
        }
      : {
          ...base,
          ok: false,
          error: outcome.error,
          ...(where ? { location: { file: args.plan, line: where.line, column: where.column } } : {}),
          checkpoints,
          budget_remaining,
          ...failedAttemptsField(failedAttempts),
          host_profile: args.hostProfile,
          ...recordedField(args),
        };
    io.stdout.write(`${JSON.stringify(json)}\n`);
    return;
  }
  if (outcome.ok) {
    io.stdout.write(`${JSON.stringify(outcome.value, null, 2)}\n`);
    io.stderr.write(`rlm-plan: ${style.green("ok")}${mocked}: ${usage(outcome, budget)}\n`);
    recordedLine(args, io);
    return;
  }
  const { error } = outcome;
  const place = where ? `${shownFile(args.plan)}:${where.line}:${where.column}: ` : "";
  const what = error.phase === "execute" || error.phase === "preflight" ? "run failed" : "invalid plan";
  io.stderr.write(
    `${place}${style.red(`${what}`)}${mocked}: ${lineText(error.message)} [${error.phase}/${error.kind}]\n`,
  );
  io.stderr.write(`${JSON.stringify(error, null, 2)}\n`);
  if (checkpoints.length > 0)
    io.stderr.write(`checkpoints reached: ${checkpoints.map((c) => JSON.stringify(c)).join(", ")}\n`);
  recordedLine(args, io);
}

/** `"run": 12` in a recorded run's JSON result (absent when it is not recorded). */
function recordedField(args: RunArgs): { run?: number } {
  return args.recordedAs === undefined ? {} : { run: args.recordedAs };
}

function recordedLine(args: RunArgs, io: RunStreams): void {
  if (args.recordedWhere)
    io.stderr.write(
      `rlm-plan: recorded as ${args.recordedWhere} (rlm-plan runs show ${args.recordedAs}${args.recordedJournal ?? ""})\n`,
    );
}

/** "4 steps, 1 tool call, 1 context op, 0 model calls, 31 output bytes". */
function usage(outcome: RunOutcome, budget?: Budget): string {
  if (!budget) return `${outcome.transitions.length} transitions`;
  const left = outcome.budget_remaining;
  const used = (limit: keyof Budget, remaining: number, noun: string) => {
    const n = budget[limit] - remaining;
    return `${n} ${noun}${n === 1 ? "" : "s"}`;
  };
  return [
    used("max_steps", left.steps, "step"),
    used("max_context_ops", left.context_ops, "context op"),
    used("max_tool_calls", left.tool_calls, "tool call"),
    used("max_model_calls", left.model_calls, "model call"),
    used("max_output_bytes", left.output_bytes, "output byte"),
  ].join(", ");
}

export function hostErrors(errors: readonly HostProfileError[], args: RunArgs, io: RunStreams): number {
  for (const e of errors)
    io.stderr.write(`${shownFile(display(e.file))}:${e.line}:${e.column}: ${lineText(e.message)}\n`);
  if (args.json) {
    const shown = errors.map((e) => ({
      file: display(e.file),
      line: e.line,
      column: e.column,
      jsonPath: e.jsonPath,
      message: e.message,
    }));
    io.stdout.write(`${JSON.stringify({ type: "host_error", errors: shown })}\n`);
  }
  return 2;
}

/** A path relative to the current folder when it is inside it. */
export function display(file: string): string {
  return displayPath(file);
}
