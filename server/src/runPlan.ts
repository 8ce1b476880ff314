// Runs a plan when a client asks (`rlmPlan.server.run`), never otherwise: the open document's
// text through the runtime's own pipeline (parse, validate, preflight, execute; first error, as
// the reference reports it) against the host profile in force, built with createRunHost. The
// command answers with the run's id at once; each transition goes to the client as it happens
// and the outcome (value or structured error) when the run ends. `rlmPlan.server.cancel` aborts
// a run: the runtime stops it, tool processes are killed, and it ends with kind "cancelled".
// Notifications carry only what transitions carry (sequence, operation, bind, status, timing):
// never a prompt, model text, tool argument, header or key.

import { checkPlan, executePlan, type PlanError, type RunOutcome, type Transition } from "@rlm-plan/shared-runtime";
import { createRunHost, HostSetupError, type CreatedHost } from "@rlm-plan/shared-runtime/out/host/createHost";
import type { HostProfileResult } from "@rlm-plan/shared-runtime/out/host/profile";
import { basename } from "node:path";
import { performance } from "node:perf_hooks";
import { ErrorCodes, LSPErrorCodes, ResponseError } from "vscode-languageserver";
import type { AnalyzedPlan } from "./analyzedPlan";
import { HOST_PROFILE_FILENAME } from "./hostProfiles";
import {
  CancelRunCommand,
  RunCommand,
  type RunFinishedParams,
  type RunIdentity,
  type RunResult,
  type RunStepStartedParams,
  type RunTransitionParams,
} from "./protocol";
import { maskedRunnerHost, runSecrets } from "./runMask";

/** What a run needs from the server: the analysed plan, its host profile, and a way to talk. */
export interface PlanRunnerHost {
  /** The cached analysis of an open plan document. */
  plan(uri: string): AnalyzedPlan | undefined;
  /** The host profile file that applies to a plan document, if one was found. */
  hostProfileFileFor(uri: string): string | undefined;
  /** The runtime loader's result for that file (the editor's text when open). */
  hostProfile(file: string): HostProfileResult;
  stepStarted(params: RunStepStartedParams): void;
  transition(params: RunTransitionParams): void;
  finished(params: RunFinishedParams): void;
}

export interface PlanRunner {
  /** Starts a run of the plan `{uri}` (or a bare URI); answers at once with its identity. */
  run(args: readonly unknown[]): RunIdentity | ResponseError<void>;
  /** Cancels the run `{runId}` (or a bare id); true when it was still going. */
  cancel(args: readonly unknown[]): boolean | ResponseError<void>;
}

export function createPlanRunner(server: PlanRunnerHost): PlanRunner {
  const runs = new Map<string, AbortController>();
  /** Hosts of runs still going: their command tools run in process groups of their own. */
  const hosts = new Set<CreatedHost>();
  // A server that exits (the client said so, or it crashed) leaves no tool process behind.
  process.once("exit", () => {
    for (const host of hosts) host.kill();
  });
  let counter = 0;
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
      const runId = `run-${++counter}`;
      const controller = new AbortController();
      runs.set(runId, controller);
      const identity: RunIdentity = { uri, runId };
      const env = runEnvironment(args);
      const masked = maskedRunnerHost(server, runSecrets(env, loaded.profile));
      void execute(masked, identity, plan, loaded.profile, controller.signal, hosts, env).finally(() =>
        runs.delete(runId),
      );
      return identity;
    },
    cancel(args) {
      const runId = argument(args, "runId");
      if (runId === undefined) return invalid(`${CancelRunCommand.command} needs the run's id: [{"runId": "run-1"}]`);
      const controller = runs.get(runId);
      if (!controller || controller.signal.aborted) return false;
      controller.abort();
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

async function execute(
  server: PlanRunnerHost,
  identity: RunIdentity,
  plan: AnalyzedPlan,
  profile: Extract<HostProfileResult, { ok: true }>["profile"],
  signal: AbortSignal,
  hosts: Set<CreatedHost>,
  env: Readonly<Record<string, string>>,
): Promise<void> {
  const started = performance.now();
  let transitionCount = 0;
  let created: CreatedHost | undefined;
  const finish = (result: RunResult): void => {
    server.finished({ ...identity, result, elapsedMs: Math.round(performance.now() - started), transitionCount });
  };
  try {
    try {
      created = await createRunHost(profile, { env: { ...process.env, ...env } });
      hosts.add(created);
    } catch (error) {
      if (!(error instanceof HostSetupError)) throw error;
      const first = error.errors[0];
      const where = first ? `: ${basename(first.file)} line ${first.line}: ${first.message}` : "";
      return finish(
        failure({ phase: "preflight", kind: "host_setup_failed", message: `the host could not be set up${where}` }),
      );
    }
    if (signal.aborted) return finish(failure(cancelledError()));
    const text = plan.document.getText();
    const checked = checkPlan({ kind: "document", text, document: plan.analysis.document }, created.policy);
    if (!checked.ok) return finish(failure(checked.error));
    const outcome: RunOutcome = await executePlan(checked.validated, created.host, {
      signal,
      onStepStart: (step) =>
        server.stepStarted({
          ...identity,
          step: { operation: step.operation, bind: step.bind, path: step.path, depth: step.depth },
        }),
      onTransition: (transition) => {
        transitionCount++;
        server.transition({ ...identity, transition: contentFree(transition) });
      },
    });
    finish(
      outcome.ok
        ? {
            ok: true,
            value: outcome.value,
            checkpoints: outcome.checkpoints,
            budgetRemaining: { ...outcome.budget_remaining },
          }
        : {
            ok: false,
            error: outcome.error,
            checkpoints: outcome.checkpoints,
            budgetRemaining: { ...outcome.budget_remaining },
          },
    );
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    finish(failure({ phase: "execute", kind: "runtime_error", message: `internal error: ${message.slice(0, 500)}` }));
  } finally {
    // Tools the run abandoned (cancelled, timed out) are stopped after the client has heard.
    if (created) {
      await created.close();
      hosts.delete(created);
    }
  }
}

/** Only the fields a transition is defined to carry (counters, never values), whatever a runtime version adds. */
function contentFree(transition: Transition): Transition {
  const { sequence, operation, bind, status, elapsed_ms, duration_ms, remaining } = transition;
  return { sequence, operation, bind, status, elapsed_ms, duration_ms, remaining: { ...remaining } };
}

function failure(error: PlanError): RunResult {
  return { ok: false, error, checkpoints: [] };
}

function cancelledError(): PlanError {
  return { phase: "execute", kind: "cancelled", message: "the run was cancelled" };
}
