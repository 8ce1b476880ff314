// The JSON Schemas a test file gives for values (an output's `schema`, a dataset's): compiled once
// per schema object, for the assertions that check a value and the reader that checks a schema
// compiles. Its own module, so the test file's reader and the assertions share it without a cycle.
// A test file may come from a pull request: its schemas compile with the core's bounded engine
// (text/schemaEngine.ts), so a pattern cannot stall a runner or a worker.

import type { JsonValue } from "../json";
import { enginesByDraft, type SchemaValidator } from "../text/schemaEngine";

const validators = new WeakMap<object, SchemaValidator>();
const engine = enginesByDraft({ allErrors: false, strict: false });

/** One compiled validator per schema object (a dataset's cases share theirs). */
export function schemaValidator(schema: JsonValue): SchemaValidator {
  if (typeof schema !== "object" || schema === null) return engine(schema).compile(schema);
  let validate = validators.get(schema);
  if (!validate) {
    validate = engine(schema).compile(schema);
    validators.set(schema, validate);
  }
  return validate;
}

/** Whether a value's schema compiles; the message when it does not (the loader reports it). */
export function schemaProblem(schema: JsonValue): string | undefined {
  try {
    schemaValidator(schema);
    return undefined;
  } catch (error) {
    return error instanceof Error ? error.message : String(error);
  }
}
