// The one way a plan runs: check (parse, validate), build only what the plan uses (the host
// factory is told which tools, providers and inputs it names), preflight (the runtime's names,
// then the host's own checks: programs that resolve, provider keys that are set), execute.
// The CLI, `propose --run`, the language server and the conformance runner all start runs
// here; every stage's failure is a value, and `budget_remaining` follows one rule.
// Over 400 lines because it is the one run pipeline end to end (check, build, preflight, execute); not split yet.

import { lineColumn } from "../text/lineColumn";
import type { JsonPath } from "../json";
import type { Plan } from "../plan/ast";
import { planNeeds, type PlanNeeds } from "../plan/needs";
import { planSteps } from "../plan/walk";
import type { Budget } from "../plan/budget";
import { parsePlanDocument, type PlanDocument } from "../text/planDocument";
import type { SourceRange } from "../text/pathRanges";
import type { ValidatedPlan } from "../plan/validate";
import type { HostProfileError } from "../host/profile";
import type { ToolSignature } from "../plan/toolArguments";
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

export type { PlanNeeds } from "../plan/needs";

/** What a host's own preflight found: refusals, and the MCP servers it started to list their tools. */
export interface HostPreflight {
  readonly errors: readonly PlanError[];
  /** MCP servers started (and asked for their tools) by this preflight, in the order asked. */
  readonly mcpServers: readonly string[];
  /** What those servers listed: `check --preflight` types the plan's calls by it, starting no server again. */
  readonly listed?: McpListing;
}

/** MCP tools as servers listed them: each by its plan name, and each server that could not be asked (host/mcp/discovery's shape). */
export interface McpListing {
  readonly tools: ReadonlyMap<string, ToolSignature>;
  readonly failures: ReadonlyMap<string, string>;
}

