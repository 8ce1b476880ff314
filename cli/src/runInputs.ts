// The inline input values of `rlm-plan run`: --input-text NAME=VALUE (a text), --input-json
// NAME=JSON (any JSON value) and --inputs FILE.json (an object of name -> value), beside
// --input NAME=PATH, which keeps meaning a text file (scripts that pass paths keep working).
// Read here into one object; checked against the profile's declarations by the core's rule
// (host/inputValues.ts) once the profile is known.

import { isJsonObject, newJsonObject, type JsonObject, type JsonValue } from "@rlm-plan/core/json";
import { lineColumn, parseJsonText, readTextFileSync } from "@rlm-plan/core/text";

export const INPUT_TEXT_FORM = "NAME=VALUE, for example --input-text question='What is RLM?'";
export const INPUT_JSON_FORM = "NAME=JSON, for example --input-json limit=3";
// The same bound a queued job's inputs have: values travel in the journal and in jobs.
const MAX_INPUTS_FILE_BYTES = 1024 * 1024;

export interface InlineInputs {
  readonly values: JsonObject;
  /** Which option gave each value, for messages ("--input-json limit"). */
  readonly origins: ReadonlyMap<string, string>;
}

/**
 * The values the options give, later ones over --inputs' file; a usage error for a name given
 * twice on the command line (or also as --input file), bad JSON (with its column or line) or a
 * file that is not an object.
 */
export function readInlineInputs(
  texts: readonly string[],
  jsons: readonly string[],
  inputsFile: string | undefined,
  fileInputs: Readonly<Record<string, string>>,
): InlineInputs | string {
  const values = newJsonObject();
  const origins = new Map<string, string>();
  if (inputsFile !== undefined) {
    const read = inputsFromFile(inputsFile);
    if (typeof read === "string") return read;
    for (const name of Object.keys(read)) {
      if (Object.prototype.hasOwnProperty.call(fileInputs, name))
        return `input ${JSON.stringify(name)} is given twice (--input and --inputs ${inputsFile})`;
      values[name] = read[name] as JsonValue;
      origins.set(name, `--inputs ${inputsFile}`);
    }
  }
  const given = new Map<string, string>(Object.keys(fileInputs).map((name) => [name, "--input"]));
  const add = (option: string, form: string, spec: string, parse: (text: string) => { json: JsonValue } | string) => {
    const split = spec.indexOf("=");
    if (split <= 0) return `${option} needs ${form}`;
    const name = spec.slice(0, split);
    const earlier = given.get(name);
    if (earlier !== undefined) return `input ${JSON.stringify(name)} is given twice (${earlier} and ${option})`;
    given.set(name, option);
    const value = parse(spec.slice(split + 1));
    if (typeof value === "string") return `${option} ${name}: ${value}`;
    values[name] = value.json;
    origins.set(name, `${option} ${name}`);
    return undefined;
  };
  for (const spec of texts) {
    const problem = add("--input-text", INPUT_TEXT_FORM, spec, (text) => ({ json: text }));
    if (problem !== undefined) return problem;
  }
  for (const spec of jsons) {
    const problem = add("--input-json", INPUT_JSON_FORM, spec, (text) => {
      const parsed = parseJsonText(text);
      // The column only: the text itself may be a secret.
      return parsed.ok
        ? { json: parsed.value }
        : `not JSON at column ${parsed.error.offset + 1} (${parsed.error.message})`;
    });
    if (problem !== undefined) return problem;
  }
  return { values, origins };
}

/** --inputs FILE: the user's own command-line file (no workspace boundary), read bounded. */
function inputsFromFile(file: string): JsonObject | string {
  return jsonObjectFromFile(file, "--inputs", "a JSON object of input name -> value");
}

/**
 * A JSON object from a file the user named on the command line (`--inputs FILE`, `--bindings
 * @FILE`; no workspace boundary), read bounded; or the usage error, located, saying what `option` takes.
 */
export function jsonObjectFromFile(file: string, option: string, takes: string): JsonObject | string {
  let text: string;
  try {
    text = readTextFileSync(file, MAX_INPUTS_FILE_BYTES);
  } catch (error) {
    return `${option}: cannot read ${file}: ${error instanceof Error ? error.message : String(error)}`;
  }
  const source = text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
  const parsed = parseJsonText(source);
  if (!parsed.ok) {
    const { line, character } = lineColumn(source, parsed.error.offset);
    return `${file}:${line + 1}:${character + 1}: not JSON (${parsed.error.message}): ${option} takes ${takes}`;
  }
  if (!isJsonObject(parsed.value)) return `${file}:1:1: ${option} takes ${takes}`;
  return parsed.value;
}
