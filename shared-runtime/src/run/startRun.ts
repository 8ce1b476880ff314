// The one way a plan runs: check (parse, validate), build only what the plan uses (the host
// factory is told which tools, providers and inputs it names), preflight (the runtime's names,
// then the host's own checks: programs that resolve, provider keys that are set), execute.
// The CLI, `propose --run`, the language server and the conformance runner all start runs
// here; every stage's failure is a value, and `budget_remaining` follows one rule.

import { lineColumn } from "../analysis";
import type { JsonPath } from "../json";
import { childPlans, inputNames, stepExpressions, type Plan } from "../plan/ast";
import type { Budget } from "../plan/budget";
import { parsePlanDocument, type PlanDocument } from "../text/planDocument";
import type { ValidatedPlan } from "../plan/validate";
import type { HostProfileError } from "../host/profile";
import { safeErrorText, type PlanError } from "./errors";
import type { ParallelMode } from "./events";
import type { RunHost } from "./host";
import { executePlan, type ExecuteOptions } from "./interpreter";
import { checkPlan, notStarted, planLocation, type PolicyOptions } from "./pipeline";
import { preflightPlan } from "./preflight";
import type { RunOutcome } from "./transitions";
import { estimatePlan } from "../plan/estimate";
import type { JsonObject } from "../json";
import { chainInterceptors, type ObservedReport, type RunObserver } from "./observer";
import type { PlanSource } from "../plan/parse";

/** What a plan names: the host builds these and nothing else. */
export interface PlanNeeds {
  readonly tools: ReadonlySet<string>;
  readonly providers: ReadonlySet<string>;
  readonly inputs: ReadonlySet<string>;
}

/** A host built for one run. */
export interface BuiltHost {
  readonly host: RunHost;
  /** The host's own preflight: programs that do not resolve, provider keys that are unset. */
  readonly problems?: readonly PlanError[];
  /** Whether tools or providers answer from a mocks file: every output of the run says so. */
  readonly mocked?: boolean;
  /** The host's setting for parallel branches; a run's own option wins. */
  readonly parallel?: ParallelMode;
  /** Stops what the run left behind (tool processes) and waits until it is gone. */
  close?(): Promise<void>;
  /** SIGKILL to every tool process still running, without waiting (a process about to exit). */
  kill?(): void;
}

export type HostSetup =
  | { readonly ok: true; readonly built: BuiltHost }
  /** Located problems of the host's configuration (file:line:col), all of them. */
  | { readonly ok: false; readonly errors: readonly HostProfileError[] };

export type HostFactory = (needs: PlanNeeds) => Promise<HostSetup>;

export interface StartRunOptions extends ExecuteOptions {
  readonly source: PlanSource;
  readonly policy: PolicyOptions;
  /** A ready host, or a factory that builds what the plan needs. */
  readonly host: RunHost | HostFactory;
  /** What watches the run: the run journal, the trace exporter (see observer.ts). */
  readonly observers?: readonly RunObserver[];
}

/** Where a run stopped: the plan was invalid, the host could not be built, preflight, or it ran. */
export type RunStage = "check" | "host" | "preflight" | "execute";

export interface FileLocation {
  /** 1-based, as editors and compilers print them. */
  readonly line: number;
  readonly column: number;
  readonly offset: number;
  readonly length: number;
}

export interface RunReport {
  readonly outcome: RunOutcome;
  readonly stage: RunStage;
  readonly mocked: boolean;
  /** The host's located setup problems (stage "host"). */
  readonly hostErrors?: readonly HostProfileError[];
  /** The checked plan, when it was valid. */
  readonly validated?: ValidatedPlan;
  /** The budget in force, when it resolved. */
  readonly budget?: Budget;
  /** Where the error is in the plan's file, when the plan came from a document. */
  readonly location?: FileLocation;
}

export interface RunHandle {
  readonly done: Promise<RunReport>;
  /** Cancels the run (as `signal` does): the runtime stops, tool processes are killed. */
  cancel(): void;
  /** Kills tool processes now, without waiting (the second Ctrl-C). */
  kill(): void;
}

