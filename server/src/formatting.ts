// Document and range formatting with jsonc-parser's formatter (comments kept), indenting with
// the editor's tabSize and insertSpaces, ending lines as the document already does and keeping
// its final newline.

import { format, type FormattingOptions as JsoncFormattingOptions } from "jsonc-parser";
import type { FormattingOptions, Range, TextEdit } from "vscode-languageserver";
import type { AnalyzedPlan } from "./analyzedPlan";

export interface FormattingRequest {
  readonly options: FormattingOptions;
  /** Only this part of the document (range formatting); the whole document when absent. */
  readonly range?: Range;
}

export function formatPlan(plan: AnalyzedPlan, request: FormattingRequest): TextEdit[] {
  const document = plan.document;
  const text = document.getText();
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
