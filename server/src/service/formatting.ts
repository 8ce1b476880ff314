// Document and range formatting with jsonc-parser's formatter (comments kept), indenting with
// the editor's tabSize and insertSpaces, ending lines as the document already does and keeping
// its final newline. Documents beyond formatLimits.ts are not formatted: the caller is told why.

import { format, type FormattingOptions as JsoncFormattingOptions } from "jsonc-parser";
import type { FormattingOptions, Range, TextEdit } from "vscode-languageserver-protocol";
import type { AnalyzedPlan } from "./analyzedPlan";
import { formatRefusal } from "./formatLimits";

export interface FormattingRequest {
  readonly options: FormattingOptions;
  /** Only this part of the document (range formatting); the whole document when absent. */
  readonly range?: Range;
}

/** The edits, or none when `refused` is told why the document is not formatted. */
export function formatPlan(
  plan: AnalyzedPlan,
  request: FormattingRequest,
  refused: (message: string) => void = () => undefined,
): TextEdit[] {
  const document = plan.document;
  const text = document.getText();
  const refusal = formatRefusal(text, request.options.tabSize);
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
  const range = request.range
    ? (() => {
        const start = document.offsetAt(request.range.start);
        return { offset: start, length: document.offsetAt(request.range.end) - start };
      })()
    : undefined;
  return format(text, range, options).map((edit) => ({
    range: { start: document.positionAt(edit.offset), end: document.positionAt(edit.offset + edit.length) },
    newText: edit.content,
  }));
}
