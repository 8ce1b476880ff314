// JSON values written the way SWI-Prolog writes the terms the reference holds for them
// (term_string/3 with quoted(true)): this text is what search matches in item lists, what the
// case transforms change, and what every byte count of an item list measures.
//
// The reference reads JSON into terms as: strings to strings, numbers to numbers, true, false
// and null to atoms, arrays to lists, objects to dicts tagged `json` with atom keys.

import { utf8Length, type JsonValue } from "../../json";
import { continuesBareAtom, isPrintable, isSoloChar, isSymbolChar, startsBareAtom } from "./prologChars";

const NAMED_ESCAPES = new Map<number, string>([
  [0x07, "\\a"],
  [0x08, "\\b"],
  [0x09, "\\t"],
  [0x0a, "\\n"],
  [0x0b, "\\v"],
  [0x0c, "\\f"],
  [0x0d, "\\r"],
  [0x5c, "\\\\"],
]);

/** Text with no character that needs an escape inside either kind of quotes. */
const PLAIN_ASCII = /^[\x20-\x21\x23-\x26\x28-\x5b\x5d-\x7e]*$/;

function quoted(text: string, quote: "'" | '"'): string {
  if (PLAIN_ASCII.test(text)) return quote + text + quote;
  let out = quote;
  for (const ch of text) {
    const c = ch.codePointAt(0) as number;
    const named = NAMED_ESCAPES.get(c);
    if (named !== undefined) out += named;
    else if (ch === quote) out += "\\" + quote;
    else if (isPrintable(c)) out += ch;
    else if (c <= 0xffff) out += "\\u" + c.toString(16).toUpperCase().padStart(4, "0");
    else out += "\\U" + c.toString(16).toUpperCase().padStart(8, "0");
  }
  return out + quote;
}

/** A string as SWI-Prolog writes it: `"a\"b"`. */
export function prologString(text: string): string {
  return quoted(text, '"');
}

function bareAtom(name: string): boolean {
  const codes = Array.from(name, (ch) => ch.codePointAt(0) as number);
  const [first] = codes;
  if (first === undefined) return false;
  if (startsBareAtom(first)) return codes.every((c, i) => i === 0 || continuesBareAtom(c));
  if (name === ".") return false;
  if (isSymbolChar(first)) return !name.startsWith("/*") && codes.every(isSymbolChar);
  if (codes.length === 1) return isSoloChar(first);
  return name === "{}";
}

/** An atom as SWI-Prolog writes it: bare when it reads back as the same atom, else quoted. */
export function prologAtom(name: string): string {
  return bareAtom(name) ? name : quoted(name, "'");
}

/**
 * A number as SWI-Prolog writes it. JSON cannot tell 2.0 from 2 once parsed, so an integral
 * value prints as an integer; other floats use the shortest digits that read back, laid out as
 * SWI-Prolog lays them out (exponent below 1.0e-4, no exponent above: such floats are < 2^53).
 */
export function prologNumber(n: number): string {
  if (Number.isNaN(n)) return "1.5NaN";
  if (n === Infinity) return "1.0Inf";
  if (n === -Infinity) return "-1.0Inf";
  if (Number.isInteger(n)) return BigInt(n).toString();
  const sign = n < 0 ? "-" : "";
  const { digits, point } = shortestDigits(Math.abs(n));
  if (point <= -4) {
    return `${sign}${digits[0]}.${digits.slice(1) || "0"}e${point - 1}`;
  }
  if (point <= 0) return `${sign}0.${"0".repeat(-point)}${digits}`;
  return `${sign}${digits.slice(0, point)}.${digits.slice(point)}`;
}

/** Significant digits and decimal point position (value = 0.DIGITS × 10^point). */
function shortestDigits(value: number): { digits: string; point: number } {
  const text = String(value);
  const [mantissa = "", exponent = "0"] = text.split("e");
  const dot = mantissa.indexOf(".");
  const whole = dot < 0 ? mantissa : mantissa.slice(0, dot) + mantissa.slice(dot + 1);
  let point = (dot < 0 ? mantissa.length : dot) + Number(exponent);
  const leadingZeros = whole.length - whole.replace(/^0+/, "").length;
  point -= leadingZeros;
  return { digits: whole.slice(leadingZeros).replace(/0+$/, ""), point };
}

function codePointOrder(a: string, b: string): number {
  const x = Array.from(a);
  const y = Array.from(b);
  const n = Math.min(x.length, y.length);
  for (let i = 0; i < n; i++) {
    const d = (x[i] as string).codePointAt(0)! - (y[i] as string).codePointAt(0)!;
    if (d !== 0) return d;
  }
  return x.length - y.length;
}

/** Whether two adjacent tokens would run together into one (`+` then `:` reads as `+:`). */
function startsWithSymbolChar(text: string): boolean {
  const c = text.codePointAt(0);
  return c !== undefined && isSymbolChar(c);
}

function endsWithSymbolChar(text: string): boolean {
  const last = Array.from(text.slice(-2)).pop();
  return last !== undefined && isSymbolChar(last.codePointAt(0) as number);
}

/** The text SWI-Prolog writes for the term the reference holds for a JSON value. */
export function printTerm(value: JsonValue): string {
  if (typeof value === "string") return prologString(value);
  if (typeof value === "number") return prologNumber(value);
  if (typeof value === "boolean") return value ? "true" : "false";
  if (value === null) return "null";
  if (Array.isArray(value)) return `[${value.map(printTerm).join(",")}]`;
  // Dicts print their keys in the standard order of atoms: by code point.
  const keys = Object.keys(value).sort(codePointOrder);
  const entries = keys.map((key) => {
    const name = prologAtom(key);
    const printed = printTerm(value[key] as JsonValue);
    const afterKey = name === key && endsWithSymbolChar(name) ? " :" : ":";
    return name + afterKey + (startsWithSymbolChar(printed) ? " " : "") + printed;
  });
  return `json{${entries.join(",")}}`;
}

/** item_text/2: a string item is its own text, true/false/null their names, anything else printed. */
export function itemText(value: JsonValue): string {
  if (typeof value === "string") return value;
  if (typeof value === "boolean") return value ? "true" : "false";
  if (value === null) return "null";
  return printTerm(value);
}

/** term_utf8_size/2: bytes of the printed term (a string item counts with its quotes). */
export function termBytes(value: JsonValue): number {
  return utf8Length(printTerm(value));
}

/** value_payload_size/2: a string costs its own bytes, anything else its printed bytes. */
export function payloadBytes(value: JsonValue): number {
  return typeof value === "string" ? utf8Length(value) : termBytes(value);
}
