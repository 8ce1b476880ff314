// Datasets of a test file: a JSONL file, one JSON object a line holding one case's inputs.
// The file is streamed line by line (text/boundedFile.ts' readLinesSync), so its text is never
// held whole: a 100 MB file of 1.2 million lines was read into one string, split into 1.2
// million more, and its cases spread into one call (the stack overflowed). Each line is checked
// as it passes and only where it is kept: a case reads its inputs again when it runs
// (datasetInputs). Blank lines are skipped; a line that is not a JSON object is a located error
// (file:line:col), each such line reported up to MAX_LISTED_ERRORS and the rest counted.

import { isJsonObject, newJsonObject, type JsonObject } from "../json";
import { readErrorText, type HostProfileError } from "../host/profile";
import { MAX_LINE_BYTES, readLinesSync, readRangeSync } from "../text/boundedFile";
import { parseJsonText } from "../text/jsonText";

/** Large enough for a million short rows; a bigger dataset is split across test files. */
export const MAX_DATASET_BYTES = 256 * 1024 * 1024;
/** Errors listed one by one; a dataset that is not JSONL at all would print a line per line. */
const MAX_LISTED_ERRORS = 1000;

/** Where one case's inputs are: its line, and that line's place in the file in bytes. */
export interface DatasetRow {
  /** 1-based line of the dataset file. */
  readonly line: number;
  readonly offset: number;
  readonly bytes: number;
}

export type DatasetResult =
  | { readonly ok: true; readonly rows: readonly DatasetRow[] }
  | { readonly ok: false; readonly errors: readonly HostProfileError[] };

/** Reads `file` (shown in messages as `shown`); `onInputs` sees each row's inputs as it passes. */
export function readDataset(
  file: string,
  shown: string,
  onInputs?: (line: number, inputs: JsonObject) => void,
): DatasetResult {
  const rows: DatasetRow[] = [];
  const errors: HostProfileError[] = [];
  let unlisted = 0;
  let lastLine = 0;
  const error = (line: number, offset: number, column: number, message: string) => {
    if (errors.length < MAX_LISTED_ERRORS)
      errors.push({ file: shown, line, column, offset: offset + column - 1, length: 0, jsonPath: "", message });
    else unlisted += 1;
  };
  try {
    for (const { line, offset, bytes, text } of readLinesSync(file, MAX_DATASET_BYTES)) {
      lastLine = line;
      if (text.trim() === "") continue;
      const parsed = rowInputs(text, line);
      if (parsed.ok) {
        onInputs?.(line, parsed.inputs);
        if (errors.length === 0) rows.push({ line, offset, bytes });
      } else error(line, offset, parsed.column, parsed.message);
    }
  } catch (failure) {
    // The line the reader refused is the one after the last it gave.
    const line = lastLine === 0 ? 1 : lastLine + 1;
    const message = `cannot read the dataset: ${readErrorText(failure)}`;
    return {
      ok: false,
      errors: [...errors, { file: shown, line, column: 1, offset: 0, length: 0, jsonPath: "", message }],
    };
  }
  if (unlisted > 0) {
    const message = `and ${unlisted} more line${unlisted === 1 ? "" : "s"} that are not JSON objects`;
    errors.push({ file: shown, line: lastLine, column: 1, offset: 0, length: 0, jsonPath: "", message });
  }
  return errors.length > 0 ? { ok: false, errors } : { ok: true, rows };
}

/** A row's inputs, read again from its line when its case runs (the file is not held). */
export function datasetInputs(file: string, shown: string, row: DatasetRow): JsonObject {
  let text = readRangeSync(file, row.offset, row.bytes, MAX_LINE_BYTES);
  if (text.charCodeAt(0) === 0xfeff) text = text.slice(1);
  if (text.endsWith("\r")) text = text.slice(0, -1);
  const parsed = rowInputs(text, row.line);
  if (parsed.ok) return parsed.inputs;
  throw new Error(`${shown}:${row.line}: the dataset changed since it was read: ${parsed.message}`);
}

type RowInputs =
  | { readonly ok: true; readonly inputs: JsonObject }
  | { readonly ok: false; readonly column: number; readonly message: string };

/** A line's inputs (a prototype-free object), or why the line is not a row. */
function rowInputs(text: string, line: number): RowInputs {
  const parsed = parseJsonText(text);
  if (!parsed.ok)
    return { ok: false, column: parsed.error.offset + 1, message: `line ${line} is not JSON: ${parsed.error.message}` };
  if (!isJsonObject(parsed.value))
    return {
      ok: false,
      column: 1,
      message: `line ${line} must be a JSON object of the case's inputs ({"name": value, ...})`,
    };
  const inputs = newJsonObject();
  Object.assign(inputs, parsed.value);
  return { ok: true, inputs };
}
