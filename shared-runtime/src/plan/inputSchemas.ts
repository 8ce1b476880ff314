// Tool input schemas compiled with ajv (the draft each names), once per distinct text and bounded,
// and the argument keys a schema names for completion: the cache every argument check shares.

import { isJsonObject, type JsonObject } from "../json";
import { enginesByDraft, type SchemaValidator } from "../text/schemaEngine";

export type Compiled =
  { readonly ok: true; readonly validate: SchemaValidator } | { readonly ok: false; readonly message: string };

// Schemas come from servers and profiles: compiled once per distinct text, bounded.
const compiledSchemas = new Map<string, Compiled>();
const MAX_COMPILED = 256;
const engineOf = enginesByDraft({ allErrors: true, verbose: true, strict: false, validateFormats: false });

/** Compiles an input schema with the draft its `$schema` names (draft-07 otherwise). */
export function compileInputSchema(schema: unknown): Compiled {
  if (!isJsonObject(schema)) return { ok: false, message: "an input schema must be a JSON Schema object" };
  const key = JSON.stringify(schema);
  const cached = compiledSchemas.get(key);
  if (cached) return cached;
  const engine = engineOf(schema);
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
