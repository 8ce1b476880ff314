// What Format Document may take on. jsonc-parser's formatter indents every line to its depth, so
// its output grows with nesting times lines (20 KB of `[` would make gigabytes of edits), and its
// time grows with the text and with the places it may break a line (a one-line plan of 200,000
// keys took 5 s to format and answer, a 5.8 MB plan 3.5 s). One linear scan of the part to format
// measures its nesting, those places and the indentation the result would hold; beyond the
// limits formatting is refused with a message that says why, and the document is left as it is.
// The limits keep any accepted text's answer under about 200 ms (bench/formatting.bench.ts).

/** Deeper than this, formatting is refused (plans nest a few levels; the runtime's limit is 1000). */
export const MAX_FORMAT_DEPTH = 128;
/** Indentation the formatted text may add, in characters. */
export const MAX_FORMAT_INDENT = 16 * 1024 * 1024;
/** Characters of text formatted at once (a 1,000-step plan is 150-320 KB, pretty-printed). */
export const MAX_FORMAT_CHARS = 512 * 1024;
/** Commas, colons, brackets and comments formatted at once: the places the formatter may edit. */
export const MAX_FORMAT_TOKENS = 50_000;

/**
 * Why `text` (from `start` to `end`: the lines a range formatting covers) is not formatted, or
 * undefined when it may be.
 */
export function formatRefusal(text: string, tabSize: number, start = 0, end = text.length): string | undefined {
  const advice = start === 0 && end === text.length ? "; format a selection of it instead" : "; select less of it";
  if (end - start > MAX_FORMAT_CHARS) {
    return `Not formatted: ${mb(end - start)} of text is more than the ${mb(MAX_FORMAT_CHARS)} formatting handles at once${advice}.`;
  }
  let depth = 0;
  let maxDepth = 0;
  let indent = 0;
  let tokens = 0;
  const width = Math.max(1, tabSize);
  for (let i = start; i < end; i++) {
    const c = text.charCodeAt(i);
    if (c === 0x22) {
      // a string: skip to its closing quote
      for (i++; i < end; i++) {
        const d = text.charCodeAt(i);
        if (d === 0x5c) i++;
        else if (d === 0x22 || d === 0x0a) break;
      }
    } else if (c === 0x2f && text.charCodeAt(i + 1) === 0x2f) {
      tokens++;
      const close = text.indexOf("\n", i);
      i = close < 0 || close > end ? end : close;
    } else if (c === 0x2f && text.charCodeAt(i + 1) === 0x2a) {
      tokens++;
      const close = text.indexOf("*/", i + 2);
      i = close < 0 || close > end ? end : close + 1;
    } else if (c === 0x7b || c === 0x5b) {
      tokens++;
      depth++;
      if (depth > maxDepth) maxDepth = depth;
      indent += depth * width;
    } else if (c === 0x7d || c === 0x5d) {
      tokens++;
      if (depth > 0) depth--;
      indent += depth * width;
    } else if (c === 0x2c) {
      tokens++;
      indent += depth * width;
    } else if (c === 0x3a) {
      tokens++;
    }
  }
  if (maxDepth > MAX_FORMAT_DEPTH)
    return `Not formatted: the document nests ${maxDepth} levels deep, more than the ${MAX_FORMAT_DEPTH} formatting handles; flatten it first.`;
  if (indent > MAX_FORMAT_INDENT)
    return `Not formatted: the result would add about ${Math.round(indent / 1048576)} MB of indentation (the limit is ${MAX_FORMAT_INDENT / 1048576} MB).`;
  if (tokens > MAX_FORMAT_TOKENS)
    return `Not formatted: ${tokens} commas, colons, brackets and comments are more than the ${MAX_FORMAT_TOKENS} formatting handles at once${advice}.`;
  return undefined;
}

function mb(chars: number): string {
  return `${(chars / 1048576).toFixed(1)} MB`;
}
