// Runs a plan when a client asks (`rlmPlan.server.run`), never otherwise: the open document's
// text through the runtime's one pipeline, startRun (check, build what the plan uses, preflight,
// execute; first error, as the reference reports it) against the host profile in force. The
// command answers with the run's id at once; each of the runtime's events goes to the client as
// it happens, unchanged, and the outcome (value or structured error) when the run ends.
// `rlmPlan.server.cancel` aborts a run: the runtime stops it, tool processes are killed, and it
// ends with kind "cancelled". Events carry counters, paths and, for failures, the error's
// message with the run's secrets masked: never a prompt, model text, tool argument or header.
// The run is assembled by the core's plan session (the editor's text and profile, the client's
// keys, the mocks, the mask), which records it and traces it as the profile says.

import type { RunObserver } from "@rlm-plan/core/run";
import type { PlanError, RunEvent, RunHandle, Transition } from "@rlm-plan/core";
import {
  openPlanSessionSync,
  type PlanSession,
  type RecordedRun,
  type RunLife,
  type SessionRun,
  type SessionRunOptions,
} from "@rlm-plan/core/session";
import { parseStepPath, stepPathText, type JsonValue } from "@rlm-plan/core/json";
import { basename } from "node:path";
import { dirname, resolve as pathResolve } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { performance } from "node:perf_hooks";
import { ErrorCodes, LSPErrorCodes, ResponseError } from "vscode-languageserver";
import { HOST_PROFILE_FILENAME } from "./hostProfiles";
import {
  CancelRunCommand,
  ForkRunCommand,
  ResumeRunCommand,
  RunCommand,
  type RunIdentity,
  type RunResult,
} from "../protocol";
import { failureText, openRecordedSession } from "./recordedSession";
import { maskedRunnerHost } from "./runMask";
import { stepArgument } from "./runStepArgument";
import type { PlanRunnerHost } from "./runnerHost";

export type { PlanRunnerHost } from "./runnerHost";

/** How a session's resume or fork answers: the run started, or why not. */
type RecordedStart = { readonly ok: true; readonly run: SessionRun } | { readonly ok: false; readonly refusal: string };

/** A run in progress; `done` settles once the client has heard how it ended. */
type ServerRun = Pick<RunHandle, "cancel" | "kill"> & { readonly done: Promise<unknown> };

export interface PlanRunner {
  /** Starts a run of the plan `{uri}` (or a bare URI); answers at once with its identity. */
  run(args: readonly unknown[]): RunIdentity | ResponseError<void>;
  /** Resumes the recorded run `{dir, id}` (`run --resume`); answers at once with its identity. */
  resume(args: readonly unknown[]): RunIdentity | ResponseError<void>;
  /** Forks the recorded run `{dir, id}` at `step` with `set`'s bindings (`run --from`); answers at once. */
  fork(args: readonly unknown[]): ForkRunCommand.Result | ResponseError<void>;
  /** Cancels the run `{runId}` (or a bare id); true when it was still going. */
  cancel(args: readonly unknown[]): boolean | ResponseError<void>;
}

