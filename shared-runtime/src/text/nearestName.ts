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
  let best: string | undefined;
  let bestDistance = Infinity;
  const lower = word.toLowerCase();
  for (const candidate of candidates) {
    if (candidate === word) continue;
    const distance = editDistance(lower, candidate.toLowerCase());
    if (distance < bestDistance) {
      best = candidate;
      bestDistance = distance;
    }
  }
  return maxDistance === undefined || bestDistance <= maxDistance ? best : undefined;
}
