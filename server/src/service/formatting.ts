// Document and range formatting with jsonc-parser's formatter (comments kept), indenting with
// the editor's tabSize and insertSpaces, ending lines as the document already does and keeping
// its final newline. Text beyond formatLimits.ts (the whole document, or the lines a range
// covers) is not formatted: the caller is told why. Past MAX_SEPARATE_EDITS edits, the answer is
// one edit over the changed span, so a large answer costs one string, not an object per space.

import { format, type Edit, type FormattingOptions as JsoncFormattingOptions } from "jsonc-parser";
import type { FormattingOptions, Range, TextEdit } from "vscode-languageserver-protocol";
import type { AnalyzedPlan } from "./analyzedPlan";
import { formatRefusal } from "./formatLimits";

export interface FormattingRequest {
  readonly options: FormattingOptions;
  /** Only this part of the document (range formatting); the whole document when absent. */
  readonly range?: Range;
}

/** More edits than this are answered as one edit over the span they change. */
export const MAX_SEPARATE_EDITS = 1000;

/**
 * The edits, or none when `refused` is told why the document is not formatted. Only the text
 * is read: formatting needs no analysis.
 */
export function formatPlan(
  plan: Pick<AnalyzedPlan, "document">,
  request: FormattingRequest,
  refused: (message: string) => void = () => undefined,
): TextEdit[] {
  const document = plan.document;
  const text = document.getText();
  const range = request.range
    ? (() => {
        const start = document.offsetAt(request.range.start);
        return { offset: start, length: document.offsetAt(request.range.end) - start };
      })()
    : undefined;
  const [start, end] = range ? linesAround(text, range.offset, range.offset + range.length) : [0, text.length];
  const refusal = formatRefusal(text, request.options.tabSize, start, end);
  if (refusal !== undefined) {
    refused(refusal);
    return [];
  }
  const options: JsoncFormattingOptions = {
    tabSize: request.options.tabSize,
    insertSpaces: request.options.insertSpaces,
    eol: text.includes("\r\n") ? "\r\n" : "\n",
    // An existing final newline stays; the editor's setting may add one.
    insertFinalNewline: request.options.insertFinalNewline === true || /\r?\n$/.test(text),
    keepLines: false,
  };
  const edits = format(text, range, options);
  return (edits.length > MAX_SEPARATE_EDITS ? [joined(text, edits)] : edits).map((edit) => ({
    range: { start: document.positionAt(edit.offset), end: document.positionAt(edit.offset + edit.length) },
    newText: edit.content,
  }));
}

/** The whole lines from `start` to `end`: what jsonc-parser formats for a range. */
function linesAround(text: string, start: number, end: number): [number, number] {
  let from = start;
  while (from > 0 && !isEol(text.charCodeAt(from - 1))) from--;
  let to = end;
  while (to < text.length && !isEol(text.charCodeAt(to))) to++;
  return [from, to];
}

function isEol(c: number): boolean {
  return c === 0x0a || c === 0x0d;
}

/** Edits (in order, not overlapping, as the formatter gives them) as one edit from the first to the last. */
function joined(text: string, edits: readonly Edit[]): Edit {
  const sorted = [...edits].sort((a, b) => a.offset - b.offset);
  const first = (sorted[0] as Edit).offset;
  const parts: string[] = [];
  let at = first;
  for (const edit of sorted) {
    parts.push(text.slice(at, edit.offset), edit.content);
    at = edit.offset + edit.length;
  }
  return { offset: first, length: at - first, content: parts.join("") };
}
