// `rlm-plan run PLAN`: runs a plan file against the host profile of its workspace. Transitions
// stream as they happen (to stderr as aligned lines, or to stdout as JSON lines with --json);
// the final value goes to stdout. Exit status: 0 success, 1 the plan failed (invalid or an
// execution error), 2 usage or host-profile error, 130 cancelled by Ctrl-C (143 by SIGTERM).

import { isAbsolute, relative, resolve } from "node:path";
import { analyzePlanText } from "../analysis";
import { createRunHost, hostPolicy, HostSetupError, type CreatedHost } from "../host/createHost";
import {
  findHostProfile,
  HOST_PROFILE_FILENAME,
  loadHostProfile,
  readErrorText,
  type HostProfileError,
} from "../host/profile";
import { childPlans, type Plan } from "../plan/ast";
import type { Budget } from "../plan/budget";
import type { PlanError } from "../run/errors";
import { executePlan, operationName } from "../run/interpreter";
import { checkPlan } from "../run/pipeline";
import type { RunOutcome, Transition } from "../run/transitions";
import { environmentSecrets, SecretMask } from "../run/secrets";
import { MAX_PLAN_BYTES, readTextFile } from "../text/boundedFile";
import { guardedStream } from "./guardedOutput";
import { styleFor, type Style } from "./output";
import { Cancellation } from "./signals";

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

export const RUN_USAGE = "usage: rlm-plan run PLAN [--host FILE] [--input NAME=PATH]... [--json]";

export const RUN_HELP = `rlm-plan run: run a plan file against the workspace's host profile

${RUN_USAGE}

The host profile (${HOST_PROFILE_FILENAME}) is the nearest one in the plan's folder or above it.
It grants capabilities and a budget, and provides the inputs, tools and model providers.

options:
  --host FILE         use this host profile instead
  --input NAME=PATH   use the text file PATH as input NAME (repeatable)
  --json              one JSON line per transition on stdout, then a {"type":"result"} line
  -h, --help          show this help

Transitions are printed to stderr as they happen; the final value goes to stdout.
Ctrl-C cancels the run: running tools are killed.

exit status: 0 success, 1 the plan is invalid or failed, 2 usage or host profile error,
             130 cancelled (Ctrl-C)`;

interface RunArgs {
  readonly plan: string;
  /** The host profile in force, as shown (set once it is found). */
  readonly hostProfile?: string;
  readonly host: string | undefined;
  readonly inputs: Record<string, string>;
  readonly json: boolean;
}

