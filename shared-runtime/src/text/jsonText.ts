// Strict JSON text to a JSON value, for model output and plan files without comments. Uses the
// engine's JSON.parse (the fast path the benchmark holds us to), then one linear scan for what
// JSON.parse forgives: duplicate keys (it keeps the last) and nesting deeper than we analyse.

import { getLocation, parse, printParseErrorCode, type ParseError, type ParseErrorCode } from "jsonc-parser";
import type { JsonPath, JsonValue } from "../json";

/** JSON nesting beyond this is refused before any recursive analysis can run out of stack. */
export const MAX_JSON_DEPTH = 1000;

export type JsonTextErrorCode = "invalid_json" | "duplicate_key" | "too_deep";

export interface JsonTextError {
  readonly code: JsonTextErrorCode;
  readonly message: string;
  readonly offset: number;
  readonly length: number;
  /** For duplicate keys: the path of the object holding the key, and the key. */
  readonly path?: JsonPath;
  readonly key?: string;
  readonly firstOffset?: number;
  /** The first occurrence's length, when known (then it is located without a tree walk). */
  readonly firstLength?: number;
}

export type JsonTextResult =
  { readonly ok: true; readonly value: JsonValue } | { readonly ok: false; readonly error: JsonTextError };

export function parseJsonText(text: string): JsonTextResult {
  let value: JsonValue;
  try {
    value = JSON.parse(text) as JsonValue;
  } catch (error) {
    return { ok: false, error: syntaxError(text, error) };
  }
  return checked(text, value);
}

/** Like parseJsonText, but gives up without locating the error when the text is not JSON. */
export function tryParseJsonText(text: string): JsonTextResult | undefined {
  let value: JsonValue;
  try {
    value = JSON.parse(text) as JsonValue;
  } catch {
    return undefined;
  }
  return checked(text, value);
}

/**
 * A duplicate key always makes the value hold fewer keys than the text names. The text's
 * colons are its keys plus any colons inside strings, so when they equal the value's own keys
 * there is neither a duplicate nor a colon in a string: one native indexOf pass settles the
 * common case. Otherwise a string-aware count decides, and the precise scan runs only to
 * locate a duplicate or an over-deep nesting.
 */
function checked(text: string, value: JsonValue): JsonTextResult {
  const shape = valueShapeOf(value);
  if (shape.depth <= MAX_JSON_DEPTH && countChar(text, ":") === shape.keys) return { ok: true, value };
  const tokens = countKeyTokens(text);
  if (tokens.maxDepth > MAX_JSON_DEPTH || tokens.keys !== shape.keys) {
    const structural = scanStructure(text);
    if (structural) return { ok: false, error: structural };
  }
  return { ok: true, value };
}

function countChar(text: string, char: string): number {
  let n = 0;
  for (let i = text.indexOf(char); i !== -1; i = text.indexOf(char, i + 1)) n++;
  return n;
}

