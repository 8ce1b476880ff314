// A saved model reply analysed like a plan file: the plan is the JSON object the runtime itself
// would take from the reply (locatePlanInReply), and every problem is placed in the reply's text.

import { analyzePlanText, type AnalysisPolicy, type LocatedProblem, type PlanAnalysis } from "./analysis";
import { locatePlanInReply } from "./plan/parse";

export interface ReplyAnalysis {
  /** The plan's analysis, ranges relative to the plan's text; undefined when no plan was found. */
  readonly analysis: PlanAnalysis | undefined;
  /** Every problem, ranges in the reply's text. */
  readonly problems: readonly LocatedProblem[];
}

export function analyzeModelReply(text: string, policy: AnalysisPolicy = {}): ReplyAnalysis {
  const located = locatePlanInReply(text);
  if (!located.ok) {
    const { problem } = located;
    const range = { offset: problem.offset ?? 0, length: problem.length ?? 0 };
    return { analysis: undefined, problems: [{ ...problem, range, relatedRanges: [] }] };
  }
  const analysis = analyzePlanText(located.text, policy);
  const shift = located.offset;
  const problems = analysis.problems.map((problem) => ({
    ...problem,
    range: { ...problem.range, offset: problem.range.offset + shift },
    relatedRanges: problem.relatedRanges.map((related) => ({ ...related, offset: related.offset + shift })),
  }));
  return { analysis, problems };
}
