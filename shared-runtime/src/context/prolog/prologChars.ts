// Character classes and case mapping as the reference (SWI-Prolog 9.0.4 on glibc 2.36, in a
// UTF-8 locale) applies them, so printed terms, byte counts and case transforms agree with it.
//
// Both SWI-Prolog's tables and glibc's know Unicode 14. Node's own tables are newer, so every
// lookup below first checks POST_UNICODE_14: a code point assigned after Unicode 14 is treated
// as unassigned, whatever Node knows about it. That keeps results identical across Node versions.

/**
 * Code points that are unassigned in Unicode 14 but assigned in Node 20's Unicode (17), as hex
 * ranges. Produced by comparing SWI-Prolog 9.0.4's quoted output for every code point with the
 * \p{Cn} class of Node 20.20.
 */
const POST_UNICODE_14 =
  "88f 897 c5c cdc cf3 ece 1acf-1add 1ae0-1aeb 1b4e-1b4f 1b7f 1c89-1c8a 20c1 2427-2429 2b96 " +
  "2e2f 2ffc-2fff 31e4-31e5 31ef a7cb-a7cf a7d2 a7d4 a7da-a7dc a7f1 fbc3-fbd2 fd90-fd91 " +
  "fdc8-fdce 105c0-105f3 10940-10959 10d40-10d65 10d69-10d85 10d8e-10d8f 10ec2-10ec7 " +
  "10ed0-10ed8 10efa-10eff 1123f-11241 11380-11389 1138b 1138e 11390-113b5 113b7-113c0 " +
  "113c2 113c5 113c7-113ca 113cc-113d5 113d7-113d8 113e1-113e2 116d0-116e3 11b00-11b09 " +
  "11b60-11b67 11bc0-11be1 11bf0-11bf9 11db0-11ddb 11de0-11de9 11f00-11f10 11f12-11f3a " +
  "11f3e-11f5a 1342f 13440-13455 13460-143fa 16100-16139 16d40-16d79 16ea0-16eb8 " +
  "16ebb-16ed3 16ff2-16ff6 187f8-187ff 18cff 18d09-18d1e 18d80-18df2 1b132 1b155 " +
  "1cc00-1ccfc 1cd00-1ceb3 1ceba-1ced0 1cee0-1cef0 1d2c0-1d2d3 1df25-1df2a 1e030-1e06d " +
  "1e08f 1e4d0-1e4f9 1e5d0-1e5fa 1e5ff 1e6c0-1e6de 1e6e0-1e6f5 1e6fe-1e6ff 1f6d8 1f6dc " +
  "1f774-1f77f 1f7d9 1f8b2-1f8bb 1f8c0-1f8c1 1f8d0-1f8d8 1fa54-1fa57 1fa75-1fa77 " +
  "1fa87-1fa8a 1fa8e-1fa8f 1faad-1faaf 1fabb-1fabf 1fac6 1fac8 1facd-1facf 1fada-1fadc " +
  "1fadf 1fae8-1faea 1faef 1faf7-1faf8 1fbcb-1fbef 1fbfa 2b739-2b73f 2cea2-2cead " +
  "2ebf0-2ee5d 31350-33479";

/** Flattened [start0, end0, start1, end1, ...], sorted, for binary search. */
const postUnicode14Bounds: Uint32Array = (() => {
  const ranges = POST_UNICODE_14.split(" ");
  const bounds = new Uint32Array(ranges.length * 2);
  ranges.forEach((range, i) => {
    const [start, end = start] = range.split("-") as [string, string?];
    bounds[2 * i] = parseInt(start, 16);
    bounds[2 * i + 1] = parseInt(end, 16);
  });
  return bounds;
})();

export function isPostUnicode14(c: number): boolean {
  if (c < 0x88f) return false;
  let low = 0;
  let high = postUnicode14Bounds.length / 2 - 1;
  while (low <= high) {
    const mid = (low + high) >> 1;
    if (c < (postUnicode14Bounds[2 * mid] as number)) high = mid - 1;
    else if (c > (postUnicode14Bounds[2 * mid + 1] as number)) low = mid + 1;
    else return true;
  }
  return false;
}

// glibc's iswprint is false for controls, format characters, private use, unassigned code
// points and separators other than the ASCII space; SWI-Prolog escapes exactly those.
const NOT_PRINTABLE = /[\p{Cc}\p{Cf}\p{Co}\p{Cn}\p{Cs}\p{Zl}\p{Zp}\p{Zs}]/u;

