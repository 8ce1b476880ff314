// Datasets of a test file: a JSONL file, one JSON object a line holding one case's inputs.
// Blank lines are skipped; a line that is not a JSON object is a located error (file:line:col),
// and every such line is reported, not only the first.

import { isJsonObject, newJsonObject, type JsonObject } from "../json";
import { readErrorText, type HostProfileError } from "../host/profile";
import { readTextFileSync } from "../text/boundedFile";
import { parseJsonText } from "../text/jsonText";

/** Large enough for a million short rows; a bigger dataset is split across test files. */
export const MAX_DATASET_BYTES = 256 * 1024 * 1024;

export interface DatasetRow {
  /** 1-based line of the dataset file. */
  readonly line: number;
  readonly inputs: JsonObject;
}

export type DatasetResult =
  | { readonly ok: true; readonly rows: readonly DatasetRow[] }
  | { readonly ok: false; readonly errors: readonly HostProfileError[] };

/** Reads `file` (shown in messages as `shown`). */
export function readDataset(file: string, shown: string): DatasetResult {
  let text: string;
  try {
    text = readTextFileSync(file, MAX_DATASET_BYTES);
  } catch (error) {
    const message = `cannot read the dataset: ${readErrorText(error)}`;
    return { ok: false, errors: [{ file: shown, line: 1, column: 1, offset: 0, length: 0, jsonPath: "", message }] };
  }
  return parseDataset(text, shown);
}

export function parseDataset(text: string, file: string): DatasetResult {
  const rows: DatasetRow[] = [];
  const errors: HostProfileError[] = [];
  let offset = 0;
  const lines = text.split("\n");
  lines.forEach((raw, index) => {
    const line = index + 1;
    const start = offset;
    offset += raw.length + 1;
    const body = raw.endsWith("\r") ? raw.slice(0, -1) : raw;
    if (body.trim() === "") return;
    const parsed = parseJsonText(body);
    const error = (column: number, message: string) =>
      errors.push({ file, line, column, offset: start + column - 1, length: 0, jsonPath: "", message });
    if (!parsed.ok) error(parsed.error.offset + 1, `line ${line} is not JSON: ${parsed.error.message}`);
    else if (!isJsonObject(parsed.value))
      error(1, `line ${line} must be a JSON object of the case's inputs ({"name": value, ...})`);
    else {
      const inputs = newJsonObject();
      Object.assign(inputs, parsed.value);
      rows.push({ line, inputs });
    }
  });
  return errors.length > 0 ? { ok: false, errors } : { ok: true, rows };
}
