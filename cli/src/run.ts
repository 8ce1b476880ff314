// `rlm-plan run PLAN`: runs a plan file against the host profile of its workspace. Transitions
// stream as they happen (to stderr as aligned lines, or to stdout as JSON lines with --json);
// the final value goes to stdout. Exit status: 0 success, 1 the plan failed (invalid or an
// execution error), 2 usage or host-profile error, 130 cancelled by Ctrl-C (143 by SIGTERM).
// Over 400 lines because options, output columns, signals and the journal's resume of `run` are here; not split yet.

import { mockNameWarnings, planCalls } from "@rlm-plan/core/host/mockNames";
import type { HostProfileError } from "@rlm-plan/core/host/profile";
import {
  addSessionSecrets,
  HOST_PROFILE_FILENAME,
  openPlanSession,
  sessionMask,
  type PlanSession,
} from "@rlm-plan/core/session";
import { mocksJson } from "./queue/planJob";
import { parseQueueUrl, QUEUE_URL_FORM, type QueueAddress } from "./queue/queueUrl";
import type { runOnQueue } from "./queue/runOnQueue";
import type { Plan } from "@rlm-plan/core/plan/ast";
import { planSteps } from "@rlm-plan/core/plan/walk";
import type { RunObserver } from "@rlm-plan/core/run/observer";
import { parsePlan } from "@rlm-plan/core/plan/parse";
import type { Budget } from "@rlm-plan/core/plan/budget";
import { lineColumn } from "@rlm-plan/core/analysis";
import { PARALLEL_MODES, type ParallelMode, type RunEvent } from "@rlm-plan/core/run/events";
import { operationName } from "@rlm-plan/core/run/interpreter";
import type { RunReport } from "@rlm-plan/core/run/startRun";
import type { RunOutcome, Transition } from "@rlm-plan/core/run/transitions";
import type { SecretMask } from "@rlm-plan/core/run/secrets";
import { guardedStream, lineText, shownFile } from "./guardedOutput";
import { displayPath, styleFor, type Style } from "./output";
import { readOptions, type OptionSpec } from "./options";
import { Cancellation } from "./signals";
import { resumeArgs, runObservers, startRecording, type Resuming } from "./runJournal";

export interface RunIo {
  readonly stdout: { write(text: string): unknown; readonly isTTY?: boolean };
  readonly stderr: { write(text: string): unknown; readonly isTTY?: boolean };
  /** Cancels the run like Ctrl-C does (for hosts that embed the command). */
  readonly signal?: AbortSignal;
  /** The environment tools inherit from and providers read keys from; default process.env. */
  readonly env?: NodeJS.ProcessEnv;
  /** Whether to handle SIGINT and SIGTERM by cancelling the run; default true. */
  readonly handleSignals?: boolean;
}

export const RUN_USAGE =
  "usage: rlm-plan run PLAN [--host FILE] [--input NAME=PATH]... [--mocks FILE] [--parallel MODE] [--json [--events]] [--journal DIR | --no-journal] [--otlp URL]\n       rlm-plan run --resume RUN [--journal DIR] [--json [--events]]\n       rlm-plan run PLAN --queue redis://HOST:PORT/QUEUE [--mocks FILE] [--parallel MODE] [--json [--events]]";