export function startRun(options: StartRunOptions): RunHandle {
  const controller = new AbortController();
  const outer = options.signal;
  const onAbort = () => controller.abort();
  if (outer?.aborted) controller.abort();
  else outer?.addEventListener("abort", onAbort, { once: true });
  let built: BuiltHost | undefined;
  const observers = options.observers ?? [];
  const done = run(observed(options, observers), controller.signal, (b) => (built = b))
    .then(async (report) => {
      await tell(observers, report);
      return report;
    })
    .finally(() => outer?.removeEventListener("abort", onAbort));
  return { done, cancel: () => controller.abort(), kill: () => built?.kill?.() };
}

async function run(
  options: StartRunOptions,
  signal: AbortSignal,
  onBuilt: (built: BuiltHost) => void,
): Promise<RunReport> {
  const { source } = options;
  const document = source.kind === "document" ? (source.document ?? parsePlanDocument(source.text)) : undefined;
  const withDocument: PlanSource = source.kind === "document" ? { ...source, document } : source;
  const locate = (error: PlanError): FileLocation | undefined => locationOf(withDocument, document, error, options);

  const checked = checkPlan(withDocument, options.policy);
  if (!checked.ok) {
    const budget = checked.budget ?? checked.policyBudget;
    const outcome = notRun(checked.error, budget);
    return { outcome, stage: "check", mocked: false, ...definedOnly({ budget, location: locate(checked.error) }) };
  }
  const validated = checked.validated;
  const budget: Budget = { ...validated.budget, ...options.budget };
  const plan = validated.plan;

  let built: BuiltHost;
  if (typeof options.host === "function") {
    let setup: HostSetup;
    try {
      setup = await options.host(planNeeds(plan));
    } catch (error) {
      const failure = hostFailure([], `the host could not be set up: ${safeErrorText(error)}`);
      return { outcome: notRun(failure, budget), stage: "host", mocked: false, validated, budget };
    }
    if (!setup.ok) {
      const error = hostFailure(setup.errors);
      return {
        outcome: notRun(error, budget),
        stage: "host",
        mocked: false,
        validated,
        budget,
        hostErrors: setup.errors,
      };
    }
    built = setup.built;
  } else {
    built = { host: options.host };
  }
  onBuilt(built);
  const mocked = built.mocked === true;
  try {
    const preflight = preflightPlan(plan, built.host);
    const problem = preflight.ok ? built.problems?.[0] : preflight.errors[0];
    if (problem) {
      return {
        outcome: notRun(problem, budget),
        stage: "preflight",
        mocked,
        validated,
        budget,
        ...definedOnly({ location: locate(problem) }),
      };
    }
    if (signal.aborted) {
      const cancelled: PlanError = { phase: "execute", kind: "cancelled", message: "the run was cancelled" };
      return { outcome: notRun(cancelled, budget), stage: "execute", mocked, validated, budget };
    }
    for (const observer of options.observers ?? [])
      quietly(() => observer.started?.({ validated, budget, estimate: estimatePlan(plan), mocked }));
    const rangeOf = document ? (path: JsonPath) => document.rangeOf(path) : undefined;
    const parallel = options.parallel ?? built.parallel;
    const outcome = await executePlan(validated, built.host, {
      ...options,
      ...(parallel ? { parallel } : {}),
      signal,
      ...(rangeOf && !options.rangeOf ? { rangeOf } : {}),
    });
    const location = outcome.ok ? undefined : locate(outcome.error);
    return { outcome, stage: "execute", mocked, validated, budget, ...definedOnly({ location }) };
  } finally {
    // Tools the run abandoned (cancelled, timed out, a failed sibling branch) are gone before the report.
    await built.close?.();
  }
}

