// One analysis of a plan file for editors and the CLI: every problem with its source range,
// the semantic model (scopes, bindings, references, per-step worst case, rows against the
// budget), and the budget in force. Built only from the runtime's own parser, normalizer,
// validator and estimator: there is no second copy of any rule.

import { moneyText, type CostPolicy } from "./plan/modelCost";
import { planMoney, type MoneyEstimate } from "./plan/planMoney";
import type { Plan } from "./plan/ast";
import type { Budget } from "./plan/budget";
import type { DataLimits } from "./plan/dataLimits";
import type { PlanEstimates } from "./plan/estimate";
import type { PlanModel } from "./plan/semanticModel";
import { parsePlan } from "./plan/parse";
import type { PlanProblem } from "./plan/problems";
import { toolArgumentProblems, type ToolKnowledge } from "./plan/toolArgumentChecks";
import { silentCapProblems, silentCaps } from "./plan/silentCaps";
import { contextHandleProblems } from "./plan/contextHandles";
import { unknownKeyProblems } from "./plan/unknownKeys";
import { validatePlan } from "./plan/validate";
import type { PlanTypes, TypeHost } from "./plan/types/planTypes";
import { typeProblems } from "./plan/types/typeProblems";
import { modelOptionProblems } from "./plan/modelOptions";
import { unregisteredNames } from "./plan/unregisteredNames";
import { lineColumn } from "./text/lineColumn";

export { lineColumn } from "./text/lineColumn";
import { parsePlanDocument, type PlanDocument, type RangeRequest, type SourceRange } from "./text/planDocument";

export interface AnalysisPolicy {
  /** Granted capabilities; undefined when no host is known (capabilities are not checked). */
  readonly capabilities?: unknown;
  readonly budget?: unknown;
  /** Names the host registers; when given, every other tool or provider name is a problem. */
  readonly registries?: {
    readonly tools: { has(name: string): boolean };
    readonly providers: { has(name: string): boolean };
    /** The inputs the host declares; references to others are host problems. */
    readonly inputs?: { has(name: string): boolean };
    /** Of those, the ones registered as contexts (a text or items): the only context handles. */
    readonly contextInputs?: { has(name: string): boolean };
  };
  /** What the host knows of its tools: their input schemas type the plan's tool arguments. */
  readonly tools?: ToolKnowledge;
  /** What the host tells the type rules: inputs, chat providers, the plan's result schema (tools: `tools`). */
  readonly types?: TypeHost;
  /** The host's max_results and built-in tools, for silent-cap hints; the runtime's defaults when absent. */
  readonly dataLimits?: DataLimits;
  /** The host's currency, prices and max_cost: the plan's worst case in money (`money`). */
  readonly costs?: CostPolicy;
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
  /** The semantic model; undefined when no plan could be read at all. */
  readonly model: PlanModel | undefined;
  /** The type of every value the plan names (the model's, under the policy's host). */
  readonly types: PlanTypes | undefined;
  /** Hints (severity "hint"): counts and sums of results capped at max_results (silentCaps.ts). */
  readonly hints: readonly LocatedProblem[];
  /** The worst case in money under the policy's prices; undefined without a host or a plan. */
  readonly money: PlanMoney | undefined;
}

/** A plan's worst case in money, in the host's currency, beside its max_cost. */
export interface PlanMoney extends MoneyEstimate {
  readonly currency: string;
  readonly maxCost?: number;
}

/**
 * `document` defaults to parsePlanDocument's: strict JSON is read with JSON.parse and problems
 * are located by one scan of the text; the jsonc tree is built only when someone asks for it.
 */
export function analyzePlanText(text: string, policy: AnalysisPolicy = {}, document?: PlanDocument): PlanAnalysis {
  const doc = document ?? parsePlanDocument(text);
  const parsed = parsePlan({ kind: "document", text, document: doc }, { collectAll: true });
  const problems: PlanProblem[] = [...parsed.problems];
  // Keys the runtime ignores are only visible in the value; text too deep has none to walk.
  if (doc.value !== undefined && !parsed.problems.some((p) => p.reason === "too_deep")) {
    for (const item of unknownKeyProblems(doc.value)) problems.push(item);
  }
  let model: PlanModel | undefined;
  let budget: Budget | undefined;
  let types: PlanTypes | undefined;
  let money: PlanMoney | undefined;
  if (parsed.plan) {
    const validation = validatePlan(parsed.plan, {
      capabilities: policy.capabilities,
      budget: policy.budget,
      collectAll: true,
      model: true,
    });
    for (const problem of validation.problems) problems.push(problem);
    if (policy.registries) for (const item of unregisteredProblems(parsed.plan, policy.registries)) problems.push(item);
    if (validation.model) {
      const host = policy.types ?? (policy.tools ? { tools: policy.tools } : {});
      types = validation.model.types(host.tools || !policy.tools ? host : { ...host, tools: policy.tools });
      if (policy.tools)
        for (const item of toolArgumentProblems(validation.model, policy.tools, types)) problems.push(item);
      for (const item of typeProblems(validation.model, types, stepPlace(text, doc))) problems.push(item);
    }
    for (const item of modelOptionProblems(parsed.plan, validation.model?.steps())) problems.push(item);
    if (validation.model) {
      const { inputs, contextInputs } = policy.registries ?? {};
      const isContextInput =
        inputs && contextInputs ? (n: string) => (inputs.has(n) ? contextInputs.has(n) : undefined) : undefined;
      for (const item of contextHandleProblems(validation.model, isContextInput)) problems.push(item);
    }
    budget = validation.ok ? validation.validated.budget : validation.budget;
    model = validation.model;
    if (policy.costs && budget) {
      // A plan that calls no model (the model's total says so) costs nothing: no walk on each keystroke.
      const calls = model?.total.model_calls;
      const worst = calls === 0 ? { cost: 0, unpriced: [] } : planMoney(parsed.plan, policy.costs, budget);
      const { currency, maxCost } = policy.costs;
      money = { ...worst, currency, ...(maxCost !== undefined ? { maxCost } : {}) };
      const over = maxCostProblem(parsed.plan, money);
      if (over) problems.push(over);
    }
  }
  const caps = model ? silentCaps(model, policy.dataLimits) : [];
  return {
    document: doc,
    plan: parsed.plan,
    problems: locateAll(problems, doc),
    estimates: model?.estimates,
    budget,
    model,
    types,
    hints: caps.length > 0 ? locateAll(silentCapProblems(caps), doc) : [],
    money,
  };
}

