// Everything a run does before its first side effect: the static check, the host built for what
// the plan names, the preflight (the runtime's names, the host's own checks, MCP tool lists), and
// where a refusal stands in the plan's file. `check --preflight` stops here (startPreflight).

import { lineColumn } from "../text/lineColumn";
import type { JsonPath } from "../json";
import type { Budget } from "../plan/budget";
import { planNeeds } from "../plan/needs";
import type { PlanSource } from "../plan/parse";
import type { ValidatedPlan } from "../plan/validate";
import { parsePlanDocument, type PlanDocument } from "../text/planDocument";
import { safeErrorText, type PlanError } from "./errors";
import type { ExecuteOptions } from "./interpreter";
import { checkPlan, notStarted, planLocation, problemError } from "./pipeline";
import type { Plan } from "../plan/ast";
import { certainTypeErrors, type RunTyping } from "../plan/types/certainTypeErrors";
import { preflightPlan } from "./preflight";
import { stepAlone } from "./stepOnly";
import type {
  BuiltHost,
  FileLocation,
  HostProfileError,
  HostSetup,
  McpListing,
  PreflightProblem,
  PreflightReport,
  RunReport,
  StartRunOptions,
} from "./runContract";
import type { RunOutcome } from "./transitions";

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
export interface Prepared {
  readonly validated: ValidatedPlan;
  readonly budget: Budget;
  readonly built: BuiltHost;
  readonly mocked: boolean;
  readonly document: PlanDocument | undefined;
  readonly mcpServers: readonly string[];
  readonly mcpListing: McpListing | undefined;
  readonly locate: (error: PlanError) => FileLocation | undefined;
}

/**
 * What a preflight that goes on past its first problem (`check --preflight`) collects: every
 * problem with its place, and what the MCP servers listed even when something was refused.
 */
export interface PreflightCollection {
  readonly problems: PreflightProblem[];
  listing?: McpListing;
}

/**
 * Everything before the first side effect, in one place: check, build what the plan names,
 * preflight (the runtime's names, the host's own checks, then its asynchronous preflight: MCP
 * tool lists). A failure is the report a run gives; on success the built host is still open.
 * Given `collect`, the preflight does not stop at its first problem: every one is put there
 * (the refusal is still the first, the one a run gives).
 */
export async function prepare(
  options: StartRunOptions,
  signal: AbortSignal,
  onBuilt: (built: BuiltHost) => void,
  collect?: PreflightCollection,
): Promise<RunReport | Prepared> {
  const { source } = options;
  const document = source.kind === "document" ? (source.document ?? parsePlanDocument(source.text)) : undefined;
  const withDocument: PlanSource = source.kind === "document" ? { ...source, document } : source;
  const locate = (error: PlanError): FileLocation | undefined => locationOf(withDocument, document, error, options);

  const checked = checkStage(withDocument, document, options);
  if (checked.refusal) return checked.refusal;
  const validated = checked.validated;
  const budget: Budget = { ...validated.budget, ...options.budget };
  // A step run alone builds and preflights what that step names, not the whole plan's tools.
  const plan = (options.only && stepAlone(validated.plan, options.only.at)?.plan) || validated.plan;

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
  const found: PlanError[] = [];
  try {
    const preflight = preflightPlan(plan, built.host, collect !== undefined);
    // A host whose inputs or context options are not objects is refused before anything else.
    const runtime = !preflight.ok && preflight.errors.some((e) => e.kind === "invalid_runtime");
    found.push(...(preflight.ok ? [] : preflight.errors));
    if (found.length === 0 || (collect && !runtime)) found.push(...(built.problems ?? []));
    if ((found.length === 0 || (collect && !runtime)) && built.preflight && !signal.aborted) {
      const mcp = await built.preflight(plan, signal);
      mcpServers = mcp.mcpServers;
      mcpListing = mcp.listed;
      found.push(...mcp.errors);
    }
    if ((found.length === 0 || (collect && !runtime)) && options.policy.typing)
      found.push(...typeRefusals(validated.plan, options.policy.typing(mcpListing), found));
    const first = found[0];
    if (first) failure = refused(first);
  } catch (error) {
    await built.close?.();
    throw error;
  }
  if (collect) {
    collect.problems.push(...found.map((error) => ({ error, ...definedOnly({ location: locate(error) }) })));
    if (mcpListing) collect.listing = mcpListing;
  }
  if (failure) {
    // What the preflight started (MCP servers) is gone before the refusal is reported.
    await built.close?.();
    return failure;
  }
  return { validated, budget, built, mocked, document, mcpServers, mcpListing, locate };
}

/**
 * What a run refuses of the plan's types before its first step (certainTypeErrors.ts), as
 * preflight errors at their token; a problem the MCP preflight already gave (a literal argument
 * its listing refused) is not given twice.
 */
function typeRefusals(plan: Plan, typing: RunTyping, found: readonly PlanError[]): PlanError[] {
  const said = new Set(found.map((e) => `${e.kind} ${JSON.stringify(e.path ?? null)}`));
  return certainTypeErrors(plan, typing).flatMap((problem) => {
    const error: PlanError = {
      ...problemError(problem),
      phase: "preflight",
      ...(problem.target === "key" ? { target: "key" } : {}),
    };
    return said.has(`${error.kind} ${JSON.stringify(error.path ?? null)}`) ? [] : [error];
  });
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
  // Unlike a run, it goes on past the first problem: a gate reports every one at once.
  const collect: PreflightCollection = { problems: [] };
  const prepared = await prepare(options, signal, () => undefined, collect);
  const found = {
    ...(collect.listing ? { mcpListing: collect.listing } : {}),
    ...(collect.problems.length > 0 ? { problems: collect.problems } : {}),
  };
  if (!("built" in prepared)) return { ok: false, refusal: prepared, mcpServers: prepared.mcpServers ?? [], ...found };
  await prepared.built.close?.();
  return { ok: true, mcpServers: prepared.mcpServers, ...found };
}

/** A run that never started: its whole budget remains (zeros when the budget itself was invalid). */
export function notRun(error: PlanError, budget: Budget | undefined): RunOutcome {
  return { ok: false, error, transitions: [], checkpoints: [], budget_remaining: notStarted(budget) };
}

export function hostFailure(errors: readonly HostProfileError[], fallback?: string): PlanError {
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
export function locationOf(
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

export function definedOnly<T extends object>(value: T): Partial<T> {
  return Object.fromEntries(Object.entries(value).filter(([, v]) => v !== undefined)) as Partial<T>;
}