export function createPlanRunner(server: PlanRunnerHost): PlanRunner {
  /** Runs still going: their command tools run in process groups of their own. */
  const runs = new Map<string, ServerRun>();
  // A server that exits (the client said so, or it crashed) leaves no tool process behind.
  process.once("exit", () => {
    for (const run of runs.values()) run.kill();
  });
  const cancelled = new WeakSet<ServerRun>();
  let counter = 0;
  /**
   * Runs recorded run `id` again through its own session (`start`: the session's resume or fork);
   * answers at once with the new run's identity, or why the journal or the session refused it.
   */
  const again = (
    args: readonly unknown[],
    dir: string,
    id: number,
    purpose: "resume" | "fork",
    start: (session: PlanSession, recorded: RecordedRun, options: SessionRunOptions) => RecordedStart,
  ): RunIdentity | ResponseError<void> => {
    const opened = openRecordedSession(dir, id, purpose, runEnvironment(args));
    if ("message" in opened) return failed(opened.message);
    const { session, recorded } = opened;
    server.sessionStarted?.(session);
    const runId = `run-${++counter}`;
    const identity: { -readonly [K in keyof RunIdentity]: RunIdentity[K] } = {
      uri: pathToFileURL(recorded.planFile as string).href,
      runId,
    };
    let refusal: string | undefined;
    const handle = execute(maskedRunnerHost(server, session.mask), identity, session, (options) => {
      const started = start(session, recorded, {
        ...options,
        life: { origin: "editor", onNotice: (message) => server.notice?.(message) },
      });
      if (started.ok) return started.run;
      refusal = started.refusal;
      return undefined;
    });
    const verb = purpose === "resume" ? "resumed" : "forked";
    if (refusal !== undefined) return failed(`Run ${id} cannot be ${verb}: ${refusal}`);
    runs.set(runId, handle);
    void handle.done.finally(() => runs.delete(runId));
    return identity;
  };
  return {
    run(args) {
      const uri = argument(args, "uri");
      if (uri === undefined) return invalid(`${RunCommand.command} needs the plan's document: [{"uri": "file:///…"}]`);
      const plan = server.plan(uri);
      if (!plan) return failed(`${uri} is not an open plan document: open it in the editor, then run it`);
      const hostFile = server.hostProfileFileFor(uri);
      if (hostFile === undefined) {
        return failed(
          `No host profile for this plan: create ${HOST_PROFILE_FILENAME} in its folder or a folder above it (or set rlmPlan.hostProfile), then run it again`,
        );
      }
      const loaded = server.hostProfile(hostFile);
      if (!loaded.ok) {
        const first = loaded.errors[0];
        const where = first ? ` (first: line ${first.line}, column ${first.column}: ${first.message})` : "";
        const count = loaded.errors.length === 1 ? "a problem" : `${loaded.errors.length} problems`;
        return failed(`The host profile ${basename(hostFile)} has ${count}${where}: fix it, then run the plan again`);
      }
      const step = stepArgument(args);
      if (step && "message" in step) return invalid(step.message);
      const mocks = runMocks(args, hostFile);
      if (mocks !== undefined && "message" in mocks) return invalid(mocks.message);
      const env = runEnvironment(args);
      // The plan session: the editor's text and profile, the client's keys, the mocks, the mask.
      const planFile = filePathOf(uri);
      const opened = openPlanSessionSync({
        // The file names the run in the journal (its text is the editor's).
        ...(planFile !== undefined ? { file: planFile } : {}),
        text: plan.document.getText(),
        document: plan.analysis.document,
        hostProfile: hostFile,
        profile: loaded,
        clientEnv: env,
        ...(mocks ? { mocks } : {}),
      });
      if (!opened.ok) {
        const failure = opened.failure;
        if (failure.kind !== "invalid_mocks") return failed(opened.mask.mask(failureText(failure)));
        const e = failure.errors[0];
        const where = e ? `${basename(e.file)}:${e.line}:${e.column}: ${e.message}` : "invalid mocks";
        const more = failure.errors.length > 1 ? ` (and ${failure.errors.length - 1} more)` : "";
        return invalid(opened.mask.mask(`The mocks cannot be used: ${where}${more}`));
      }
      const runId = `run-${++counter}`;
      const identity: { -readonly [K in keyof RunIdentity]: RunIdentity[K] } = { uri, runId };
      const session = opened.session;
      server.sessionStarted?.(session);
      const masked = maskedRunnerHost(server, session.mask);
      // The session records the run in the workspace's journal and traces it, as every run is.
      const life: RunLife = {
        origin: "editor",
        given: mocks === undefined ? {} : { mocks: "file" in mocks ? mocks.file : "(given by the editor)" },
        onNotice: (message) => server.notice?.(message),
      };
      let refusal: string | undefined;
      const handle = execute(masked, identity, session, (options) => {
        if (!step) return session.run({ ...options, life });
        // One step alone (the "Test This Step" lens): recorded with origin step, as the CLI's.
        const alone = session.runStep(step, { ...options, life });
        if (alone.ok) return alone.run;
        refusal = alone.refusal;
        return undefined;
      });
      if (refusal !== undefined) return invalid(`The step cannot run: ${refusal}`);
      runs.set(runId, handle);
      void handle.done.finally(() => runs.delete(runId));
      return identity;
    },
    resume(args) {
      const first = args[0] as { dir?: unknown; id?: unknown } | undefined;
      const dir = typeof first?.dir === "string" ? first.dir : undefined;
      const id = typeof first?.id === "number" && Number.isSafeInteger(first.id) ? first.id : undefined;
      if (dir === undefined || id === undefined)
        return invalid(`${ResumeRunCommand.command} needs the run: [{"dir": "/…/.rlm-plan", "id": 12}]`);
      return again(args, dir, id, "resume", (session, recorded, options) => session.resume(recorded, options));
    },
    fork(args) {
      const request = forkRequest(args);
      if ("message" in request) return invalid(request.message);
      const { dir, id, fork } = request;
      const identity = again(args, dir, id, "fork", (session, recorded, options) =>
        session.fork(recorded, fork, options),
      );
      if (identity instanceof ResponseError) return identity;
      return { ...identity, forkOf: { run: id, step: stepPathText(fork.at) } };
    },
    cancel(args) {
      const runId = argument(args, "runId");
      if (runId === undefined) return invalid(`${CancelRunCommand.command} needs the run's id: [{"runId": "run-1"}]`);
      const run = runs.get(runId);
      if (!run || cancelled.has(run)) return false;
      cancelled.add(run);
      run.cancel();
      return true;
    },
  };
}