export const RUN_HELP = `rlm-plan run: run a plan file against the workspace's host profile

${RUN_USAGE}

The host profile (${HOST_PROFILE_FILENAME}) is the nearest one in the plan's folder or above it.
It grants capabilities and a budget, and provides the inputs, tools and model providers.

options:
  --host FILE         use this host profile instead
  --input NAME=PATH   use the text file PATH as input NAME (repeatable)
  --mocks FILE        a dry run: the tools and providers FILE names answer from it
                      (no program, key or network needed for them; see schemas/mocks.schema.json)
  --parallel MODE     concurrent (default, or the profile's "parallel") or sequential branches
  --json              one JSON line per transition on stdout, then a {"type":"result"} line
  --events            with --json, also every step event: {"type":"event","event":{...}} lines
                      (step_started, transition, step_finished, step_failed, attempt_failed;
                      each names its step by JSON path and source range; a failure's
                      error carries its message, secrets masked)
  --journal DIR       record the run in the journal in DIR (default: .rlm-plan/ beside the host profile)
  --no-journal        do not record the run
  --otlp URL          export the run as an OpenTelemetry trace to this OTLP/HTTP endpoint
                      (GenAI conventions; prompts and replies only with
                      OTEL_INSTRUMENTATION_GENAI_CAPTURE_MESSAGE_CONTENT=true, masked)
  --queue URL         run the plan as a job on a queue (redis://HOST:PORT/QUEUE): a worker
                      (rlm-plan worker) runs it under ITS host profile; the output is the same,
                      and the run is recorded in this workspace's journal when it ends
  --resume RUN        continue run RUN of the journal, which did not finish: its completed steps'
                      model and tool calls are answered from the journal, the rest runs; the plan
                      and host profile must be unchanged (see rlm-plan runs)
  -h, --help          show this help

Transitions are printed to stderr as they happen, and so is each failed retry attempt with
its reason; the final value goes to stdout. A failing step is named as PLAN:LINE:COL.
Ctrl-C cancels the run: running tools are killed.

exit status: 0 success, 1 the plan is invalid or failed, 2 usage or host profile error,
             130 cancelled (Ctrl-C)`;

interface RunArgs {
  readonly plan: string;
  /** The journal's id of the run and where it is, once recorded. */
  readonly recordedAs?: number;
  readonly recordedWhere?: string;
  /** The host profile in force, as shown (set once it is found). */
  readonly hostProfile?: string;
  readonly host: string | undefined;
  readonly inputs: Record<string, string>;
  readonly mocks: string | undefined;
  readonly parallel: ParallelMode | undefined;
  readonly json: boolean;
  readonly events: boolean;
  readonly journal: string | undefined;
  readonly noJournal: boolean;
  readonly resume: number | undefined;
  readonly otlp: string | undefined;
  readonly queue?: QueueAddress;
}

/** Runs \`rlm-plan run\` with the arguments after "run". Never throws; resolves to the exit status. */
export async function runCommand(argv: readonly string[], unguarded: RunIo): Promise<number> {
  // Masked from the first line: the session adds the host profile's key variables once it has read it.
  const mask = sessionMask({ env: unguarded.env ?? process.env });
  // stdout holds JSON and values only: no style of ours, so every escape sequence goes.
  const stdout = guardedStream(unguarded.stdout, mask, false);
  const stderr = guardedStream(unguarded.stderr, mask);
  const io: GuardedIo = { ...unguarded, stdout, stderr, mask };
  try {
    return await guardedRun(argv, io);
  } finally {
    stdout.end();
    stderr.end();
  }
}

async function guardedRun(argv: readonly string[], io: GuardedIo): Promise<number> {
  const args = parseRunArgs(argv);
  if (args === "help") {
    io.stdout.write(`${RUN_HELP}\n`);
    return 0;
  }
  if (typeof args === "string") {
    io.stderr.write(`rlm-plan: ${args}\n${RUN_USAGE}\n`);
    return 2;
  }
  const cancel = new Cancellation(io.stderr, { signal: io.signal, handleSignals: io.handleSignals });
  try {
    return await run(args, io, cancel);
  } catch (error) {
    io.stderr.write(`rlm-plan: internal error: ${error instanceof Error ? error.message : String(error)}\n`);
    return 2;
  } finally {
    cancel.dispose();
  }
}

/** The command's streams once guarded: secrets masked, control characters stripped. */
interface GuardedIo extends RunIo {
  readonly mask: SecretMask;
}

