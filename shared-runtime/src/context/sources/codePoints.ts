// Counting and cutting JavaScript strings by Unicode code point, the unit every text position
// of a context is measured in (a lone surrogate counts as one code point, as iteration does).

const SURROGATE = /[\uD800-\uDFFF]/;

export function hasSurrogates(text: string): boolean {
  return SURROGATE.test(text);
}

export function isPairAt(text: string, i: number): boolean {
  const high = text.charCodeAt(i);
  if (high < 0xd800 || high > 0xdbff) return false;
  const low = text.charCodeAt(i + 1);
  return low >= 0xdc00 && low <= 0xdfff;
}

/** Code points in `text`; a lone surrogate counts as one, as string iteration does. */
export function codePointCount(text: string): number {
  if (!SURROGATE.test(text)) return text.length;
  let count = 0;
  for (let i = 0; i < text.length; i += isPairAt(text, i) ? 2 : 1) count++;
  return count;
}

/**
 * UTF-16 offset in `text` after skipping `count` code points from UTF-16 offset `from`, or
 * text.length if the text ends first. `plain` says the text has no surrogates (then it is direct).
 */
export function advanceCodePoints(text: string, from: number, count: number, plain: boolean): number {
  if (plain) return Math.min(text.length, from + count);
  let offset = from;
  for (let left = count; left > 0 && offset < text.length; left--) offset += isPairAt(text, offset) ? 2 : 1;
  return offset;
}

/** Whether `text` has a surrogate that is not half of a pair (such a pattern only matches in UTF-16). */
export function hasLoneSurrogate(text: string): boolean {
  if (!SURROGATE.test(text)) return false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c < 0xd800 || c > 0xdfff) continue;
    if (!isPairAt(text, i)) return true;
    i++;
  }
  return false;
}
