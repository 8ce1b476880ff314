// The secret mask's reading of a text: its letters and digits, lowercased, with escapes decoded and
// width folded, each with the range of the original text it came from. Separators (punctuation,
// whitespace, control characters, terminal escape sequences, zero-width characters) are dropped
// but counted: a key spelled `sk - SENTINEL`, split by a line break or by a colour code is still
// one run of letters; a long enough gap, or a letter no key has, breaks the run. Cyrillic and Greek
// look-alikes read as the Latin letters they imitate, and a short JSON member name between two
// parts of a key is a separator. One pass, linear.

/** Where the letters and digits of a text go, one at a time, in order. */
export interface SkeletonSink {
  /** A letter or digit (ASCII, lowercased), from text[start, end). */
  code(code: number, start: number, end: number): void;
  /** Separator units dropped since the last code (whitespace counts one unit per 8 characters). */
  gap(units: number): void;
  /** Something that breaks any run: a letter or digit that folds to nothing a key holds. */
  broken(): void;
}

/** Gap units between two letters of a key beyond which they are not one run. */
export const MAX_GAP = 6;

/** A trailing escape longer than this is not an escape (%XX, &#x10FFFF;, \u{10FFFF}, ESC [ ... m). */
const MAX_ESCAPE = 16;

const ENTITY = /&(?:#(\d{1,7})|#[xX]([0-9A-Fa-f]{1,6})|[A-Za-z][A-Za-z0-9]{1,31});?/y;
const HEX2 = /[0-9A-Fa-f]{2}/y;
const BACKSLASH_ESCAPE = /(?:u\{([0-9A-Fa-f]{1,6})\}|u([0-9A-Fa-f]{4})|x([0-9A-Fa-f]{2})|[nrtbfv0/"'])/y;
// eslint-disable-next-line no-control-regex
const CSI = /\u001b\[[0-?]*[ -/]*[@-~]/y;
// eslint-disable-next-line no-control-regex
const OSC = /\u001b\][^\u0007\u001b]{0,512}(?:\u0007|\u001b\\)/y;
/** The rest of a colour code whose ESC was escaped (`\u001b[31m` in JSON text). */
const CSI_TAIL = /\[[0-?]*[ -/]*[@-~]/y;
const WHITESPACE = /[\s\u00a0\u1680\u2000-\u200a\u2028\u2029\u202f\u205f\u3000]+/y;
/**
 * A JSON member name, its colon and the quote of a text value (`"part2": "`). Its letters are read as a separator when they
 * are fewer than a key's window: a reply that spreads a key over fields (`{"a": "sk-SENT",
 * "b": "INEL-abc1", ...}`) is one run of the key's letters, and a name that could hold a key's
 * distinctive part by itself is still read as letters.
 */
const MEMBER_NAME = /"(?:[^"\\\r\n]|\\.){0,64}"[ \t]*:[ \t]*"?/y;
/** The same inside a JSON string (JSON text a model replied with, printed as JSON again: `\"p1\": `). */
const ESCAPED_MEMBER_NAME = /\\+"[^"\\\r\n]{0,64}\\+"[ \t]*:[ \t]*(?:\\+")?/y;
const NAME_LETTERS = 11;

/** Code points above ASCII, folded once: a letter or digit code, -1 for a separator, 0 for a break. */
const foldedCache = new Map<number, number>();

/**
 * Reads `text` into `sink`. Returns the index of a trailing escape that the next chunk of a
 * stream could complete (`%4`, `&#x4`, `\u00`, a lone ESC), or -1.
 */