async function run(given: RunArgs, io: GuardedIo, cancel: Cancellation): Promise<number> {
  let args = given;
  let resuming: Resuming | undefined;
  if (args.resume !== undefined) {
    const resumed = resumeArgs(args, io.stderr);
    if (typeof resumed === "number") return resumed;
    ({ args, resuming } = resumed);
  }
  const env = io.env ?? process.env;
  const style = styleFor(io.stderr, env);
  // The plan session: the plan read bounded, the host profile, the mocks, the mask (io.mask, extended).
  const opened = await openPlanSession({
    file: args.plan,
    ...(args.host !== undefined ? { hostProfile: args.host } : {}),
    env,
    inputFiles: args.inputs,
    ...(args.mocks !== undefined ? { mocks: { file: args.mocks } } : {}),
    mask: io.mask,
    // A queued run is run under the worker's profile: a local one only places the journal.
    ...(args.queue ? { requireHost: false } : {}),
  });
  if (!opened.ok) {
    const { failure } = opened;
    if (opened.hostProfile !== undefined) {
      args = { ...args, hostProfile: display(opened.hostProfile) };
      if (!args.json) io.stderr.write(`rlm-plan: host profile ${args.hostProfile}\n`);
    }
    switch (failure.kind) {
      case "plan_unreadable":
        io.stderr.write(`rlm-plan: cannot read the plan ${shownFile(args.plan)}: ${lineText(failure.reason)}\n`);
        return 2;
      case "no_host_profile":
        io.stderr.write(
          `rlm-plan: no host profile: there is no ${HOST_PROFILE_FILENAME} in the folder of ${args.plan} or any folder above it; create one or pass --host FILE\n`,
        );
        return 2;
      case "invalid_host_profile":
      case "invalid_mocks":
        return hostErrors(failure.errors, args, io);
    }
  }
  const session = opened.session;
  if (args.queue) return runQueued(args, args.queue, session, io, cancel);
  const text = session.text ?? "";
  const profileFile = session.hostProfile ?? "";
  // Which profile decided capabilities, budget, tools and providers: said first, in JSON too.
  args = { ...args, hostProfile: display(profileFile) };
  if (!args.json) io.stderr.write(`rlm-plan: host profile ${args.hostProfile}\n`);
  const mocks = session.mocks;
  if (mocks && session.profile) {
    // A mock that names nothing the plan calls is never used: said before the run, located.
    for (const warning of mockNameWarnings(mocks, { profile: session.profile, plan: planCalls(text) }))
      io.stderr.write(`${display(warning.file)}:${warning.line}:${warning.column}: warning: ${warning.message}\n`);
  }
  if (mocks && !args.json)
    io.stderr.write(
      `rlm-plan: ${style.yellow("mocked run")}: tools and providers in ${display(args.mocks ?? "")} answer from it\n`,
    );

  // One pipeline: the plan is checked first, the host builds only what it names, preflight, run.
  // Columns are sized from the plan's steps: the run's own validated plan, handed to an observer before the first step.
  // A run always has a profile (no_host_profile ended it above).
  const profile = session.profile;
  if (!profile) return 2;
  const recording = startRecording(args, session, io.stderr, resuming);
  if (typeof recording === "number") return recording;
  const printer = startedPrinter(args.json, io, style, mocks !== undefined);
  const handle = session.run({
    signal: cancel.signal,
    ...(args.parallel ? { parallel: args.parallel } : {}),
    onTransition: printer.onTransition,
    onEvent: eventPrinter(text, args, io, mocks !== undefined),
    observers: [printer.observer, ...runObservers(args, profile, recording, io.mask, env, io.stderr)],
    recording,
  });
  cancel.onKill(() => handle.kill());
  const result = await handle.done;
  if (recording) args = { ...args, recordedAs: recording.recorder.runId, recordedWhere: recording.where };
  if (result.stage === "host" && result.hostErrors) return hostErrors(result.hostErrors, args, io);
  const { outcome } = result;
  if (!outcome.ok && outcome.error.kind === "cancelled" && cancel.signal.aborted)
    return cancelled(args, io, cancel, result);
  report(result, args, io, style);
  return outcome.ok ? 0 : 1;
}

// ---- arguments ----------------------------------------------------------------------------

