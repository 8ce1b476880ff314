// A JSON-with-comments file checked against a JSON Schema, every problem located at its token and
// worded for people: what host profiles and mocks files (and test files) are read with.

import type { ErrorObject } from "ajv";
import { pointer, type JsonValue } from "../json";
import { MAX_JSON_DEPTH } from "../text/jsonText";
import { lineColumn } from "../text/lineColumn";
import { parseJsoncDocument, type PlanDocument } from "../text/planDocument";
import type { HostProfileError, Locator } from "./profileTypes";
import { schemaError, schemaErrors } from "./schemaErrorText";

export type SchemaCheck = (value: unknown) => { ok: true } | { ok: false; errors: readonly ErrorObject[] };

/**
 * A JSON-with-comments file checked against a JSON Schema (then by `rules`, on the parts the
 * schema accepted), every problem located at its token: host profiles and mocks files.
 */
export function parseSchemaFile(
  text: string,
  file: string,
  check: SchemaCheck,
  rules?: (value: JsonValue, at: Locator, reported: readonly ErrorObject[]) => HostProfileError[],
  what?: string,
): { ok: true; value: JsonValue; at: Locator } | { ok: false; errors: readonly HostProfileError[] } {
  const source = text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
  const document = parseJsoncDocument(source);
  const at = locator(document, file, what);
  const errors: HostProfileError[] = [];
  // After the first syntax error the parser's recovery mostly reports echoes of it: keep the first.
  const firstSyntax = document.syntaxErrors.find((e) => e.code !== "duplicate_key");
  for (const syntax of document.syntaxErrors) {
    if (syntax.code !== "duplicate_key" && syntax !== firstSyntax) continue;
    if (syntax.code === "duplicate_key") {
      const path = [...(syntax.path ?? []), syntax.key ?? ""];
      const first =
        syntax.firstOffset === undefined ? "" : ` (first at line ${lineColumn(source, syntax.firstOffset).line + 1})`;
      errors.push({
        ...at.offset(syntax.offset, syntax.length),
        jsonPath: pointer(path),
        message: `duplicate key ${JSON.stringify(syntax.key)}${first}: a key may appear only once, remove one of them`,
      });
    } else {
      // The document reader speaks of plans; a profile or a mocks file is not one.
      const message =
        syntax.code === "invalid_json"
          ? syntaxMessage(syntax.message)
          : syntax.code === "too_deep"
            ? `JSON nested too deep (over ${MAX_JSON_DEPTH} levels): ${at.what} is not read`
            : syntax.message;
      errors.push({ ...at.offset(syntax.offset, syntax.length), jsonPath: "", message });
    }
  }
  const value = document.value;
  // A file that is not even JSON has no value worth checking further.
  if (value === undefined || firstSyntax !== undefined) return failed(errors);
  const validation = check(value);
  const reported = validation.ok ? [] : schemaErrors(validation.errors);
  for (const error of reported) errors.push(schemaError(error, value, at));
  if (rules) errors.push(...rules(value, at, reported));
  if (errors.length > 0) return failed(errors);
  return { ok: true, value, at };
}

/** Why a file could not be read, as a short phrase: "no such file (ENOENT)". */
export function readErrorText(error: unknown): string {
  const code = (error as NodeJS.ErrnoException | undefined)?.code;
  const known: Record<string, string> = {
    ENOENT: "no such file",
    EISDIR: "it is a folder, not a file",
    EACCES: "permission denied",
    EPERM: "permission denied",
    ENOTDIR: "a part of the path is not a folder",
  };
  if (code !== undefined && known[code] !== undefined) return `${known[code]} (${code})`;
  return error instanceof Error ? error.message : String(error);
}

export function failed(errors: HostProfileError[]): { ok: false; errors: readonly HostProfileError[] } {
  return { ok: false, errors: [...errors].sort((a, b) => a.offset - b.offset) };
}

function syntaxMessage(message: string): string {
  return `${message}: fix the JSON syntax (comments and trailing commas are allowed)`;
}

function locator(document: PlanDocument, file: string, what = "the host profile"): Locator {
  const offset = (offset: number, length: number) => {
    const { line, character } = lineColumn(document.text, offset);
    return { file, line: line + 1, column: character + 1, offset, length };
  };
  return {
    what,
    offset,
    path(path, target = "value") {
      // The nearest existing ancestor when the node itself is absent (a missing key).
      for (let n = path.length; n >= 0; n--) {
        const range = document.rangeOf(path.slice(0, n), n === path.length ? target : "key");
        if (range && (n > 0 || document.value !== undefined)) return offset(range.offset, range.length);
      }
      return offset(0, 0);
    },
  };
}