/** A host built for one run. */
export interface BuiltHost {
  readonly host: RunHost;
  /** The host's own preflight: programs that do not resolve, provider keys that are unset. */
  readonly problems?: readonly PlanError[];
  /**
   * The host's asynchronous preflight, asked once the synchronous checks pass and before the
   * first step: MCP servers the plan names are started, their tool lists read, and the plan's
   * calls checked against them (names, literal arguments against input schemas).
   */
  preflight?(plan: Plan, signal: AbortSignal): Promise<HostPreflight>;
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
  /** MCP servers the preflight started to list their tools (stopped when the run ends). */
  readonly mcpServers?: readonly string[];
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

/**
 * The static stage of a run (parse, normalize, validate against the policy): the refusal a run
 * gives, located in the plan's file, or the validated plan. Debuggers ask it before they start.
 */
export function checkStage(
  source: PlanSource,
  document: PlanDocument | undefined,
  options: Pick<StartRunOptions, "policy" | "budget">,
): { readonly refusal: RunReport } | { readonly refusal?: undefined; readonly validated: ValidatedPlan } {
  const checked = checkPlan(source, options.policy);
  if (checked.ok) return { validated: checked.validated };
  const budget = checked.budget ?? checked.policyBudget;
  const location = locationOf(source, document, checked.error, options);
  const outcome = notRun(checked.error, budget);
  return { refusal: { outcome, stage: "check", mocked: false, ...definedOnly({ budget, location }) } };
}

/** A run whose preflight passed: everything execute needs. */
interface Prepared {
  readonly validated: ValidatedPlan;
  readonly budget: Budget;
  readonly built: BuiltHost;
  readonly mocked: boolean;
  readonly document: PlanDocument | undefined;
  readonly mcpServers: readonly string[];
  readonly mcpListing: McpListing | undefined;
  readonly locate: (error: PlanError) => FileLocation | undefined;
}

async function run(
  options: StartRunOptions,
  signal: AbortSignal,
  onBuilt: (built: BuiltHost) => void,
): Promise<RunReport> {
  const prepared = await prepare(options, signal, onBuilt);
  if (!("built" in prepared)) return prepared;
  const { validated, budget, built, mocked, document, mcpServers, locate } = prepared;
  const servers = mcpServers.length > 0 ? { mcpServers } : {};
  try {
    if (signal.aborted) {
      const cancelled: PlanError = { phase: "execute", kind: "cancelled", message: "the run was cancelled" };
      return { outcome: notRun(cancelled, budget), stage: "execute", mocked, validated, budget, ...servers };
    }
    for (const observer of options.observers ?? [])
      quietly(() => observer.started?.({ validated, budget, estimate: estimatePlan(validated.plan), mocked }));
    const rangeOf = document ? stepRanges(document, validated.plan) : undefined;
    const parallel = options.parallel ?? built.parallel;
    const outcome = await executePlan(validated, built.host, {
      ...options,
      ...(parallel ? { parallel } : {}),
      signal,
      ...(rangeOf && !options.rangeOf ? { rangeOf } : {}),
    });
    const location = outcome.ok ? undefined : locate(outcome.error);
    return { outcome, stage: "execute", mocked, validated, budget, ...servers, ...definedOnly({ location }) };
  } finally {
    // Tools the run abandoned (cancelled, timed out, a failed sibling branch) are gone before the report.
    await built.close?.();
  }
}

/**
 * Everything before the first side effect, in one place: check, build what the plan names,
 * preflight (the runtime's names, the host's own checks, then its asynchronous preflight: MCP
 * tool lists). A failure is the report a run gives; on success the built host is still open.
 */
async function prepare(
  options: StartRunOptions,
  signal: AbortSignal,
  onBuilt: (built: BuiltHost) => void,
): Promise<RunReport | Prepared> {
  const { source } = options;
  const document = source.kind === "document" ? (source.document ?? parsePlanDocument(source.text)) : undefined;
  const withDocument: PlanSource = source.kind === "document" ? { ...source, document } : source;
  const locate = (error: PlanError): FileLocation | undefined => locationOf(withDocument, document, error, options);

  const checked = checkStage(withDocument, document, options);
  if (checked.refusal) return checked.refusal;
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
  let mcpServers: readonly string[] = [];
  let mcpListing: McpListing | undefined;
  const refused = (problem: PlanError): RunReport => ({
    outcome: notRun(problem, budget),
    stage: "preflight",
    mocked,
    validated,
    budget,
    ...(mcpServers.length > 0 ? { mcpServers } : {}),
    ...definedOnly({ location: locate(problem) }),
  });
  let failure: RunReport | undefined;
  try {
    const preflight = preflightPlan(plan, built.host);
    const problem = preflight.ok ? built.problems?.[0] : preflight.errors[0];
    if (problem) failure = refused(problem);
    else if (built.preflight && !signal.aborted) {
      const found = await built.preflight(plan, signal);
      mcpServers = found.mcpServers;
      mcpListing = found.listed;
      const first = found.errors[0];
      if (first) failure = refused(first);
    }
  } catch (error) {
    await built.close?.();
    throw error;
  }
  if (failure) {
    // What the preflight started (MCP servers) is gone before the refusal is reported.
    await built.close?.();
    return failure;
  }
  return { validated, budget, built, mocked, document, mcpServers, mcpListing, locate };
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
  const ended = observedReport(report);
  await Promise.all(
    observers.map((o) =>
      Promise.resolve()
        .then(() => o.finished?.(ended))
        .catch(() => undefined),
    ),
  );
}

/** A run's report as observers hear it (also what a queued run sends back to its submitter's journal). */
export function observedReport(report: RunReport): ObservedReport {
  const { outcome } = report;
  return {
    stage: report.stage,
    ok: outcome.ok,
    ...(outcome.ok ? { value: outcome.value } : { error: outcome.error as unknown as JsonObject }),
    ...(report.budget ? { budget: report.budget } : {}),
    remaining: { ...outcome.budget_remaining },
    checkpoints: outcome.checkpoints,
    transitions: outcome.transitions.length,
    mocked: report.mocked,
  };
}

function quietly(call: () => void): void {
  try {
    call();
  } catch {
    // an observer's failure never changes the run
  }
}

/** What `check --preflight` reports: the refusal a run would give before its first step, or none. */
export interface PreflightReport {
  /** Whether a run would get past its preflight (nothing of the plan has run). */
  readonly ok: boolean;
  /** The run's report when it would be refused (stage check, host or preflight). */
  readonly refusal?: RunReport;
  /** MCP servers started to list their tools, all stopped again. */
  readonly mcpServers: readonly string[];
  /** What they listed (when the preflight passed): the static check's MCP tool knowledge, no server started twice. */
  readonly mcpListing?: McpListing;
}

/**
 * A run's preflight without the run: exactly what `startRun` does before its first step (the
 * same function), then the host is closed. No step executes; MCP servers the plan names are
 * started to list their tools and stopped.
 */
export async function startPreflight(
  options: Omit<StartRunOptions, keyof ExecuteOptions> & {
    readonly signal?: AbortSignal;
  },
): Promise<PreflightReport> {
  const signal = options.signal ?? new AbortController().signal;
  const prepared = await prepare(options, signal, () => undefined);
  if (!("built" in prepared)) return { ok: false, refusal: prepared, mcpServers: prepared.mcpServers ?? [] };
  await prepared.built.close?.();
  return {
    ok: true,
    mcpServers: prepared.mcpServers,
    ...(prepared.mcpListing ? { mcpListing: prepared.mcpListing } : {}),
  };
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

/**
 * Every step's source range, found before the clock starts in one scan of the text (a step's
 * events name it); other paths from the document's tree. Building the tree at the first step
 * took a second of a 3 s time limit on a 1.4 MB plan.
 */
function stepRanges(document: PlanDocument, plan: Plan): (path: JsonPath) => SourceRange | undefined {
  const paths: JsonPath[] = [];
  for (const { step } of planSteps(plan)) paths.push(step.path);
  const ranges = new Map<string, SourceRange | undefined>();
  const found = document.rangesOf(paths.map((path) => ({ path })));
  paths.forEach((path, i) => ranges.set(JSON.stringify(path), found[i]));
  return (path) => {
    const key = JSON.stringify(path);
    return ranges.has(key) ? ranges.get(key) : document.rangeOf(path);
  };
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
  options: Pick<StartRunOptions, "policy">,
): FileLocation | undefined {
  if (!document) return undefined;
  let range =
    error.phase === "execute" || error.phase === "preflight" ? undefined : planLocation(source, error, options.policy);
  // A preflight error about a key (an argument a tool does not take) says so: the key is located.
  // One scan (rangesOf), not the whole tree: a failed run of a big plan reports at once.
  if (!range && Array.isArray(error.path))
    range = document.rangesOf([{ path: error.path as JsonPath, target: error.target === "key" ? "key" : "value" }])[0];
  if (!range) return undefined;
  const { line, character } = lineColumn(document.text, range.offset);
  return { line: line + 1, column: character + 1, offset: range.offset, length: range.length };
}

function definedOnly<T extends object>(value: T): Partial<T> {
  return Object.fromEntries(Object.entries(value).filter(([, v]) => v !== undefined)) as Partial<T>;
}
