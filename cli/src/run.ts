// `rlm-plan run PLAN`: runs a plan file against the host profile of its workspace. Transitions
// stream as they happen (to stderr as aligned lines, or to stdout as JSON lines with --json);
// the final value goes to stdout. Exit status: 0 success, 1 the plan failed (invalid or an
// execution error), 2 usage or host-profile error, 3 waiting for approval (docs/approvals.md),
// 130 cancelled by Ctrl-C (143 by SIGTERM).

import { RUN_HELP } from "./runHelp";
import {
  addSessionSecrets,
  HOST_PROFILE_FILENAME,
  mockNameWarnings,
  openPlanSession,
  planCalls,
  type PlanSession,
  type RecordedRef,
  type RecordedRun,
  type SessionRunOptions,
} from "@rlm-plan/core/session";
import { givenInputProblem } from "@rlm-plan/core/host";
import type { JsonValue } from "@rlm-plan/core/json";
import { mocksJson } from "./queue/planJob";
import { withPassword, type QueueAddress } from "./queue/queueUrl";
import type { runOnQueue } from "./queue/runOnQueue";
import type { SecretMask } from "@rlm-plan/core/secrets";
import type { RunObserver, RunReport } from "@rlm-plan/core/run";
import { lineText, shownFile } from "./guardedOutput";
import { openSink } from "./sink";
import { styleFor, usageErrorText, type Style } from "./output";
import { Cancellation } from "./signals";
import { recordedArgs, resumeArgs, runLife } from "./runJournal";
import { parseRunArgs, type RunArgs } from "./runArgs";
import { cancelled, display, hostErrors, report, type RunStreams } from "./runOutput";
import { runEventPrinter, type RunEventPrinter } from "./runEventPrinter";
import { approvalPrompter } from "./approvalPrompt";
import type { PromptInput } from "./approvalQuestions";
import { keepWaiting, waitingLines, WAITING_STATUS, type Waiting } from "./runWaiting";

export interface RunIo extends RunStreams {
  /** Cancels the run like Ctrl-C does (for hosts that embed the command). */
  readonly signal?: AbortSignal;
  /** The environment tools inherit from and providers read keys from; default process.env. */
  readonly env?: NodeJS.ProcessEnv;
  /** Whether to handle SIGINT and SIGTERM by cancelling the run; default true. */
  readonly handleSignals?: boolean;
  /** Where `--wait`'s prompt reads the answers of the person at the terminal (docs/approvals.md). */
  readonly stdin?: PromptInput;
}

/** Runs \`rlm-plan run\` with the arguments after "run". Never throws; resolves to the exit status. */
export async function runCommand(argv: readonly string[], unguarded: RunIo): Promise<number> {
  // Masked from the first line: the session adds the host profile's key variables once it has read it.
  // stdout holds JSON and values only: no style of ours, so every escape sequence goes.
  const sink = openSink(unguarded, { env: unguarded.env ?? process.env, styles: { stdout: false, stderr: true } });
  const { stdout, stderr, mask } = sink;
  // Named, not spread: the CLI passes `process` itself, and a spread reads every getter it has
  // (process.report loads Node's diagnostic report, allowedNodeEnvironmentFlags builds a set): a
  // twelfth of a bare Node start (bench/README.md, "The CLI's start").
  const { signal, env, handleSignals } = unguarded;
  // stdin only when a prompt asks for it: opening it costs start-up time.
  const io: GuardedIo = { signal, env, handleSignals, stdout, stderr, mask, input: () => unguarded.stdin };
  try {
    return await guardedRun(argv, io);
  } finally {
    sink.end();
  }
}

