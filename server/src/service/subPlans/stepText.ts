// Moving steps' text between nesting levels as written: the text from the first step to the
// last, comments and line breaks between them included, is taken whole and only its indentation
// changes, so a refactoring keeps the author's comments and layout.

import type { Node } from "jsonc-parser";
import { createScanner, SyntaxKind } from "jsonc-parser";
import { indentationOf } from "../quickFixes/fixKit";

/** One level of the file's indentation (two spaces when it has none). */
export function indentUnit(text: string): string {
  const { tabSize, insertSpaces } = indentationOf(text);
  return insertSpaces ? " ".repeat(tabSize) : "\t";
}

/** The whitespace before `offset` on its line, or undefined when other text comes first there. */
export function lineIndent(text: string, offset: number): string | undefined {
  const lineStart = text.lastIndexOf("\n", offset - 1) + 1;
  const before = text.slice(lineStart, offset);
  return /^[ \t]*$/.test(before) ? before : undefined;
}

/** The text from the start of `first` to the end of `last`. */
export function spanText(text: string, first: Node, last: Node): string {
  return text.slice(first.offset, last.offset + last.length);
}

/** `span` with `prefix` put before each of its lines after the first. */
export function indentLines(span: string, prefix: string): string {
  return span.replace(/\n(?=[^\r\n])/g, `\n${prefix}`);
}

/** `span` with up to `width` columns of indentation taken from each of its lines after the first. */
export function dedentLines(span: string, width: number): string {
  if (width <= 0) return span;
  return span.replace(new RegExp(`\\n[ \\t]{0,${width}}`, "g"), "\n");
}

/** True when `text[from, to)` holds a comment (which an edit of that range would drop). */
export function hasComment(text: string, from: number, to: number): boolean {
  const scanner = createScanner(text.slice(from, to), false);
  for (let kind = scanner.scan(); kind !== SyntaxKind.EOF; kind = scanner.scan()) {
    if (kind === SyntaxKind.LineCommentTrivia || kind === SyntaxKind.BlockCommentTrivia) return true;
  }
  return false;
}

/** The offset of the first character after `offset` that is not white space. */
export function firstTokenAfter(text: string, offset: number): number {
  let at = offset;
  while (at < text.length && /\s/.test(text.charAt(at))) at++;
  return at;
}

/** `text` as literal snippet text: `$`, `}` and `\` escaped. */
export function snippetLiteral(text: string): string {
  return text.replace(/[$}\\]/g, (c) => `\\${c}`);
}