/**
 * Variables the client passes for this run only (provider keys from its secret storage): added
 * to the environment providers read keys from, for this run's host, never stored or echoed.
 */
function runEnvironment(args: readonly unknown[]): Record<string, string> {
  const first = args[0];
  if (typeof first !== "object" || first === null || Array.isArray(first)) return {};
  const env: unknown = (first as Record<string, unknown>).env;
  if (typeof env !== "object" || env === null || Array.isArray(env)) return {};
  const result: Record<string, string> = Object.create(null) as Record<string, string>;
  for (const [name, value] of Object.entries(env)) {
    if (/^[A-Za-z_][A-Za-z0-9_]*$/.test(name) && typeof value === "string") result[name] = value;
  }
  return result;
}

/** `args[0]` as `{key: text}`, or as the bare text. */
function argument(args: readonly unknown[], key: string): string | undefined {
  const first = args[0];
  if (typeof first === "string") return first;
  if (typeof first === "object" && first !== null && !Array.isArray(first)) {
    const value: unknown = (first as Record<string, unknown>)[key];
    if (typeof value === "string") return value;
  }
  return undefined;
}

function invalid(message: string): ResponseError<void> {
  return new ResponseError(ErrorCodes.InvalidParams, message);
}

function failed(message: string): ResponseError<void> {
  return new ResponseError(LSPErrorCodes.RequestFailed, message);
}

/**
 * The run's mocks: `mocks` in the request is a mocks file (a path or file URI, relative paths
 * against the host profile's folder) or the mocks themselves (an object, checked against the
 * same schema). Undefined for a real run; the session reads and checks them.
 */
function runMocks(
  args: readonly unknown[],
  hostFile: string,
): { readonly file: string } | { readonly value: unknown; readonly name: string } | { message: string } | undefined {
  const first = args[0];
  if (typeof first !== "object" || first === null || Array.isArray(first)) return undefined;
  const mocks: unknown = (first as Record<string, unknown>).mocks;
  if (mocks === undefined || mocks === null) return undefined;
  if (typeof mocks !== "string") return { value: mocks, name: "mocks" };
  try {
    return { file: mocks.startsWith("file:") ? fileURLToPath(mocks) : resolvePath(hostFile, mocks) };
  } catch {
    return { message: `The mocks cannot be used: ${JSON.stringify(mocks)} is not a file path or file URI` };
  }
}