async function guardedRun(argv: readonly string[], io: GuardedIo): Promise<number> {
  const args = parseRunArgs(argv);
  if (args === "help") {
    io.stdout.write(`${RUN_HELP}\n`);
    return 0;
  }
  if (typeof args === "string") {
    io.stderr.write(usageErrorText(args, "run"));
    return 2;
  }
  const cancel = new Cancellation(io.stderr, { signal: io.signal, handleSignals: io.handleSignals });
  try {
    const waits: Waiting = {};
    const again = async (argv: readonly string[]) => {
      const resumed = parseRunArgs(argv);
      return typeof resumed === "string" ? 2 : run(resumed, io, cancel, waits);
    };
    const prompt = approvalPrompter(args, { stdin: io.input, stderr: io.stderr, env: io.env ?? process.env });
    return await keepWaiting(await run(args, io, cancel, waits), args, waits, io.stderr, cancel, again, prompt);
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
  /** The caller's stdin, opened when asked for. */
  readonly input: () => PromptInput | undefined;
}

async function run(given: RunArgs, io: GuardedIo, cancel: Cancellation, waits: Waiting): Promise<number> {
  let args = given;
  let resuming: RecordedRun | undefined;
  if (args.resume !== undefined || args.fork) {
    const resumed = resumeArgs(args, io.stderr, args.fork?.from);
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
    ...(Object.keys(args.inputValues).length > 0 ? { inputValues: args.inputValues } : {}),
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
  if (args.queue) {
    const address = withPassword(args.queue, args.queuePasswordFile, env);
    if (typeof address === "string") {
      io.stderr.write(`rlm-plan: ${address}\n`);
      return 2;
    }
    return runQueued(args, address, session, io, cancel);
  }
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
  // Values are checked here, against this profile; a queued run's are the worker's profile's to judge.
  const planInputs = Object.keys(args.inputValues).length > 0 ? planCalls(text)?.inputs : undefined;
  for (const name of Object.keys(args.inputValues)) {
    const problem = givenInputProblem(profile, name, args.inputValues[name] as JsonValue, planInputs);
    if (problem === undefined) continue;
    const origin = args.inputOrigins?.get(name) ?? `the input values run ${args.resume ?? ""} was recorded with`;
    io.stderr.write(`rlm-plan: ${lineText(`${origin}: ${problem}`)}\n`);
    return 2;
  }
  const printer = printerOf(args, text, io, style, mocks !== undefined);
  // The session records and traces the run (the profile's journal and telemetry.otlp, or what the
  // user gave: --journal DIR, --no-journal, --otlp URL).
  const options: SessionRunOptions = {
    life: runLife(args, io.stderr),
    signal: cancel.signal,
    ...(args.parallel ? { parallel: args.parallel } : {}),
    observers: [sandboxNote(session, io), printer.observer],
  };
  let handle;
  if (resuming && args.fork) {
    const { step, set, allowChanged } = args.fork;
    const forked = session.fork(resuming, { at: step, set, allowChanged }, options);
    if (!forked.ok) {
      const hint = forked.kind === "changed" ? ": pass --allow-changed to fork it anyway (steps matched by path)" : "";
      io.stderr.write(`rlm-plan: cannot fork run ${resuming.id}: ${forked.refusal}${hint}\n`);
      return forked.kind === "usage" ? 2 : 1;
    }
    handle = forked.run;
  } else if (resuming) {
    const resumed = session.resume(resuming, options);
    if (!resumed.ok) {
      io.stderr.write(`rlm-plan: cannot resume: ${resumed.refusal}\n`);
      return 1;
    }
    handle = resumed.run;
  } else if (args.only) {
    const alone = session.runStep(
      { at: args.only.step, bindings: new Map(Object.entries(args.only.bindings)) },
      options,
    );
    if (!alone.ok) {
      io.stderr.write(usageErrorText(`cannot run the step: ${alone.refusal}`, "run"));
      return 2;
    }
    handle = alone.run;
  } else handle = session.run(options);
  const run = handle;
  cancel.onKill(() => run.kill());
  const result = await run.done;
  try {
    const status = ended(args, result, run.recorded, io, style, cancel, printer);
    if (status === WAITING_STATUS && run.recorded) waits.run = { id: run.recorded.id, dir: run.recorded.dir };
    return status;
  } finally {
    // The result is out; the trace gets what is left of its deadline, or nothing after Ctrl-C.
    await run.settled(cancel.signal);
  }
}

/**
 * Said once per run as it starts, in JSON runs too (stderr): tools the profile would sandbox run
 * bare here. The session asks bubblewrap while it opens the journal, checks the plan and builds
 * the host; the answer is in when the run starts.
 */
function sandboxNote(session: PlanSession, io: GuardedIo): RunObserver {
  return {
    started: () => {
      const unsandboxed = session.sandboxNotice();
      if (unsandboxed !== undefined) io.stderr.write(`rlm-plan: note: ${unsandboxed}\n`);
    },
  };
}

/** The run's end as printed, and its exit status. */
function ended(
  given: RunArgs,
  result: RunReport,
  recorded: RecordedRef | undefined,
  io: GuardedIo,
  style: Style,
  cancel: Cancellation,
  printer: RunEventPrinter,
): number {
  let args = given;
  if (recorded) args = { ...args, ...recordedArgs(recorded) };
  if (result.stage === "host" && result.hostErrors) return hostErrors(result.hostErrors, args, io);
  const { outcome } = result;
  if (!outcome.ok && outcome.error.kind === "cancelled" && cancel.signal.aborted)
    return cancelled(args, io, cancel, result, printer.failedAttempts);
  // A step held for approval is no failure: the run waits (its JSON result still says why).
  const waiting = !outcome.ok && outcome.error.kind === "approval_pending";
  if (!waiting || args.json) report(result, args, io, style, printer.failedAttempts);
  if (!waiting) return outcome.ok ? 0 : 1;
  for (const line of waitingLines(outcome.error, args.recordedAs, args.recordedJournal ?? ""))
    io.stderr.write(`${line}\n`);
  return WAITING_STATUS;
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
  const say = (line: string) => void (args.json ? undefined : io.stderr.write(`rlm-plan: ${lineText(line)}\n`));
  say(`sending the plan to ${address.shown}: a worker runs it under its host profile`);
  const printer = printerOf(args, text, io, style, session.mocks !== undefined);
  let result;
  try {
    // The queue's modules (BullMQ's submitter, node:crypto) only for `run --queue`.
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    const queue = require("./queue/runOnQueue") as { runOnQueue: typeof runOnQueue };
    result = await queue.runOnQueue({
      address,
      plan: { name: display(session.file ?? args.plan), text },
      ...(session.mocks ? { mocks: mocksJson(session.mocks) } : {}),
      ...(Object.keys(args.inputValues).length > 0 ? { inputs: args.inputValues } : {}),
      ...(args.parallel ? { parallel: args.parallel } : {}),
      signal: cancel.signal,
      observer: printer.observer,
      say,
    });
  } catch (error) {
    io.stderr.write(
      `rlm-plan: cannot use the queue ${address.shown}: ${error instanceof Error ? error.message : String(error)}\n`,
    );
    return 2;
  }
  if (result.kind === "cancelled") {
    io.stderr.write("rlm-plan: the run was cancelled; a job no worker had taken is withdrawn\n");
    return cancel.status;
  }
  if (result.kind === "failed") {
    io.stderr.write(`rlm-plan: ${lineText(result.message)}\n`);
    return 1;
  }
  // The worker's journal entry is the run's record: said here, never written twice.
  if (result.recorded) args = { ...args, ...recordedArgs(result.recorded) };
  if (result.worker !== "")
    say(`ran on worker ${result.worker}${result.attempt > 1 ? ` (attempt ${result.attempt})` : ""}`);
  report(result.report, args, io, style, printer.failedAttempts);
  return result.report.outcome.ok ? 0 : 1;
}

/** The run's printer: transitions and failed attempts as `run` shows them (JSON lines on stdout with --json). */
function printerOf(args: RunArgs, text: string, io: RunStreams, style: Style, mocked: boolean): RunEventPrinter {
  return runEventPrinter(
    { file: args.plan, text },
    {
      json: args.json,
      events: args.events,
      mocked,
      style,
      jsonOut: (line) => void io.stdout.write(line),
      textOut: (line) => void io.stderr.write(line),
    },
  );
}
