// The valid name closest to a misspelt one, by Levenshtein distance (ties go to the earlier
// candidate, so lists keep their documented order): for messages and quick fixes.

export function editDistance(a: string, b: string): number {
  if (a === b) return 0;
  let previous = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const current = [i];
    for (let j = 1; j <= b.length; j++) {
      const substitution = (previous[j - 1] as number) + (a[i - 1] === b[j - 1] ? 0 : 1);
      current.push(Math.min((previous[j] as number) + 1, (current[j - 1] as number) + 1, substitution));
    }
    previous = current;
  }
  return previous[b.length] as number;
}

/**
 * The candidate nearest to `word` (case-insensitively), other than `word` itself. With
 * `maxDistance`, candidates further away than that are not offered.
 */
export function nearestName(word: string, candidates: readonly string[], maxDistance?: number): string | undefined {
  return nearestMatch(word, candidates, maxDistance)?.name;
}

export interface NameMatch {
  readonly name: string;
  readonly distance: number;
  /**
   * One edit or so for the word's length, and no other candidate as near: the fix an editor may
   * apply on its own (`isPreferred`). `fly` is 2 edits from `rlm`: offered, never preferred.
   */
  readonly clearlyRight: boolean;
}

export function nearestMatch(word: string, candidates: readonly string[], maxDistance?: number): NameMatch | undefined {
  let best: string | undefined;
  let bestDistance = Infinity;
  let ties = 0;
  const lower = word.toLowerCase();
  for (const candidate of candidates) {
    if (candidate === word) continue;
    const distance = editDistance(lower, candidate.toLowerCase());
    if (distance < bestDistance) {
      best = candidate;
      bestDistance = distance;
      ties = 0;
    } else if (distance === bestDistance) {
      ties++;
    }
  }
  if (best === undefined || (maxDistance !== undefined && bestDistance > maxDistance)) return undefined;
  const clearlyRight = ties === 0 && bestDistance <= Math.max(1, Math.floor(word.length / 4));
  return { name: best, distance: bestDistance, clearlyRight };
}
