// What Format Document may take on: jsonc-parser's formatter indents every line to its depth, so
// its output grows with nesting times lines (20 KB of `[` would make gigabytes of edits). One
// linear scan measures the nesting and the indentation the result would hold; beyond the limits
// formatting is refused with a message that says why, and the document is left as it is.

/** Deeper than this, formatting is refused (plans nest a few levels; the runtime's limit is 1000). */
export const MAX_FORMAT_DEPTH = 128;
/** Indentation the formatted text may add, in characters. */
export const MAX_FORMAT_INDENT = 16 * 1024 * 1024;

/** Why the text is not formatted, or undefined when it may be. */
export function formatRefusal(text: string, tabSize: number): string | undefined {
  let depth = 0;
  let maxDepth = 0;
  let indent = 0;
  const width = Math.max(1, tabSize);
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === 0x22) {
      // a string: skip to its closing quote
      for (i++; i < text.length; i++) {
        const d = text.charCodeAt(i);
        if (d === 0x5c) i++;
        else if (d === 0x22 || d === 0x0a) break;
      }
    } else if (c === 0x2f && text.charCodeAt(i + 1) === 0x2f) {
      const end = text.indexOf("\n", i);
      i = end < 0 ? text.length : end;
    } else if (c === 0x2f && text.charCodeAt(i + 1) === 0x2a) {
      const end = text.indexOf("*/", i + 2);
      i = end < 0 ? text.length : end + 1;
    } else if (c === 0x7b || c === 0x5b) {
      depth++;
      if (depth > maxDepth) maxDepth = depth;
      indent += depth * width;
    } else if (c === 0x7d || c === 0x5d) {
      if (depth > 0) depth--;
      indent += depth * width;
    } else if (c === 0x2c) {
      indent += depth * width;
    }
  }
  if (maxDepth > MAX_FORMAT_DEPTH)
    return `Not formatted: the document nests ${maxDepth} levels deep, more than the ${MAX_FORMAT_DEPTH} formatting handles; flatten it first.`;
  if (indent > MAX_FORMAT_INDENT)
    return `Not formatted: the result would add about ${Math.round(indent / 1048576)} MB of indentation (the limit is ${MAX_FORMAT_INDENT / 1048576} MB).`;
  return undefined;
}