export function readSkeleton(text: string, sink: SkeletonSink): number {
  let i = 0;
  const n = text.length;
  while (i < n) {
    const c = text.charCodeAt(i);
    if ((c >= 0x30 && c <= 0x39) || (c >= 0x61 && c <= 0x7a)) {
      sink.code(c, i, i + 1);
      i++;
    } else if (c >= 0x41 && c <= 0x5a) {
      sink.code(c + 0x20, i, i + 1);
      i++;
    } else if ((c === 0x22 /* " */ || c === 0x5c) /* \ */ && memberNameEnd(text, i) > 0) {
      sink.gap(1);
      i = memberNameEnd(text, i);
    } else if (c === 0x25 /* % */) {
      HEX2.lastIndex = i + 1;
      if (HEX2.test(text)) {
        const byte = parseInt(text.slice(i + 1, i + 3), 16);
        foldInto(sink, byte, i, i + 3);
        i = byte === 0x1b ? afterCsi(text, i + 3) : i + 3;
      } else {
        if (n - i < 3) return i;
        sink.gap(1);
        i++;
      }
    } else if (c === 0x26 /* & */) {
      ENTITY.lastIndex = i;
      const m = ENTITY.exec(text);
      if (m !== null) {
        const codePoint = m[1] !== undefined ? Number(m[1]) : m[2] !== undefined ? parseInt(m[2], 16) : -1;
        if (codePoint >= 0 && codePoint <= 0x10ffff) foldInto(sink, codePoint, i, ENTITY.lastIndex);
        else sink.gap(1);
        i = codePoint === 0x1b ? afterCsi(text, ENTITY.lastIndex) : ENTITY.lastIndex;
        if (i === n && !m[0].endsWith(";") && n - (i - m[0].length) < MAX_ESCAPE) return n - m[0].length;
      } else {
        if (n - i < MAX_ESCAPE && /^&#?[xX]?[0-9A-Za-z]*$/.test(text.slice(i))) return i;
        sink.gap(1);
        i++;
      }
    } else if (c === 0x5c /* \ */) {
      // Escapes may be escaped again (JSON inside JSON): any number of backslashes, read once.
      let run = i + 1;
      while (run < n && text.charCodeAt(run) === 0x5c) run++;
      BACKSLASH_ESCAPE.lastIndex = run;
      const m = BACKSLASH_ESCAPE.exec(text);
      if (m !== null) {
        const hex = m[1] ?? m[2] ?? m[3];
        if (hex !== undefined) foldInto(sink, parseInt(hex, 16), i, BACKSLASH_ESCAPE.lastIndex);
        else sink.gap(1);
        i =
          hex !== undefined && parseInt(hex, 16) === 0x1b
            ? afterCsi(text, BACKSLASH_ESCAPE.lastIndex)
            : BACKSLASH_ESCAPE.lastIndex;
      } else {
        if (n - run < MAX_ESCAPE && /^(?:u\{?[0-9A-Fa-f]*|x[0-9A-Fa-f]?)?$/.test(text.slice(run))) return i;
        sink.gap(1);
        i = run;
      }
    } else if (c === 0x1b) {
      CSI.lastIndex = i;
      OSC.lastIndex = i;
      if (CSI.test(text)) i = CSI.lastIndex;
      else if (OSC.test(text)) i = OSC.lastIndex;
      else if (n - i < MAX_ESCAPE) return i;
      else i++;
      sink.gap(1);
    } else if (c === 0x20 && !isSpace(text.charCodeAt(i + 1))) {
      sink.gap(1);
      i++;
    } else if (c === 0x20 || (c >= 0x09 && c <= 0x0d) || c === 0xa0 || (c >= 0x1680 && isWhitespace(text, i))) {
      WHITESPACE.lastIndex = i;
      WHITESPACE.test(text);
      const end = Math.max(WHITESPACE.lastIndex, i + 1);
      sink.gap(Math.ceil((end - i) / 8));
      i = end;
    } else if (c < 0x80) {
      sink.gap(1);
      i++;
    } else {
      const codePoint = text.codePointAt(i) ?? c;
      const width = codePoint > 0xffff ? 2 : 1;
      foldInto(sink, codePoint, i, i + width);
      i += width;
    }
  }
  return -1;
}

/** The end of a short member name and its colon starting at text[i] (a quote or backslashes), or 0. */
function memberNameEnd(text: string, i: number): number {
  const name = text.charCodeAt(i) === 0x22 ? MEMBER_NAME : ESCAPED_MEMBER_NAME;
  name.lastIndex = i;
  if (!name.test(text)) return 0;
  const end = name.lastIndex;
  let letters = 0;
  for (let k = i + 1; k < end && letters <= NAME_LETTERS; k++) {
    const c = text.charCodeAt(k) | 0x20;
    if ((c >= 0x30 && c <= 0x39) || (c >= 0x61 && c <= 0x7a) || c > 0x80) letters++;
  }
  return letters <= NAME_LETTERS ? end : 0;
}

function afterCsi(text: string, i: number): number {
  CSI_TAIL.lastIndex = i;
  return CSI_TAIL.test(text) ? CSI_TAIL.lastIndex : i;
}

function foldInto(sink: SkeletonSink, codePoint: number, start: number, end: number): void {
  const folded = foldCodePoint(codePoint);
  if (folded > 0) sink.code(folded, start, end);
  else if (folded === 0) sink.broken();
  else sink.gap(1);
}

function isSpace(c: number): boolean {
  return c === 0x20 || (c >= 0x09 && c <= 0x0d) || c === 0xa0 || c >= 0x1680;
}

function isWhitespace(text: string, i: number): boolean {
  WHITESPACE.lastIndex = i;
  return WHITESPACE.test(text);
}

/**
 * A code point as a key's letter: its ASCII letter or digit, lowercased (full-width and other
 * compatibility forms folded), -1 for a separator (punctuation, symbols, marks, format
 * characters), 0 for a letter or digit of another script (it breaks a run).
 */
export function foldCodePoint(codePoint: number): number {
  if (codePoint < 0x80) {
    if ((codePoint >= 0x30 && codePoint <= 0x39) || (codePoint >= 0x61 && codePoint <= 0x7a)) return codePoint;
    if (codePoint >= 0x41 && codePoint <= 0x5a) return codePoint + 0x20;
    return -1;
  }
  // Full-width forms, the common case, without a normalization.
  if (codePoint >= 0xff10 && codePoint <= 0xff19) return codePoint - 0xff10 + 0x30;
  if (codePoint >= 0xff21 && codePoint <= 0xff3a) return codePoint - 0xff21 + 0x61;
  if (codePoint >= 0xff41 && codePoint <= 0xff5a) return codePoint - 0xff41 + 0x61;
  const lookAlike = LOOK_ALIKES.get(codePoint);
  if (lookAlike !== undefined) return lookAlike;
  const cached = foldedCache.get(codePoint);
  if (cached !== undefined) return cached;
  const char = String.fromCodePoint(codePoint);
  const base = char.normalize("NFKD").replace(/\p{M}/gu, "");
  let folded: number;
  if (base.length === 1 && base.charCodeAt(0) < 0x80 && /[A-Za-z0-9]/.test(base))
    folded = foldCodePoint(base.charCodeAt(0));
  else if (/[\p{L}\p{N}]/u.test(base)) folded = 0;
  else folded = -1;
  if (foldedCache.size < 4096) foldedCache.set(codePoint, folded);
  return folded;
}

/**
 * Cyrillic and Greek letters drawn like Latin ones (Unicode's confusables for the letters a key
 * uses): `sk-ЅΕNΤINΕL` is read as `sk-SENTINEL`. NFKD leaves them alone: they are letters of
 * their own scripts, which would otherwise break the run.
 */
const LOOK_ALIKES = lookAlikes(
  // Cyrillic, then Greek: each letter above the ASCII letter or digit it looks like.
  "авекмнорстухѕіјԁԛԝӏһьАВЕКМНОРСТУХЅІЈҮԚԜӀЗαορνικχυετωγΑΒΕΖΗΙΚΜΝΟΡΤΥΧ",
  "abekmhopctyxsijdqwlhbabekmhopctyxsijyqwl3aopvikxuetwyabezhikmnoptyx",
);

function lookAlikes(from: string, to: string): Map<number, number> {
  const map = new Map<number, number>();
  for (let i = 0; i < from.length; i++) map.set(from.charCodeAt(i), to.charCodeAt(i));
  return map;
}

/** A key's letters and digits as the mask reads them (escapes decoded, width and case folded). */
export function foldedCodes(text: string): number[] {
  const codes: number[] = [];
  readSkeleton(text, { code: (code) => void codes.push(code), gap: () => undefined, broken: () => undefined });
  return codes;
}