const INPUT_FORM = "NAME=PATH, for example --input haystack=data/big.txt";
const RUN_OPTIONS: OptionSpec = {
  values: {
    "--host": "a FILE",
    "--mocks": "a FILE",
    "--parallel": PARALLEL_MODES.join(" or "),
    "--input": INPUT_FORM,
    "--journal": "a DIR",
    "--resume": "a RUN number (rlm-plan runs list)",
    "--otlp": "an OTLP/HTTP traces URL (http://127.0.0.1:4318/v1/traces)",
    "--queue": QUEUE_URL_FORM,
  },
  flags: ["--json", "--events", "--no-journal", "--help", "-h"],
  nonEmpty: ["--host", "--mocks", "--journal", "--otlp", "--queue"],
};

function parseRunArgs(argv: readonly string[]): RunArgs | "help" | string {
  const options = readOptions(argv, RUN_OPTIONS);
  if (typeof options === "string") return options;
  if (options.flags.has("--help") || options.flags.has("-h")) return "help";
  const { positionals } = options;
  const parallelText = options.values.get("--parallel");
  const parallel = PARALLEL_MODES.find((mode) => mode === parallelText);
  if (parallelText !== undefined && parallel === undefined) return `--parallel needs ${PARALLEL_MODES.join(" or ")}`;
  const inputs: Record<string, string> = Object.create(null) as Record<string, string>;
  for (const spec of options.repeated.get("--input") ?? []) {
    const split = spec.indexOf("=");
    if (split <= 0 || split === spec.length - 1) return `--input needs ${INPUT_FORM}`;
    inputs[spec.slice(0, split)] = spec.slice(split + 1);
  }
  const host = options.values.get("--host");
  const mocks = options.values.get("--mocks");
  const json = options.flags.has("--json");
  const events = options.flags.has("--events");
  const journal = options.values.get("--journal");
  const noJournal = options.flags.has("--no-journal");
  const otlp = options.values.get("--otlp");
  if (otlp !== undefined && !/^https?:\/\/[^/]/.test(otlp))
    return "--otlp needs an http(s) URL of an OTLP/HTTP traces endpoint";
  const resumeText = options.values.get("--resume");
  const resume = resumeText === undefined ? undefined : Number(resumeText);
  if (resume !== undefined && !(Number.isSafeInteger(resume) && resume > 0))
    return "--resume needs a RUN number (rlm-plan runs list)";
  if (journal !== undefined && noJournal) return "--journal and --no-journal cannot be given together";
  const queueText = options.values.get("--queue");
  const queue = queueText === undefined ? undefined : parseQueueUrl(queueText);
  if (typeof queue === "string") return queue;
  if (queue) {
    const local = [
      ["--resume", resumeText],
      ["--otlp", otlp],
      ["--input", Object.keys(inputs).length > 0 ? "" : undefined],
    ].find(([, v]) => v !== undefined);
    if (local)
      return `${local[0]} cannot be given with --queue: the worker runs the plan with its own host profile's inputs and telemetry`;
  }
  if (resume !== undefined) {
    const given = [
      ["--host", host],
      ["--mocks", mocks],
      ["--parallel", parallelText],
    ].find(([, v]) => v !== undefined);
    if (given || Object.keys(inputs).length > 0)
      return `--resume runs with the options the run was recorded with; ${given ? given[0] : "--input"} cannot be given`;
    if (noJournal) return "--resume continues the run's journal entry; --no-journal cannot be given";
    if (positionals.length > 1) return "run takes one PLAN file";
    const plan = positionals[0] ?? "";
    return { plan, host, inputs, mocks, parallel, json, events, journal, noJournal, resume, otlp };
  }
  if (positionals.length === 0) return "run needs a PLAN file";
  if (positionals.length > 1) return "run takes one PLAN file";
  if (events && !json) return "--events needs --json";
  return {
    ...(queue ? { queue } : {}),
    plan: positionals[0] as string,
    host,
    inputs,
    mocks,
    parallel,
    json,
    events,
    journal,
    noJournal,
    resume,
    otlp,
  };
}

// ---- a run on a queue -----------------------------------------------------------------------

