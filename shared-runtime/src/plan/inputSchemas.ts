// Tool input schemas compiled with ajv (the draft each names), once per distinct text and bounded,
// and the argument keys a schema names for completion: the cache every argument check shares.

import type { default as Ajv, ValidateFunction } from "ajv";
import { isJsonObject, type JsonObject } from "../json";
import { LINEAR_REGEXP_CODE } from "../text/linearRegExp";

export type Compiled =
  { readonly ok: true; readonly validate: ValidateFunction } | { readonly ok: false; readonly message: string };

// Schemas come from servers and profiles: compiled once per distinct text, bounded.
const compiledSchemas = new Map<string, Compiled>();
const MAX_COMPILED = 256;
let engines: { draft7: Ajv; draft2019: Ajv; draft2020: Ajv } | undefined;

/** Compiles an input schema with the draft its `$schema` names (draft-07 otherwise). */
export function compileInputSchema(schema: unknown): Compiled {
  if (!isJsonObject(schema)) return { ok: false, message: "an input schema must be a JSON Schema object" };
  const key = JSON.stringify(schema);
  const cached = compiledSchemas.get(key);
  if (cached) return cached;
  const options = { allErrors: true, verbose: true, strict: false, validateFormats: false, code: LINEAR_REGEXP_CODE };
  engines ??= newEngines(options);
  const draft = typeof schema.$schema === "string" ? schema.$schema : "";
  const engine = draft.includes("2020-12")
    ? engines.draft2020
    : draft.includes("2019-09")
      ? engines.draft2019
      : engines.draft7;
  // The meta-schema reference is the engine's choice above; ids would clash across servers.
  const { $schema: _meta, $id: _id, ...body } = schema as Record<string, unknown>;
  let result: Compiled;
  try {
    result = { ok: true, validate: engine.compile(body) };
  } catch (error) {
    result = { ok: false, message: `the input schema is not a valid JSON Schema: ${(error as Error).message}` };
  }
  if (compiledSchemas.size >= MAX_COMPILED) compiledSchemas.clear();
  compiledSchemas.set(key, result);
  return result;
}

/**
 * ajv and its three drafts, required on the first schema to compile: a plan with no tool input
 * schema (and every start of the CLI and the server) never evaluates them, about a fifth of the bundle.
 */
function newEngines(options: ConstructorParameters<typeof Ajv>[0]): { draft7: Ajv; draft2019: Ajv; draft2020: Ajv } {
  /* eslint-disable @typescript-eslint/no-require-imports */
  const draft7 = (require("ajv") as typeof import("ajv")).default;
  const draft2019 = (require("ajv/dist/2019") as typeof import("ajv/dist/2019")).default;
  const draft2020 = (require("ajv/dist/2020") as typeof import("ajv/dist/2020")).default;
  /* eslint-enable @typescript-eslint/no-require-imports */
  return { draft7: new draft7(options), draft2019: new draft2019(options), draft2020: new draft2020(options) };
}

/** Undefined when `schema` compiles; otherwise why not (for the host profile's own check). */
export function inputSchemaProblem(schema: unknown): string | undefined {
  const compiled = compileInputSchema(schema);
  return compiled.ok ? undefined : compiled.message;
}

/** The argument keys a schema names at its top level, with their descriptions (completion). */
export function argumentKeys(
  schema: JsonObject | undefined,
): { name: string; description?: string; required: boolean }[] {
  if (!schema || !isJsonObject(schema.properties)) return [];
  const required = new Set(Array.isArray(schema.required) ? schema.required.filter((k) => typeof k === "string") : []);
  return Object.keys(schema.properties).map((name) => {
    const property = (schema.properties as JsonObject)[name];
    const description =
      isJsonObject(property) && typeof property.description === "string" ? property.description : undefined;
    return { name, required: required.has(name), ...(description !== undefined ? { description } : {}) };
  });
}
