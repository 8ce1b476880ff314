// One analysis of a plan file for editors and the CLI: every problem with its source range,
// the per-step worst case, and the budget in force. Built only from the runtime's own parser,
// normalizer, validator and estimator: there is no second copy of any rule.

import type { Plan } from "./plan/ast";
import type { Budget } from "./plan/budget";
import { estimateEachStep, type PlanEstimates } from "./plan/estimate";
import { parsePlan } from "./plan/parse";
import type { PlanProblem } from "./plan/problems";
import { toolArgumentProblems, type ToolKnowledge } from "./plan/toolArguments";
import { validatePlan } from "./plan/validate";
import { unregisteredNames } from "./run/preflight";
import { parseJsoncDocument, type PlanDocument, type SourceRange } from "./text/planDocument";

export interface AnalysisPolicy {
  /** Granted capabilities; undefined when no host is known (capabilities are not checked). */
  readonly capabilities?: unknown;
  readonly budget?: unknown;
  /** Names the host registers; when given, every other tool or provider name is a problem. */
  readonly registries?: {
    readonly tools: { has(name: string): boolean };
    readonly providers: { has(name: string): boolean };
  };
  /** What the host knows of its tools: their input schemas type the plan's tool arguments. */
  readonly tools?: ToolKnowledge;
}

export interface LocatedProblem extends PlanProblem {
  readonly range: SourceRange;
  readonly relatedRanges: readonly (SourceRange & { readonly message: string })[];
}

export interface PlanAnalysis {
  readonly document: PlanDocument;
  /** The normalized plan; partial when some steps did not normalize. */
  readonly plan: Plan | undefined;
  readonly problems: readonly LocatedProblem[];
  readonly estimates: PlanEstimates | undefined;
  readonly budget: Budget | undefined;
}

export function analyzePlanText(text: string, policy: AnalysisPolicy = {}, document?: PlanDocument): PlanAnalysis {
  const doc = document ?? parseJsoncDocument(text);
  const parsed = parsePlan({ kind: "document", text, document: doc }, { collectAll: true });
  const problems: PlanProblem[] = [...parsed.problems];
  let estimates: PlanEstimates | undefined;
  let budget: Budget | undefined;
  if (parsed.plan) {
    const validation = validatePlan(parsed.plan, {
      capabilities: policy.capabilities,
      budget: policy.budget,
      collectAll: true,
      opaqueBinds: parsed.opaqueBinds,
    });
    problems.push(...validation.problems);
    if (policy.registries) problems.push(...unregisteredProblems(parsed.plan, policy.registries));
    if (policy.tools) problems.push(...toolArgumentProblems(parsed.plan, policy.tools));
    budget = validation.ok ? validation.validated.budget : validation.budget;
    estimates = estimateEachStep(parsed.plan);
  }
  return {
    document: doc,
    plan: parsed.plan,
    problems: problems.map((problem) => locate(problem, doc)),
    estimates,
    budget,
  };
}

/** Preflight's question asked of the whole plan, with each unknown name located. */
function unregisteredProblems(plan: Plan, registries: NonNullable<AnalysisPolicy["registries"]>): PlanProblem[] {
  const registered = {
    tool: (n: string) => registries.tools.has(n),
    provider: (n: string) => registries.providers.has(n),
  };
  return unregisteredNames(plan, registered).map(({ kind, name, path, message }) => ({
    phase: "preflight",
    kind,
    value: name,
    message,
    path,
    target: "value",
    hostDependent: true,
  }));
}

function locate(problem: PlanProblem, document: PlanDocument): LocatedProblem {
  const range: SourceRange =
    problem.offset !== undefined
      ? { offset: problem.offset, length: problem.length ?? 0 }
      : (problem.path && document.rangeOf(problem.path, problem.target)) || { offset: 0, length: 0 };
  const relatedRanges = (problem.related ?? []).flatMap((related) => {
    const where = document.rangeOf(related.path, related.target);
    return where ? [{ ...where, message: related.message }] : [];
  });
  return { ...problem, range, relatedRanges };
}

/** 0-based line and character of an offset, counting UTF-16 units as LSP does. */
export function lineColumn(text: string, offset: number): { line: number; character: number } {
  let line = 0;
  let lineStart = 0;
  for (let i = text.indexOf("\n"); i >= 0 && i < offset; i = text.indexOf("\n", i + 1)) {
    line++;
    lineStart = i + 1;
  }
  return { line, character: offset - lineStart };
}