/** ForkRunCommand's arguments, checked: the run, and the step and bindings as the core takes them. */
function forkRequest(args: readonly unknown[]):
  | {
      dir: string;
      id: number;
      fork: { at: readonly (string | number)[]; set: Map<string, JsonValue>; allowChanged: boolean };
    }
  | { message: string } {
  const usage = `${ForkRunCommand.command} needs the run and a step: [{"dir": "/…/.rlm-plan", "id": 12, "step": "steps/2", "set": {"name": value}}]`;
  const first = args[0];
  if (typeof first !== "object" || first === null || Array.isArray(first)) return { message: usage };
  const { dir, id, step, set, allowChanged } = first as Record<string, unknown>;
  if (typeof dir !== "string" || typeof id !== "number" || !Number.isSafeInteger(id) || typeof step !== "string")
    return { message: usage };
  const at = parseStepPath(step);
  if (!at)
    return { message: `${ForkRunCommand.command}: ${JSON.stringify(step)} is not a step path such as "steps/2"` };
  if (set !== undefined && (typeof set !== "object" || set === null || Array.isArray(set)))
    return { message: `${ForkRunCommand.command}: "set" must be an object of binding names and JSON values` };
  const values = new Map<string, JsonValue>(Object.entries((set ?? {}) as Record<string, JsonValue>));
  return { dir, id, fork: { at, set: values, allowChanged: allowChanged === true } };
}

/** A file URI's path; undefined for an untitled document or another scheme. */
export function filePathOf(uri: string): string | undefined {
  if (!uri.startsWith("file:")) return undefined;
  try {
    return fileURLToPath(uri);
  } catch {
    return undefined;
  }
}

function resolvePath(hostFile: string, path: string): string {
  return pathResolve(dirname(hostFile), path);
}

/**
 * Starts the run (`start`: the session's run or resume, given the listener) and tells the client
 * its events and its end; the identity gains the run's journal entry before the command answers.
 * Undefined when the session refused to start it (a resume of a changed plan).
 */
function execute(
  server: PlanRunnerHost,
  identity: { -readonly [K in keyof RunIdentity]: RunIdentity[K] },
  session: PlanSession,
  start: (options: { observers: readonly RunObserver[] }) => SessionRun | undefined,
): ServerRun {
  const started = performance.now();
  let transitionCount = 0;
  const mocked = session.mocks !== undefined;
  const handle = start({
    // Every event as the runtime emitted it (a transition's entry kept to its defined fields).
    observers: [
      {
        event: (event) => {
          if (event.type === "transition") transitionCount++;
          server.event({ ...identity, ...(mocked ? { mocked } : {}), event: wireEvent(event) });
        },
      },
    ],
  });
  if (!handle) return { cancel: () => undefined, kill: () => undefined, done: Promise.resolve() };
  if (handle.recorded) identity.journal = { ...handle.recorded };
  const finish = (result: RunResult): void => {
    server.finished({
      ...identity,
      ...(mocked ? { mocked } : {}),
      result,
      elapsedMs: Math.round(performance.now() - started),
      transitionCount,
    });
  };
  const done = handle.done.then(
    (report) => {
      const { outcome } = report;
      const budgetRemaining = { ...outcome.budget_remaining };
      const location = report.location
        ? { location: { line: report.location.line, column: report.location.column } }
        : {};
      finish(
        outcome.ok
          ? { ok: true, value: outcome.value, checkpoints: outcome.checkpoints, budgetRemaining }
          : { ok: false, error: outcome.error, checkpoints: outcome.checkpoints, budgetRemaining, ...location },
      );
      return report;
    },
    (error: unknown) => {
      const message = error instanceof Error ? error.message : String(error);
      const failure: PlanError = {
        phase: "execute",
        kind: "runtime_error",
        message: `internal error: ${message.slice(0, 500)}`,
      };
      finish({ ok: false, error: failure, checkpoints: [] });
    },
  );
  return { cancel: handle.cancel, kill: handle.kill, done };
}

/** The event as sent: a transition event's entry with only the fields a transition carries. */
function wireEvent(event: RunEvent): RunEvent {
  return event.type === "transition" ? { ...event, transition: contentFree(event.transition) } : event;
}

/** Only the fields a transition is defined to carry (counters, never values), whatever a runtime version adds. */
function contentFree(transition: Transition): Transition {
  const { sequence, operation, bind, status, elapsed_ms, duration_ms, remaining } = transition;
  return { sequence, operation, bind, status, elapsed_ms, duration_ms, remaining: { ...remaining } };
}