/** `run --queue`: the plan goes to a worker; what comes back prints as a local run prints. */
async function runQueued(
  given: RunArgs,
  address: QueueAddress,
  session: PlanSession,
  io: GuardedIo,
  cancel: Cancellation,
): Promise<number> {
  const env = io.env ?? process.env;
  let args = given;
  if (address.password !== undefined) addSessionSecrets(io.mask, { env, clientValues: [address.password] });
  const text = session.text ?? "";
  const style = styleFor(io.stderr, env);
  const say = (line: string) => void (args.json ? undefined : io.stderr.write(`rlm-plan: ${line}\n`));
  say(`sending the plan to ${address.shown}: a worker runs it under its host profile`);
  const recording = session.profile ? startRecording(args, session, io.stderr, undefined) : undefined;
  if (typeof recording === "number") return recording;
  const mocked = session.mocks !== undefined;
  let result;
  try {
    // The queue's modules (BullMQ's submitter, node:crypto) only for `run --queue`.
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    const queue = require("./queue/runOnQueue") as { runOnQueue: typeof runOnQueue };
    result = await queue.runOnQueue({
      address,
      plan: { name: display(session.file ?? args.plan), text },
      ...(session.mocks ? { mocks: mocksJson(session.mocks) } : {}),
      ...(args.parallel ? { parallel: args.parallel } : {}),
      signal: cancel.signal,
      onTransition: lazyPrinter(text, args.json, io, style, mocked),
      onEvent: eventPrinter(text, args, io, mocked),
      say,
      ...(recording ? { recorder: recording.recorder } : {}),
    });
  } catch (error) {
    io.stderr.write(
      `rlm-plan: cannot use the queue ${address.shown}: ${error instanceof Error ? error.message : String(error)}\n`,
    );
    return 2;
  } finally {
    recording?.store.close();
  }
  if (result.kind === "cancelled") {
    io.stderr.write("rlm-plan: the run was cancelled; a job no worker had taken is withdrawn\n");
    return cancel.status;
  }
  if (result.kind === "failed") {
    io.stderr.write(`rlm-plan: ${lineText(result.message)}\n`);
    return 1;
  }
  if (recording) args = { ...args, recordedAs: recording.recorder.runId, recordedWhere: recording.where };
  if (result.worker !== "")
    say(`ran on worker ${result.worker}${result.attempt > 1 ? ` (attempt ${result.attempt})` : ""}`);
  report(result.report, args, io, style);
  return result.report.outcome.ok ? 0 : 1;
}

// ---- cancellation ---------------------------------------------------------------------------

function cancelled(args: RunArgs, io: RunIo, cancel: Cancellation, result: RunReport): number {
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
      `rlm-plan: recorded as ${args.recordedWhere}; continue it with rlm-plan run --resume ${args.recordedAs}\n`,
    );
  return cancel.status;
}

// ---- output ---------------------------------------------------------------------------------

/** The transition printer of a local run, sized from the plan the run validated (its `started`). */
function startedPrinter(
  json: boolean,
  io: RunIo,
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
function lazyPrinter(text: string, json: boolean, io: RunIo, style: Style, mocked: boolean): (t: Transition) => void {
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
  io: RunIo,
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
    const bind = t.bind === null ? "" : `-> ${t.bind}`;
    const line = `${String(t.sequence).padStart(sequenceWidth)}  ${t.operation.padEnd(operationWidth)}  ${bind.padEnd(bindWidth)}  ${style.green(t.status)}  ${String(t.duration_ms).padStart(5)} ms`;
    io.stderr.write(`${line.trimEnd()}\n`);
  };
}

/**
 * Events beyond transitions: with --json --events every one as a JSON line; in text, a failed
 * retry attempt (which leaves no transition) as a line naming where it failed and why.
 */
function eventPrinter(text: string, args: RunArgs, io: RunIo, mocked: boolean): (event: RunEvent) => void {
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

function report(result: RunReport, args: RunArgs, io: RunIo, style: Style): void {
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

function recordedLine(args: RunArgs, io: RunIo): void {
  if (args.recordedWhere)
    io.stderr.write(`rlm-plan: recorded as ${args.recordedWhere} (rlm-plan runs show ${args.recordedAs})\n`);
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

function hostErrors(errors: readonly HostProfileError[], args: RunArgs, io: RunIo): number {
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
function display(file: string): string {
  return displayPath(file);
}
