// What `rlm-plan run` prints: transitions in columns sized from the plan's steps (or JSON lines),
// failed retry attempts and --events, the result, a cancellation, host-profile errors.

import type { HostProfileError } from "@rlm-plan/core/host";
import { type Budget, parsePlan, type Plan, planSteps } from "@rlm-plan/core/plan";
import {
  operationName,
  type RunEvent,
  type RunObserver,
  type RunOutcome,
  type RunReport,
  type Transition,
} from "@rlm-plan/core/run";
import { lineColumn } from "@rlm-plan/core/analysis";
import { lineText, shownFile } from "./guardedOutput";
import { displayPath, type Style } from "./output";
import type { Cancellation } from "./signals";
import type { RunArgs } from "./runArgs";

/** The streams `run` prints to (stdout: JSON and values; stderr: everything else). */
export interface RunStreams {
  readonly stdout: { write(text: string): unknown; readonly isTTY?: boolean };
  readonly stderr: { write(text: string): unknown; readonly isTTY?: boolean };
}

export function cancelled(args: RunArgs, io: RunStreams, cancel: Cancellation, result: RunReport): number {
  const { outcome } = result;
  if (args.json) {
    const error = outcome.ok
      ? { phase: "execute", kind: "cancelled", message: "the run was cancelled" }
      : outcome.error;
    io.stdout.write(
      `${JSON.stringify({ type: "result", ok: false, ...mockedField(result), error, checkpoints: outcome.checkpoints, budget_remaining: outcome.budget_remaining, host_profile: args.hostProfile, ...recordedField(args) })}\n`,
    );
  }
  io.stderr.write("rlm-plan: the run was cancelled\n");
  if (args.recordedWhere && !args.json)
    io.stderr.write(
      `rlm-plan: recorded as ${args.recordedWhere}; continue it with rlm-plan run --resume ${args.recordedAs}${args.recordedJournal ?? ""}\n`,
    );
  return cancel.status;
}

/** The transition printer of a local run, sized from the plan the run validated (its `started`). */
export function startedPrinter(
  json: boolean,
  io: RunStreams,
  style: Style,
  mocked: boolean,
): { readonly observer: RunObserver; readonly onTransition: (t: Transition) => void } {
  let plan: Plan | undefined;
  let printer: ((t: Transition) => void) | undefined;
  return {
    observer: { started: (start) => void (plan = start.validated.plan) },
    onTransition: (t) => {
      printer ??= transitionPrinter(plan, json, io, style, mocked);
      printer(t);
    },
  };
}

/**
 * The transition printer of a queued run, built when the first transition arrives (the plan is
 * valid by then): the worker validated it, so the plan is read here from the text sent.
 */
export function lazyPrinter(
  text: string,
  json: boolean,
  io: RunStreams,
  style: Style,
  mocked: boolean,
): (t: Transition) => void {
  let printer: ((t: Transition) => void) | undefined;
  return (t) => {
    if (!printer) {
      const plan = parsePlan({ kind: "document", text }).plan;
      printer = transitionPrinter(plan, json, io, style, mocked);
    }
    printer(t);
  };
}

/** Prints each transition as it happens, in columns sized from the plan's own steps. */
function transitionPrinter(
  plan: Plan | undefined,
  json: boolean,
  io: RunStreams,
  style: Style,
  mocked: boolean,
): (t: Transition) => void {
  const mark = mocked ? { mocked: true } : {};
  if (json) return (t) => void io.stdout.write(`${JSON.stringify({ type: "transition", ...mark, ...t })}\n`);
  let operationWidth = "final".length;
  let bindWidth = 0;
  let steps = 0;
  for (const { step } of plan ? planSteps(plan) : []) {
    steps++;
    operationWidth = Math.max(operationWidth, operationName(step).length);
    if ("bind" in step) bindWidth = Math.max(bindWidth, step.bind.length + 3);
  }
  const sequenceWidth = Math.max(3, String(steps).length);
  return (t) => {
    // A tool's or a binding's name is the plan's: escaped into the step's one line.
    const bind = t.bind === null ? "" : `-> ${lineText(t.bind)}`;
    const line = `${String(t.sequence).padStart(sequenceWidth)}  ${lineText(t.operation).padEnd(operationWidth)}  ${bind.padEnd(bindWidth)}  ${style.green(t.status)}  ${String(t.duration_ms).padStart(5)} ms`;
    io.stderr.write(`${line.trimEnd()}\n`);
  };
}

/**
 * Events beyond transitions: with --json --events every one as a JSON line; in text, a failed
 * retry attempt (which leaves no transition) as a line naming where it failed and why.
 */
export function eventPrinter(text: string, args: RunArgs, io: RunStreams, mocked: boolean): (event: RunEvent) => void {
  if (args.json) {
    const mark = mocked ? { mocked: true } : {};
    return args.events
      ? (event) => void io.stdout.write(`${JSON.stringify({ type: "event", ...mark, event })}\n`)
      : () => undefined;
  }
  return (event) => {
    if (event.type !== "attempt_failed") return;
    const range = event.error.range;
    const where = range ? ` at ${shownFile(args.plan)}:${position(text, range.offset)}` : "";
    const next = event.retrying ? "retrying" : "no attempts left";
    // One line: a reason quoting a tool's multi-line output is escaped as every message is.
    const reason = lineText(event.error.message);
    io.stderr.write(
      `     retry attempt ${event.attempt}/${event.attempts} failed${where} [${event.error.phase}/${event.error.kind}]: ${reason}; ${next}\n`,
    );
  };
}

function position(text: string, offset: number): string {
  const { line, character } = lineColumn(text, offset);
  return `${line + 1}:${character + 1}`;
}

/** `"mocked": true` in every JSON output of a mocked run (absent otherwise). */
function mockedField(result: RunReport): { mocked?: true } {
  return result.mocked ? { mocked: true } : {};
}

export function report(result: RunReport, args: RunArgs, io: RunStreams, style: Style): void {
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