/** The options with every observer's event listener and call wrapper joined to the run's own. */
function observed(options: StartRunOptions, observers: readonly RunObserver[]): StartRunOptions {
  if (observers.length === 0) return options;
  const listeners = observers.flatMap((o) => (o.event ? [o.event.bind(o)] : []));
  const own = options.onEvent;
  const calls = chainInterceptors([
    ...observers.flatMap((o) => (o.call ? [o.call] : [])),
    ...(options.calls ? [options.calls] : []),
  ]);
  const before = Math.max(options.elapsedBeforeMs ?? 0, ...observers.map((o) => o.elapsedBeforeMs ?? 0));
  return {
    ...options,
    onEvent: (event) => {
      for (const listener of listeners) quietly(() => listener(event));
      own?.(event);
    },
    ...(calls ? { calls } : {}),
    ...(before > 0 ? { elapsedBeforeMs: before } : {}),
  };
}

/** Every observer hears how the run ended; their failures are theirs. */
async function tell(observers: readonly RunObserver[], report: RunReport): Promise<void> {
  if (observers.length === 0) return;
  const { outcome } = report;
  const ended: ObservedReport = {
    stage: report.stage,
    ok: outcome.ok,
    ...(outcome.ok ? { value: outcome.value } : { error: outcome.error as unknown as JsonObject }),
    ...(report.budget ? { budget: report.budget } : {}),
    remaining: { ...outcome.budget_remaining },
    checkpoints: outcome.checkpoints,
    transitions: outcome.transitions.length,
    mocked: report.mocked,
  };
  await Promise.all(
    observers.map((o) =>
      Promise.resolve()
        .then(() => o.finished?.(ended))
        .catch(() => undefined),
    ),
  );
}

function quietly(call: () => void): void {
  try {
    call();
  } catch {
    // an observer's failure never changes the run
  }
}

/** startRun's outcome alone, for hosts that need nothing else (tests, embedders). */
export async function runPlan(
  source: PlanSource,
  policy: PolicyOptions,
  host: RunHost | HostFactory,
  options: ExecuteOptions = {},
): Promise<RunOutcome> {
  return (await startRun({ ...options, source, policy, host }).done).outcome;
}

/** Tools, providers and inputs named anywhere in the plan (nested plans, branches, retries). */
export function planNeeds(plan: Plan): PlanNeeds {
  const tools = new Set<string>();
  const providers = new Set<string>();
  const inputs = new Set<string>();
  const visit = (p: Plan): void => {
    for (const step of p.steps) {
      if (step.op === "tool") tools.add(step.name);
      if (step.op === "model") providers.add(step.provider);
      for (const [, expr] of stepExpressions(step)) inputNames(expr, inputs);
      childPlans(step).forEach(visit);
    }
  };
  visit(plan);
  return { tools, providers, inputs };
}

/** A run that never started: its whole budget remains (zeros when the budget itself was invalid). */
function notRun(error: PlanError, budget: Budget | undefined): RunOutcome {
  return { ok: false, error, transitions: [], checkpoints: [], budget_remaining: notStarted(budget) };
}

function hostFailure(errors: readonly HostProfileError[], fallback?: string): PlanError {
  const first = errors[0];
  const more = errors.length > 1 ? ` (and ${errors.length - 1} more)` : "";
  const message = first
    ? `the host could not be set up: ${first.file}:${first.line}:${first.column}: ${first.message}${more}`
    : (fallback ?? "the host could not be set up");
  return {
    phase: "preflight",
    kind: "host_setup_failed",
    message,
    problems: errors.map((e) => ({ file: e.file, line: e.line, column: e.column, message: e.message })),
  };
}

/** An error's place in the plan file: a static problem's own range, or the failing step's. */
function locationOf(
  source: PlanSource,
  document: PlanDocument | undefined,
  error: PlanError,
  options: StartRunOptions,
): FileLocation | undefined {
  if (!document) return undefined;
  let range =
    error.phase === "execute" || error.phase === "preflight" ? undefined : planLocation(source, error, options.policy);
  if (!range && Array.isArray(error.path)) range = document.rangeOf(error.path as JsonPath);
  if (!range) return undefined;
  const { line, character } = lineColumn(document.text, range.offset);
  return { line: line + 1, column: character + 1, offset: range.offset, length: range.length };
}

function definedOnly<T extends object>(value: T): Partial<T> {
  return Object.fromEntries(Object.entries(value).filter(([, v]) => v !== undefined)) as Partial<T>;
}
