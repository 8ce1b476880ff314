// A scan of text already known to be JSON (comments allowed) that reports what jsonc-parser's
// visitor reports, with the same offsets, for locating problems (pathRanges.ts): it decodes no
// string it is not asked for and skips a container its caller does not need by counting
// brackets, where the visitor tokenizes all of it (strings built, escapes decoded). Anything it
// does not expect throws NOT_STRICT, and the caller asks the visitor instead.

export interface StrictScanEvents {
  /** A container opens at `offset`; false: skip it (its close is still reported). */
  open(offset: number, array: boolean): boolean;
  close(offset: number, length: number): void;
  /** An object's key: its text (decoded) and its token, quotes included. */
  key(property: string, offset: number, length: number): void;
  /** A string, number, true, false or null value. */
  literal(offset: number, length: number): void;
}

/** Thrown when the text is not what this scan reads. */
export const NOT_STRICT = new Error("not strict JSON with comments");

const enum Char {
  Tab = 9,
  LineFeed = 10,
  CarriageReturn = 13,
  Space = 32,
  Quote = 34,
  Star = 42,
  Comma = 44,
  Minus = 45,
  Slash = 47,
  Zero = 48,
  Nine = 57,
  Colon = 58,
  OpenBracket = 91,
  Backslash = 92,
  CloseBracket = 93,
  OpenBrace = 123,
  CloseBrace = 125,
}

/** Past whitespace and comments from `at`. */
function skipTrivia(text: string, at: number): number {
  let i = at;
  for (;;) {
    const c = text.charCodeAt(i);
    if (c === Char.Space || c === Char.LineFeed || c === Char.CarriageReturn || c === Char.Tab) i++;
    else if (c === Char.Slash) {
      const next = text.charCodeAt(i + 1);
      if (next === Char.Slash) {
        i += 2;
        while (i < text.length && text.charCodeAt(i) !== Char.LineFeed && text.charCodeAt(i) !== Char.CarriageReturn)
          i++;
      } else if (next === Char.Star) {
        const end = text.indexOf("*/", i + 2);
        if (end < 0) throw NOT_STRICT;
        i = end + 2;
      } else throw NOT_STRICT;
    } else return i;
  }
}

/** The offset of the quote that closes the string opening at `at`. */
function stringEnd(text: string, at: number): number {
  let i = at + 1;
  for (;;) {
    if (i >= text.length) throw NOT_STRICT;
    const c = text.charCodeAt(i);
    if (c === Char.Quote) return i;
    i += c === Char.Backslash ? 2 : 1;
  }
}

/** The offset of the bracket that closes the container opening at `at`. */
function containerEnd(text: string, at: number): number {
  let depth = 0;
  let i = at;
  for (;;) {
    i = skipTrivia(text, i);
    if (i >= text.length) throw NOT_STRICT;
    const c = text.charCodeAt(i);
    if (c === Char.Quote) i = stringEnd(text, i) + 1;
    else if (c === Char.OpenBrace || c === Char.OpenBracket) {
      depth++;
      i++;
    } else if (c === Char.CloseBrace || c === Char.CloseBracket) {
      if (--depth === 0) return i;
      i++;
    } else i++;
  }
}

function literalLength(text: string, at: number): number {
  const c = text.charCodeAt(at);
  if (c === Char.Minus || (c >= Char.Zero && c <= Char.Nine)) {
    let i = at + 1;
    for (; i < text.length; i++) {
      const d = text.charCodeAt(i);
      // Digits, ".", "e", "E", "+", "-": the text is JSON, so these form one number.
      if (!((d >= Char.Zero && d <= Char.Nine) || d === 46 || d === 101 || d === 69 || d === 43 || d === Char.Minus))
        break;
    }
    return i - at;
  }
  for (const word of ["true", "false", "null"]) if (text.startsWith(word, at)) return word.length;
  throw NOT_STRICT;
}

/** Reports the text's containers, keys and literals in order; throws NOT_STRICT on a surprise. */
export function scanStrictJson(text: string, events: StrictScanEvents): void {
  // Per open container: whether it is an array.
  const arrays: boolean[] = [];
  // In an object, whether the next string is a key (after "{" or ",").
  let keyNext = false;
  let i = 0;
  for (;;) {
    i = skipTrivia(text, i);
    if (i >= text.length) break;
    const c = text.charCodeAt(i);
    if (c === Char.OpenBrace || c === Char.OpenBracket) {
      const array = c === Char.OpenBracket;
      if (events.open(i, array)) {
        arrays.push(array);
        keyNext = !array;
        i++;
      } else {
        const end = containerEnd(text, i);
        events.close(end, 1);
        i = end + 1;
        keyNext = false;
      }
    } else if (c === Char.CloseBrace || c === Char.CloseBracket) {
      if (arrays.pop() !== (c === Char.CloseBracket)) throw NOT_STRICT;
      events.close(i, 1);
      i++;
      keyNext = false;
    } else if (c === Char.Comma) {
      keyNext = arrays.length > 0 && arrays[arrays.length - 1] === false;
      i++;
    } else if (c === Char.Colon) i++;
    else if (c === Char.Quote) {
      const end = stringEnd(text, i);
      if (keyNext) {
        const raw = text.slice(i + 1, end);
        let property = raw;
        if (raw.includes("\\")) {
          try {
            property = JSON.parse(`"${raw}"`) as string;
          } catch {
            throw NOT_STRICT;
          }
        }
        events.key(property, i, end + 1 - i);
        keyNext = false;
      } else events.literal(i, end + 1 - i);
      i = end + 1;
    } else {
      const length = literalLength(text, i);
      events.literal(i, length);
      i += length;
    }
  }
  if (arrays.length > 0) throw NOT_STRICT;
}
