// The JSON Schemas a test file gives for values (an output's `schema`, a dataset's): compiled once
// per schema object, for the assertions that check a value and the reader that checks a schema
// compiles. Its own module, so the test file's reader and the assertions share it without a cycle.

import Ajv, { type ValidateFunction } from "ajv";
import type { JsonValue } from "../json";

const validators = new WeakMap<object, ValidateFunction>();
let ajv: Ajv | undefined;

/** One compiled validator per schema object (a dataset's cases share theirs). */
export function schemaValidator(schema: JsonValue): ValidateFunction {
  ajv ??= new Ajv({ allErrors: false, strict: false });
  if (typeof schema !== "object" || schema === null) return ajv.compile(schema as boolean);
  let validate = validators.get(schema);
  if (!validate) {
    validate = ajv.compile(schema);
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
