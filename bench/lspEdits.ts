// Edits and places in the generated plans for the language-server benchmarks: the same plan
// after an edit near its top, the one range edit an editor would send for it, positions of
// matches, and a seeded random choice so every run asks at the same places.

import type { Position } from "vscode-languageserver-protocol";

/** The same plan after an edit near its top: the seed string changes, so every version differs. */
export function edited(text: string, edit: number): string {
  const at = text.indexOf('"seed"');
  if (at < 0) throw new Error('generated plan has no "seed"');
  return `${text.slice(0, at)}"seed-${edit}"${text.slice(at + 6)}`;
}

/**
 * The one range edit that turns `before` into `after` (their common prefix and suffix kept), as
 * an editor sends a keystroke under incremental sync, which the server declares.
 */
export function incrementalChange(before: string, after: string): [{ start: Position; end: Position }, string] {
  let prefix = 0;
  const shorter = Math.min(before.length, after.length);
  while (prefix < shorter && before.charCodeAt(prefix) === after.charCodeAt(prefix)) prefix++;
  let suffix = 0;
  while (
    suffix < shorter - prefix &&
    before.charCodeAt(before.length - 1 - suffix) === after.charCodeAt(after.length - 1 - suffix)
  )
    suffix++;
  const old = new Positions(before);
  return [{ start: old.at(prefix), end: old.at(before.length - suffix) }, after.slice(prefix, after.length - suffix)];
}

export class Positions {
  private readonly lineStarts: number[] = [0];
  constructor(readonly text: string) {
    for (let i = 0; i < text.length; i++) if (text.charCodeAt(i) === 10) this.lineStarts.push(i + 1);
  }
  at(offset: number): Position {
    let low = 0;
    let high = this.lineStarts.length - 1;
    while (low < high) {
      const mid = (low + high + 1) >> 1;
      if ((this.lineStarts[mid] as number) <= offset) low = mid;
      else high = mid - 1;
    }
    return { line: low, character: offset - (this.lineStarts[low] as number) };
  }
  /** Offsets `inside` characters after the end of each match of `pattern`. */
  after(pattern: RegExp, inside: number): number[] {
    const out: number[] = [];
    for (const match of this.text.matchAll(pattern)) out.push((match.index ?? 0) + match[0].length + inside);
    return out;
  }
}

/** A small deterministic PRNG (mulberry32), so every run asks at the same places. */
export function random(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

export function pick<T>(items: readonly T[], next: () => number): T {
  const item = items[Math.floor(next() * items.length)];
  if (item === undefined) throw new Error("nothing to pick from");
  return item;
}
