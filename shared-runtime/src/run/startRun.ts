// The one way a plan runs: check (parse, validate), build only what the plan uses (the host
// factory is told which tools, providers and inputs it names), preflight (the runtime's names,
// then the host's own checks: programs that resolve, provider keys that are set), execute.
// The CLI, `propose --run`, the language server and the conformance runner all start runs
// here; every stage's failure is a value, and `budget_remaining` follows one rule. What comes
// before the first step is prepareRun.ts; the types a caller meets, runContract.ts.

import type { JsonPath } from "../json";
import type { Plan } from "../plan/ast";
import { estimatePlan } from "../plan/estimate";
import type { PlanSource } from "../plan/parse";
import { planSteps } from "../plan/walk";
import type { PlanDocument } from "../text/planDocument";
import type { SourceRange } from "../text/pathRanges";
import type { PlanError } from "./errors";
import type { RunHost } from "./host";
import { executePlan, type ExecuteOptions } from "./interpreter";
import { observed, tell } from "./observedRun";
import { quietly } from "./observer";
import type { PolicyOptions } from "./pipeline";
import { definedOnly, notRun, prepare } from "./prepareRun";
import type { BuiltHost, HostFactory, RunHandle, RunReport, StartRunOptions } from "./runContract";
import type { RunOutcome } from "./transitions";

export * from "./runContract";
export { checkStage, startPreflight } from "./prepareRun";
export { observedReport } from "./observedRun";

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
  const prepared = await prepare(options, signal, onBuilt);
  if (!("built" in prepared)) return prepared;
  const { validated, budget, built, mocked, document, mcpServers, locate } = prepared;
  const servers = mcpServers.length > 0 ? { mcpServers } : {};
  try {
    if (signal.aborted) {
      const cancelled: PlanError = { phase: "execute", kind: "cancelled", message: "the run was cancelled" };
      return { outcome: notRun(cancelled, budget), stage: "execute", mocked, validated, budget, ...servers };
    }
    const rangeOf = document ? stepRanges(document, validated.plan) : undefined;
    const parallel = options.parallel ?? built.parallel;
    const maxCost = options.maxCost ?? built.maxCost;
    const estimate = estimatePlan(validated.plan);
    // One instant for the run's clock and for its observers: the journal times its calls from
    // its own start and places the events' times (from this one) exactly beside them.
    const clockStart = performance.now();
    for (const observer of options.observers ?? [])
      quietly(() => observer.started?.({ validated, budget, estimate, mocked, clockStart }));
    const outcome = await executePlan(validated, built.host, {
      ...options,
      ...(parallel ? { parallel } : {}),
      ...(maxCost !== undefined ? { maxCost } : {}),
      clockStart,
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
