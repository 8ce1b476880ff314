// Positions in a document's text as LSP counts them, and fixtures that mark the cursor inline
// with `|`: what a test asks about, written where it is asked.

import type { Position, Range } from "vscode-languageserver-protocol";

export interface Fixture {
  readonly text: string;
  readonly offset: number;
  readonly position: Position;
}

/** Text with the cursor marked by the one `|` in it: `"name": "hi|ts"`. */
export function fixture(marked: string): Fixture {
  const offset = marked.indexOf("|");
  if (offset < 0 || marked.indexOf("|", offset + 1) >= 0) throw new Error("mark the cursor with exactly one |");
  const text = marked.slice(0, offset) + marked.slice(offset + 1);
  return { text, offset, position: positionAt(text, offset) };
}

/** 0-based line and UTF-16 character of an offset, as LSP counts. */
export function positionAt(text: string, offset: number): Position {
  const before = text.slice(0, offset);
  const line = before.split("\n").length - 1;
  return { line, character: offset - (before.lastIndexOf("\n") + 1) };
}

/** The range of the first occurrence of `needle` (after `from`, when given) in `text`. */
export function rangeOf(text: string, needle: string, from?: string): Range {
  const base = from === undefined ? 0 : text.indexOf(from);
  const offset = text.indexOf(needle, Math.max(base, 0));
  if (base < 0 || offset < 0) throw new Error(`${JSON.stringify(needle)} is not in the text`);
  return { start: positionAt(text, offset), end: positionAt(text, offset + needle.length) };
}