const STRUCTURAL = /["{}[\]:]/g;

/**
 * Colons outside strings (one per key) and the deepest nesting, in one allocation-free pass.
 * On text with comments the figures are estimates (a quote in a comment can shift them).
 */
export function countKeyTokens(text: string): { keys: number; maxDepth: number } {
  let keys = 0;
  let depth = 0;
  let maxDepth = 0;
  STRUCTURAL.lastIndex = 0;
  while (STRUCTURAL.test(text)) {
    const i = STRUCTURAL.lastIndex - 1;
    const c = text.charCodeAt(i);
    if (c === QUOTE) STRUCTURAL.lastIndex = stringEnd(text, i) + 1;
    else if (c === COLON) keys++;
    else if (c === OPEN_BRACE || c === OPEN_BRACKET) {
      if (++depth > maxDepth) maxDepth = depth;
    } else depth--;
  }
  return { keys, maxDepth };
}

/** Own keys of every object in a parsed value, and its nesting depth, walked without recursion. */
function valueShapeOf(value: JsonValue): { keys: number; depth: number } {
  let keys = 0;
  let depth = 0;
  const stack: JsonValue[] = [value];
  const depths: number[] = [1];
  while (stack.length > 0) {
    const v = stack.pop();
    const d = depths.pop() as number;
    if (typeof v !== "object" || v === null) continue;
    if (d > depth) depth = d;
    if (Array.isArray(v)) {
      for (let i = 0; i < v.length; i++) {
        const item = v[i] as JsonValue;
        if (typeof item === "object" && item !== null) {
          stack.push(item);
          depths.push(d + 1);
        }
      }
    } else {
      for (const key in v) {
        keys++;
        const item = v[key] as JsonValue;
        if (typeof item === "object" && item !== null) {
          stack.push(item);
          depths.push(d + 1);
        }
      }
    }
  }
  return { keys, depth };
}

function syntaxError(text: string, error: unknown): JsonTextError {
  const tooDeep = scanStructure(text);
  if (tooDeep?.code === "too_deep") return tooDeep;
  // JSON.parse does not always say where; jsonc-parser in strict mode does, without echoing
  // the text. Depth is bounded above, so its recursion is safe.
  const errors: ParseError[] = [];
  parse(text, errors, { disallowComments: true, allowTrailingComma: false, allowEmptyContent: false });
  const first = errors[0];
  if (first) {
    return {
      code: "invalid_json",
      message: `invalid JSON: ${describeParseError(first.error)}`,
      offset: first.offset,
      length: first.length,
    };
  }
  const raw = error instanceof Error ? error.message : String(error);
  const position = /position (\d+)/.exec(raw);
  const offset = position ? Math.min(Number(position[1]), text.length) : text.length;
  return { code: "invalid_json", message: "invalid JSON", offset, length: 0 };
}

/** jsonc-parser's error code as words: "CommaExpected" -> "comma expected". */
export function describeParseError(code: ParseErrorCode): string {
  return printParseErrorCode(code)
    .replace(/([a-z])([A-Z])/g, "$1 $2")
    .toLowerCase();
}

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const COLON = 0x3a;
const OPEN_BRACE = 0x7b;
const CLOSE_BRACE = 0x7d;
const OPEN_BRACKET = 0x5b;
const CLOSE_BRACKET = 0x5d;

/**
 * Finds the first duplicate key or over-deep nesting in text that JSON.parse accepted.
 * Strings are skipped with indexOf, so the scan costs little beside JSON.parse itself.
 */
export function scanStructure(text: string, maxDepth = MAX_JSON_DEPTH): JsonTextError | undefined {
  // One key set per open container; arrays get null. Sets are made only when a key appears.
  const keys: (Map<string, number> | null | undefined)[] = [];
  let depth = 0;
  const n = text.length;
  for (let i = 0; i < n; i++) {
    const c = text.charCodeAt(i);
    if (c === QUOTE) {
      const end = stringEnd(text, i);
      let seen = depth > 0 ? keys[depth - 1] : null;
      if (seen !== null && followedByColon(text, end + 1)) {
        const raw = text.slice(i + 1, end);
        const key = raw.includes("\\") ? decodedKey(raw) : raw;
        if (seen === undefined) {
          seen = new Map();
          keys[depth - 1] = seen;
        }
        const first = seen.get(key);
        if (first !== undefined) {
          return {
            code: "duplicate_key",
            message: `duplicate key ${JSON.stringify(key)}: a JSON object may name a key only once`,
            offset: i,
            length: end - i + 1,
            path: getLocation(text, first).path.slice(0, -1),
            key,
            firstOffset: first,
          };
        }
        seen.set(key, i);
      }
      i = end;
    } else if (c === OPEN_BRACE || c === OPEN_BRACKET) {
      depth++;
      if (depth > maxDepth) {
        return {
          code: "too_deep",
          // No advice here: the text may be an items file or a tool's output; plan readers add theirs.
          message: `JSON nested more than ${maxDepth} levels deep`,
          offset: i,
          length: 1,
        };
      }
      keys[depth - 1] = c === OPEN_BRACE ? undefined : null;
    } else if (c === CLOSE_BRACE || c === CLOSE_BRACKET) {
      keys[depth - 1] = undefined;
      depth--;
    }
  }
  return undefined;
}

/** Index of the quote that closes the string opening at `start`. */
function stringEnd(text: string, start: number): number {
  let j = start;
  for (;;) {
    j = text.indexOf('"', j + 1);
    if (j < 0) return text.length;
    let backslashes = 0;
    for (let k = j - 1; text.charCodeAt(k) === BACKSLASH; k--) backslashes++;
    if (backslashes % 2 === 0) return j;
  }
}

function followedByColon(text: string, from: number): boolean {
  for (let j = from; j < text.length; j++) {
    const c = text.charCodeAt(j);
    if (c === COLON) return true;
    if (c !== 0x20 && c !== 0x0a && c !== 0x0d && c !== 0x09) return false;
  }
  return false;
}

/** A key's text decoded; as written when its escapes are broken (the scan also runs on bad text). */
function decodedKey(raw: string): string {
  try {
    return JSON.parse(`"${raw}"`) as string;
  } catch {
    return raw;
  }
}
