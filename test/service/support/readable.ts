// Feature answers as golden files read: the answer as it goes on the wire, printed like JSON with
// short objects on one line, every range as `line:col-line:col` (1-based, as editors show them,
// columns in UTF-16 code units as LSP counts) followed by the text it covers, enum numbers by
// name, and the fixtures' machine path replaced by `<fixtures>`, so a golden file is stable
// across machines and a reviewer sees what each range points at.

import { pathToFileURL } from "node:url";
import type { Position, Range } from "vscode-languageserver-protocol";

/** An LSP enum namespace (`SymbolKind`, ...) as number -> name. */
export type EnumNames = Readonly<Record<number, string>>;

export function enumNames(namespace: object): EnumNames {
  const names: Record<number, string> = {};
  for (const [name, value] of Object.entries(namespace)) if (typeof value === "number") names[value] = name;
  return names;
}

export interface ReadableOptions {
  /** The document the ranges are in (outside an object with another `uri`): excerpts come from it. */
  readonly text?: string;
  /** Its URI: a range under another document's URI (a `uri` field, or a key of `changes`) is excerpted from `others`, or not at all. */
  readonly uri?: string;
  /** Other documents' texts by URI (the host profile a quick fix edits). */
  readonly others?: Readonly<Record<string, string>>;
  /** Folders whose path (and file URL) is printed as `<fixtures>`. */
  readonly folders?: readonly string[];
  /** Numbers of these keys printed by name. */
  readonly enums?: Readonly<Record<string, EnumNames>>;
}

const WIDTH = 110;
const EXCERPT = 40;

export function readable(value: unknown, options: ReadableOptions = {}): string {
  const wire = value === undefined ? null : (JSON.parse(JSON.stringify(value)) as unknown);
  return `${print(wire, "", options.text, options)}\n`;
}

/** `line:col` of a position, 1-based. */
export function at(position: Position): string {
  return `${position.line + 1}:${position.character + 1}`;
}

/** `line:col-line:col` of a range, with the text it covers when `text` is given. */
export function span(range: Range, text?: string): string {
  const where = `${at(range.start)}-${at(range.end)}`;
  return text === undefined ? where : `${where} ${excerpt(text, range)}`;
}

/** The text a range covers, on one line (newlines as ⏎), long ones cut in the middle. */
export function excerpt(text: string, range: Range): string {
  const covered = text.slice(offsetOf(text, range.start), offsetOf(text, range.end)).replace(/\r\n|\r|\n/g, "⏎");
  const short = covered.length <= EXCERPT ? covered : `${covered.slice(0, 24)}…${covered.slice(-12)}`;
  return `⟨${short}⟩`;
}

/** The offset of a position, counting lines as LSP does: a line ends at "\r\n", "\r" or "\n". */
export function offsetOf(text: string, position: Position): number {
  const breaks = /\r\n|\r|\n/g;
  let offset = 0;
  for (let line = 0; line < position.line; line++) {
    const found = breaks.exec(text);
    if (!found) return text.length;
    offset = found.index + found[0].length;
  }
  return Math.min(offset + position.character, text.length);
}

function isPosition(value: unknown): value is Position {
  if (typeof value !== "object" || value === null) return false;
  const keys = Object.keys(value);
  return (
    keys.length === 2 &&
    typeof (value as Position).line === "number" &&
    typeof (value as Position).character === "number"
  );
}

function isRange(value: unknown): value is Range {
  if (typeof value !== "object" || value === null) return false;
  const keys = Object.keys(value);
  return keys.length === 2 && isPosition((value as Range).start) && isPosition((value as Range).end);
}

function print(
  value: unknown,
  indent: string,
  text: string | undefined,
  options: ReadableOptions,
  key?: string,
): string {
  if (isRange(value)) return span(value, text);
  if (isPosition(value)) return at(value);
  if (typeof value === "number" && key !== undefined && options.enums?.[key]?.[value] !== undefined)
    return options.enums[key][value] as string;
  if (typeof value === "string") return JSON.stringify(scrub(value, options));
  if (value === null || typeof value !== "object") return JSON.stringify(value);
  const inner = `${indent}  `;
  if (Array.isArray(value)) {
    if (value.length === 0) return "[]";
    const items = value.map((item) => print(item, inner, text, options));
    return fits(items, indent, "[", "]") ?? `[\n${items.map((item) => `${inner}${item}`).join(",\n")}\n${indent}]`;
  }
  const record = value as Record<string, unknown>;
  const here = typeof record.uri === "string" ? textOf(record.uri, text, options) : text;
  const entries = Object.entries(record);
  if (entries.length === 0) return "{}";
  const items = entries.map(([k, v]) => {
    const name = /^[A-Za-z_$][\w$]*$/.test(k) ? k : JSON.stringify(scrub(k, options));
    const under = /^[a-z]+:\/\//.test(k) ? textOf(k, here, options) : here;
    return `${name}: ${print(v, inner, under, options, k)}`;
  });
  return fits(items, indent, "{ ", " }") ?? `{\n${items.map((item) => `${inner}${item}`).join(",\n")}\n${indent}}`;
}

/** The text ranges under `uri` are excerpted from: the main document's, another's, or none. */
function textOf(uri: string, current: string | undefined, options: ReadableOptions): string | undefined {
  if (options.uri === undefined || uri === options.uri) return current ?? options.text;
  return options.others?.[uri];
}

function fits(items: readonly string[], indent: string, open: string, close: string): string | undefined {
  const line = `${open}${items.join(", ")}${close}`;
  return line.includes("\n") || indent.length + line.length > WIDTH ? undefined : line;
}

function scrub(value: string, options: ReadableOptions): string {
  let result = value;
  for (const folder of options.folders ?? []) {
    result = result.split(pathToFileURL(folder).href).join("<fixtures>").split(folder).join("<fixtures>");
  }
  return result;
}