/** Whether SWI-Prolog writes this code point as itself inside a quoted string or atom. */
export function isPrintable(c: number): boolean {
  if (c >= 0x20 && c < 0x7f) return true;
  if (c < 0xa0) return false;
  return !NOT_PRINTABLE.test(String.fromCodePoint(c)) && !isPostUnicode14(c);
}

const ID_START = /\p{ID_Start}/u;
const ID_CONTINUE = /\p{ID_Continue}/u;
const UPPERCASE = /\p{Uppercase}/u;
const SYMBOL_OR_PUNCTUATION = /[\p{S}\p{P}]/u;
const ASCII_SYMBOL_CHARS = "#$&*+-./:<=>?@\\^~";
/** ID_Continue in Node's Unicode but not in SWI-Prolog's tables (middle dots, joiners). */
const NOT_CONTINUING = new Set([0xb7, 0x200c, 0x200d, 0x30fb, 0xff65]);
/** Single characters SWI-Prolog writes bare although they are neither letters nor symbols. */
const SOLO_CHARS = new Set([0x21, 0x3b, 0xad, 0xb2, 0xb3, 0xb9, 0xbc, 0xbd, 0xbe]);

function hasProperty(pattern: RegExp, c: number): boolean {
  return pattern.test(String.fromCodePoint(c)) && !isPostUnicode14(c);
}

/** A character that may start an unquoted atom: a letter that is not upper case. */
export function startsBareAtom(c: number): boolean {
  if (c < 0x80) return c >= 0x61 && c <= 0x7a;
  return hasProperty(ID_START, c) && !UPPERCASE.test(String.fromCodePoint(c));
}

/** A character that may continue an unquoted atom once it started with a lower-case letter. */
export function continuesBareAtom(c: number): boolean {
  if (c < 0x80) {
    return (c >= 0x61 && c <= 0x7a) || (c >= 0x41 && c <= 0x5a) || (c >= 0x30 && c <= 0x39) || c === 0x5f;
  }
  return hasProperty(ID_CONTINUE, c) && !NOT_CONTINUING.has(c);
}

/** A character of the "symbol" class: atoms made only of these (like `+` or `->`) print bare. */
export function isSymbolChar(c: number): boolean {
  if (c < 0x80) return ASCII_SYMBOL_CHARS.includes(String.fromCharCode(c));
  return hasProperty(SYMBOL_OR_PUNCTUATION, c) && !ID_START.test(String.fromCodePoint(c));
}

export function isSoloChar(c: number): boolean {
  return SOLO_CHARS.has(c);
}

// SWI-Prolog maps one code point to one code point (towupper/towlower). Where Unicode's full
// mapping yields several characters, JavaScript's toUpperCase gives those several; the simple
// mapping is either the character itself or, for these few, another single character.
const SIMPLE_UPPER = new Map<number, number>([
  ...[0x1f80, 0x1f90, 0x1fa0].flatMap((base) =>
    Array.from({ length: 8 }, (_, i): [number, number] => [base + i, base + i + 8]),
  ),
  [0x1fb3, 0x1fbc],
  [0x1fc3, 0x1fcc],
  [0x1ff3, 0x1ffc],
]);
const SIMPLE_LOWER = new Map<number, number>([[0x130, 0x69]]);

function mapCodePoint(c: number, special: Map<number, number>, full: (s: string) => string): number {
  const simple = special.get(c);
  if (simple !== undefined) return simple;
  if (isPostUnicode14(c)) return c;
  const mapped = full(String.fromCodePoint(c));
  const m = mapped.codePointAt(0);
  if (m === undefined || mapped.length !== (m > 0xffff ? 2 : 1)) return c;
  return isPostUnicode14(m) ? c : m;
}

const ASCII_ONLY = /^[^\u0080-\uffff]*$/;

/** string_upper/2: code point by code point, so the length in code points never changes. */
export function prologUpper(text: string): string {
  if (ASCII_ONLY.test(text)) return text.toUpperCase();
  let out = "";
  for (const ch of text) {
    out += String.fromCodePoint(mapCodePoint(ch.codePointAt(0) as number, SIMPLE_UPPER, (s) => s.toUpperCase()));
  }
  return out;
}

/** string_lower/2, with the same one-to-one mapping as prologUpper. */
export function prologLower(text: string): string {
  if (ASCII_ONLY.test(text)) return text.toLowerCase();
  let out = "";
  for (const ch of text) {
    out += String.fromCodePoint(mapCodePoint(ch.codePointAt(0) as number, SIMPLE_LOWER, (s) => s.toLowerCase()));
  }
  return out;
}
