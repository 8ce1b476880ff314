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

/**
 * Cost bounds from what a user typed (amounts of money, 0 or more, in the runs' currency), or
 * what is wrong with them, each option said by the name the user typed it under (`names`);
 * undefined when neither bound is given (keeping runs of unknown cost alone bounds nothing).
 */
export function costRangeOf(
  given: { readonly min?: string; readonly max?: string; readonly keepUnknown?: boolean },
  names: { readonly min: string; readonly max: string },
): CostRange | string | undefined {
  const bound = (text: string | undefined, name: string): number | string | undefined => {
    const trimmed = text?.trim() || undefined;
    if (trimmed === undefined) return undefined;
    return /^\d+(\.\d+)?$/.test(trimmed)
      ? Number(trimmed)
      : `${name} needs an amount of money (0 or more, as 0.25), not ${trimmed}`;
  };
  const min = bound(given.min, names.min);
  const max = bound(given.max, names.max);
  if (typeof min === "string") return min;
  if (typeof max === "string") return max;
  if (min === undefined && max === undefined) return undefined;
  if (min !== undefined && max !== undefined && min > max)
    return `${names.min} (${min}) is more than ${names.max} (${max})`;
  return {
    ...(min !== undefined ? { min } : {}),
    ...(max !== undefined ? { max } : {}),
    ...(given.keepUnknown === true ? { unknown: true } : {}),
  };
}