/** Runs `rlm-plan run` with the arguments after "run". Never throws; resolves to the exit status. */
export async function runCommand(argv: readonly string[], unguarded: RunIo): Promise<number> {
  const mask = new SecretMask(environmentSecrets(unguarded.env ?? process.env));
  const io: GuardedIo = {
    ...unguarded,
    stdout: guardedStream(unguarded.stdout, mask),
    stderr: guardedStream(unguarded.stderr, mask),
    mask,
  };
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
  const env = io.env ?? process.env;
  const style = styleFor(io.stderr, env);
  let text: string;
  try {
    text = await readTextFile(args.plan, MAX_PLAN_BYTES);
  } catch (error) {
    io.stderr.write(`rlm-plan: cannot read the plan ${args.plan}: ${readErrorText(error)}\n`);
    return 2;
  }
  if (text.charCodeAt(0) === 0xfeff) text = text.slice(1);

  const profileFile = args.host ?? findHostProfile(args.plan);
  if (profileFile === undefined) {
    io.stderr.write(
      `rlm-plan: no host profile: there is no ${HOST_PROFILE_FILENAME} in the folder of ${args.plan} or any folder above it; create one or pass --host FILE\n`,
    );
    return 2;
  }
  // Which profile decided capabilities, budget, tools and providers: said first, in JSON too.
  args = { ...args, hostProfile: display(profileFile) };
  if (!args.json) io.stderr.write(`rlm-plan: host profile ${args.hostProfile}\n`);
  const loaded = loadHostProfile(profileFile);
  if (!loaded.ok) return hostErrors(loaded.errors, args, io);
  io.mask.add(environmentSecrets(env, loaded.profile));

  // The plan is checked before the host is built, so an invalid plan never reads the inputs.
  const policy = hostPolicy(loaded.profile);
  const checked = checkPlan({ kind: "document", text }, policy);
  if (!checked.ok) {
    const failure: RunOutcome = {
      ok: false,
      error: checked.error,
      transitions: [],
      checkpoints: [],
      budget_remaining: zeroBudget(),
    };
    report(failure, args, io, style, planLocation(text, checked.error, policy));
    return 1;
  }

  let created: CreatedHost;
  try {
    created = await createRunHost(loaded.profile, { env, inputFiles: args.inputs });
  } catch (error) {
    if (error instanceof HostSetupError) return hostErrors(error.errors, args, io);
    throw error;
  }
  cancel.onKill(() => created.kill());
  try {
    if (cancel.signal.aborted) return cancelled(args, io, cancel);
    const printer = transitionPrinter(checked.validated.plan, args.json, io, style);
    const outcome = await executePlan(checked.validated, created.host, {
      signal: cancel.signal,
      onTransition: printer,
    });
    // Tools the run abandoned (cancelled, timed out) are gone before we report.
    await created.close();
    if (!outcome.ok && outcome.error.kind === "cancelled" && cancel.signal.aborted)
      return cancelled(args, io, cancel, outcome);
    report(outcome, args, io, style, undefined, checked.validated.budget);
    return outcome.ok ? 0 : 1;
  } finally {
    await created.close();
  }
}

// ---- arguments ----------------------------------------------------------------------------

function parseRunArgs(argv: readonly string[]): RunArgs | "help" | string {
  const positionals: string[] = [];
  const inputs: Record<string, string> = Object.create(null) as Record<string, string>;
  let host: string | undefined;
  let json = false;
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i] as string;
    if (arg === "--") {
      positionals.push(...argv.slice(i + 1));
      break;
    }
    if (!arg.startsWith("-") || arg === "-") {
      positionals.push(arg);
      continue;
    }
    const equals = arg.indexOf("=");
    const name = equals < 0 ? arg : arg.slice(0, equals);
    const value = () => (equals < 0 ? argv[++i] : arg.slice(equals + 1));
    switch (name) {
      case "-h":
      case "--help":
        return "help";
      case "--json":
        if (equals >= 0) return "--json takes no value";
        json = true;
        break;
      case "--host": {
        const file = value();
        if (file === undefined || file === "") return "--host needs a FILE";
        host = file;
        break;
      }
      case "--input": {
        const spec = value();
        const split = spec?.indexOf("=") ?? -1;
        if (spec === undefined || split <= 0 || split === spec.length - 1)
          return "--input needs NAME=PATH, for example --input haystack=data/big.txt";
        inputs[spec.slice(0, split)] = spec.slice(split + 1);
        break;
      }
      default:
        return `unknown option ${name}`;
    }
  }
  if (positionals.length === 0) return "run needs a PLAN file";
  if (positionals.length > 1) return "run takes one PLAN file";
  return { plan: positionals[0] as string, host, inputs, json };
}

// ---- cancellation ---------------------------------------------------------------------------

function cancelled(args: RunArgs, io: RunIo, cancel: Cancellation, outcome?: RunOutcome): number {
  if (args.json) {
    const error =
      outcome && !outcome.ok
        ? outcome.error
        : { phase: "execute", kind: "cancelled", message: "the run was cancelled" };
    io.stdout.write(
      `${JSON.stringify({ type: "result", ok: false, error, checkpoints: outcome?.checkpoints ?? [], budget_remaining: outcome?.budget_remaining ?? null, host_profile: args.hostProfile })}\n`,
    );
  }
  io.stderr.write("rlm-plan: the run was cancelled\n");
  return cancel.status;
}

// ---- output ---------------------------------------------------------------------------------

