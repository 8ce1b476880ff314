// What a run's model calls cost, as one rule for every list that shows or filters by it (the run
// browser's cost bounds): a known figure, 0 for a run that called no model, or unknown.

/** What the rule reads of a listed run (queries.ts' RunSummary): its model calls' sum, if any. */
interface Spent {
  readonly usage?: { readonly cost: number | null; readonly unpriced: number };
}

/** Bounds on what a run's model calls cost (both included); at least one of min and max is set. */
export interface CostRange {
  readonly min?: number;
  readonly max?: number;
  /** Keep the runs whose cost is unknown (runCost null) too; otherwise a bound leaves them out. */
  readonly unknown?: boolean;
}

/**
 * What a run's model calls cost, in its currency: 0 when it made none (nothing was spent on a
 * model), null when some call had no price (the priced calls' sum would understate it). A sum
 * counted at the calls' bounds (no usage reported: `estimated`) is a figure, as `runs list` shows it.
 */
function runCost(run: Spent): number | null {
  const usage = run.usage;
  if (usage === undefined) return 0;
  return usage.unpriced > 0 ? null : (usage.cost ?? 0);
}

/** Whether the run's cost lies within `range` (an unknown cost only if the range keeps it). */
export function costWithin(run: Spent, range: CostRange): boolean {
  const cost = runCost(run);
  if (cost === null) return range.unknown === true;
  return (range.min === undefined || cost >= range.min) && (range.max === undefined || cost <= range.max);
}
