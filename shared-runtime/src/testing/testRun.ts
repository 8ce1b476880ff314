// A test run over many cases: their worst case priced before anything runs (what every case
// may spend, and what the live ones, answered by real tools and providers, may spend), and the
// cases run with at most `jobs` at a time, results in case order.

import { addCounts, multiplyCounts, type Count } from "../plan/count";
import { roundMoney } from "../plan/modelCost";
import { runTestCase, type CaseResult, type CaseRunOptions, type CassetteMode } from "./runCase";
import type { TestCase } from "./testFile";

export interface WorstCase {
  readonly steps: Count;
  readonly model_calls: Count;
  readonly tool_calls: Count;
  readonly context_ops: Count;
}

export const ZERO_WORST_CASE: WorstCase = { steps: 0, model_calls: 0, tool_calls: 0, context_ops: 0 };

/**
 * One run of a case may spend the plan's worst case, or its step's for a case of one step (zero
 * when the plan does not parse: it never runs).
 */
export function caseWorstCase(testCase: TestCase): WorstCase {
  const estimate = testCase.step ? testCase.step.estimate : testCase.suite.estimate;
  if (!estimate) return ZERO_WORST_CASE;
  const { steps, model_calls, tool_calls, context_ops } = estimate;
  return { steps, model_calls, tool_calls, context_ops };
}

export function addWorstCases(a: WorstCase, b: WorstCase, times: Count = 1): WorstCase {
  return {
    steps: addCounts(a.steps, multiplyCounts(b.steps, times)),
    model_calls: addCounts(a.model_calls, multiplyCounts(b.model_calls, times)),
    tool_calls: addCounts(a.tool_calls, multiplyCounts(b.tool_calls, times)),
    context_ops: addCounts(a.context_ops, multiplyCounts(b.context_ops, times)),
  };
}

/** Whether a case's calls reach real tools and providers in this mode (mocked and replayed ones spend nothing). */
export function isLive(testCase: TestCase, mode: CassetteMode): boolean {
  if (testCase.cassette !== undefined) return mode === "record";
  return testCase.mocks === undefined;
}

export interface TestRunPrice {
  readonly cases: number;
  readonly total: WorstCase;
  readonly live: WorstCase;
  readonly liveCases: number;
  /** The live cases' worst case in money: its sum, the currencies it is in, and why some calls have no figure. */
  readonly liveMoney: {
    readonly cost: number;
    readonly currencies: readonly string[];
    readonly unpriced: readonly string[];
  };
}

export function priceCases(cases: readonly TestCase[], mode: CassetteMode): TestRunPrice {
  let total = ZERO_WORST_CASE;
  let live = ZERO_WORST_CASE;
  let liveCases = 0;
  let cost = 0;
  const currencies = new Set<string>();
  const unpriced = new Set<string>();
  for (const testCase of cases) {
    const worst = caseWorstCase(testCase);
    total = addWorstCases(total, worst);
    if (isLive(testCase, mode)) {
      live = addWorstCases(live, worst);
      liveCases++;
      const money = testCase.suite.money;
      if (money && (money.cost > 0 || money.unpriced.length > 0)) {
        cost += money.cost;
        currencies.add(money.currency);
        for (const reason of money.unpriced) unpriced.add(reason);
      }
    }
  }
  const liveMoney = { cost: roundMoney(cost), currencies: [...currencies], unpriced: [...unpriced] };
  return { cases: cases.length, total, live, liveCases, liveMoney };
}

/** Runs the cases, `jobs` at a time; `onResult` hears each as it ends; resolves to all, in case order. */
export async function runCases(
  cases: readonly TestCase[],
  options: CaseRunOptions & { readonly jobs: number },
  onResult?: (result: CaseResult) => void,
): Promise<CaseResult[]> {
  const results: CaseResult[] = new Array<CaseResult>(cases.length);
  let next = 0;
  const worker = async () => {
    while (next < cases.length && !options.signal?.aborted) {
      const index = next++;
      const result = await runTestCase(cases[index] as TestCase, options);
      results[index] = result;
      onResult?.(result);
    }
  };
  const workers = Array.from({ length: Math.max(1, Math.min(options.jobs, cases.length)) }, worker);
  await Promise.all(workers);
  return results.filter((r) => r !== undefined);
}