/** Prints each transition as it happens, in columns sized from the plan's own steps. */
function transitionPrinter(plan: Plan, json: boolean, io: RunIo, style: Style): (t: Transition) => void {
  if (json) return (t) => void io.stdout.write(`${JSON.stringify({ type: "transition", ...t })}\n`);
  let operationWidth = "final".length;
  let bindWidth = 0;
  let steps = 0;
  const visit = (p: Plan) => {
    for (const step of p.steps) {
      steps++;
      operationWidth = Math.max(operationWidth, operationName(step).length);
      if ("bind" in step) bindWidth = Math.max(bindWidth, step.bind.length + 3);
      childPlans(step).forEach(visit);
    }
  };
  visit(plan);
  const sequenceWidth = Math.max(3, String(steps).length);
  return (t) => {
    const bind = t.bind === null ? "" : `-> ${t.bind}`;
    const line = `${String(t.sequence).padStart(sequenceWidth)}  ${t.operation.padEnd(operationWidth)}  ${bind.padEnd(bindWidth)}  ${style.green(t.status)}  ${String(t.duration_ms).padStart(5)} ms`;
    io.stderr.write(`${line.trimEnd()}\n`);
  };
}

interface Location {
  readonly line: number;
  readonly column: number;
}

function report(outcome: RunOutcome, args: RunArgs, io: RunIo, style: Style, where?: Location, budget?: Budget): void {
  const { checkpoints, budget_remaining } = outcome;
  if (args.json) {
    const result = outcome.ok
      ? {
          type: "result",
          ok: true,
          value: outcome.value,
          checkpoints,
          budget_remaining,
          host_profile: args.hostProfile,
        }
      : {
          type: "result",
          ok: false,
          error: outcome.error,
          ...(where ? { location: { file: args.plan, line: where.line, column: where.column } } : {}),
          checkpoints,
          budget_remaining,
          host_profile: args.hostProfile,
        };
    io.stdout.write(`${JSON.stringify(result)}\n`);
    return;
  }
  if (outcome.ok) {
    io.stdout.write(`${JSON.stringify(outcome.value, null, 2)}\n`);
    io.stderr.write(`rlm-plan: ${style.green("ok")}: ${usage(outcome, budget)}\n`);
    return;
  }
  const { error } = outcome;
  const place = where ? `${args.plan}:${where.line}:${where.column}: ` : "";
  const what = error.phase === "execute" || error.phase === "preflight" ? "run failed" : "invalid plan";
  io.stderr.write(`${place}${style.red(`${what}`)}: ${error.message} [${error.phase}/${error.kind}]\n`);
  io.stderr.write(`${JSON.stringify(error, null, 2)}\n`);
  if (checkpoints.length > 0)
    io.stderr.write(`checkpoints reached: ${checkpoints.map((c) => JSON.stringify(c)).join(", ")}\n`);
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

/** Where the first problem checkPlan reported is in the file: the analysis holds the same problem, located. */
function planLocation(
  text: string,
  error: PlanError,
  policy: { capabilities: unknown; budget: unknown },
): Location | undefined {
  const analysis = analyzePlanText(text, policy);
  const match = analysis.problems.find((p) => p.kind === error.kind && p.message === error.message);
  if (!match) return undefined;
  const lines = text.slice(0, match.range.offset).split("\n");
  return { line: lines.length, column: (lines[lines.length - 1] ?? "").length + 1 };
}

function hostErrors(errors: readonly HostProfileError[], args: RunArgs, io: RunIo): number {
  for (const e of errors) io.stderr.write(`${display(e.file)}:${e.line}:${e.column}: ${e.message}\n`);
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
  const rel = relative(process.cwd(), resolve(file));
  return rel !== "" && !rel.startsWith("..") && !isAbsolute(rel) ? rel : file;
}

function zeroBudget(): RunOutcome["budget_remaining"] {
  return { steps: 0, model_calls: 0, tool_calls: 0, context_ops: 0, output_bytes: 0 };
}