/** The host's max_cost against the plan's worst case: over it, or unknown while a limit is set. */
function maxCostProblem(plan: Plan, money: PlanMoney): PlanProblem | undefined {
  const limit = money.maxCost;
  if (limit === undefined) return undefined;
  const base = {
    phase: "validate",
    kind: "budget_exceeded",
    budget: "cost",
    field: "max_cost",
    limit,
    path: plan.path,
    target: "value",
    hostDependent: true,
  } as const;
  if (money.unpriced.length > 0)
    return { ...base, message: `the worst case in money is unknown under max_cost: ${money.unpriced.join("; ")}` };
  if (money.cost <= limit) return undefined;
  return {
    ...base,
    estimated: money.cost,
    message: `worst case cost ${moneyText(money.cost, money.currency)} exceeds the budget's max_cost of ${moneyText(limit, money.currency)}`,
  };
}

/** "7:5": where a step starts (1-based line and column), for messages that name it. */
function stepPlace(
  text: string,
  document: PlanDocument,
): (stepPath: readonly (string | number)[]) => string | undefined {
  return (stepPath) => {
    const [range] = document.rangesOf([{ path: stepPath, target: "value" }]);
    if (!range) return undefined;
    const { line, character } = lineColumn(text, range.offset);
    return `${line + 1}:${character + 1}`;
  };
}

/** Preflight's question asked of the whole plan, with each unknown name located. */
function unregisteredProblems(plan: Plan, registries: NonNullable<AnalysisPolicy["registries"]>): PlanProblem[] {
  const registered = {
    tool: (n: string) => registries.tools.has(n),
    provider: (n: string) => registries.providers.has(n),
    ...(registries.inputs ? { input: (n: string) => registries.inputs?.has(n) === true } : {}),
  };
  return unregisteredNames(plan, registered).map(({ kind, name, path, message }) => ({
    phase: "preflight",
    kind,
    value: name,
    message,
    path,
    target: "value",
    hostDependent: true,
    // `run` refuses unknown tools and providers before it starts; an undeclared input fails
    // only when (and if) a step reads it, so the gate warns rather than fails on it.
    ...(kind === "undeclared_input" ? { severity: "warning" as const } : {}),
  }));
}

/** Every problem's range (and its related locations'), asked of the document in one batch. */
function locateAll(problems: readonly PlanProblem[], document: PlanDocument): LocatedProblem[] {
  // A related location that carries its own offset (a host profile's line, say) is not asked.
  const placed = (related: NonNullable<PlanProblem["related"]>[number]) =>
    related.offset !== undefined && related.length !== undefined;
  const requests: RangeRequest[] = [];
  for (const problem of problems) {
    if (problem.offset === undefined && problem.path) requests.push({ path: problem.path, target: problem.target });
    for (const related of problem.related ?? []) if (!placed(related)) requests.push(related);
  }
  const ranges = requests.length > 0 ? document.rangesOf(requests) : [];
  let next = 0;
  return problems.map((problem) => {
    let range: SourceRange = { offset: 0, length: 0 };
    if (problem.offset !== undefined) range = { offset: problem.offset, length: problem.length ?? 0 };
    else if (problem.path) range = ranges[next++] ?? range;
    const relatedRanges: (SourceRange & { readonly message: string })[] = [];
    for (const related of problem.related ?? []) {
      const where = placed(related)
        ? { offset: related.offset as number, length: related.length as number }
        : ranges[next++];
      if (where) relatedRanges.push({ ...where, message: related.message });
    }
    // Object.assign, not a spread: with problems of many shapes V8's spread takes its slow path
    // (measured: about 6 µs a problem against 1.5 µs; 60,000 capability warnings in a 5.8 MB plan).
    return Object.assign({}, problem, { range, relatedRanges });
  });
}
