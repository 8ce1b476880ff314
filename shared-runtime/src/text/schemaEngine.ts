// The one factory of JSON Schema validators: plan inputs and tool input schemas (a profile's, an
// MCP server's), test files, cassettes, a test's value expectations, and the ahead-of-time code of
// the host profile's and mocks files' validators. Every schema that comes from outside (a test
// file, a profile, a server) may be hostile, so what the factory compiles is bounded by
// construction:
// - every `pattern` and `patternProperties` runs on RE2 (text/linearRegExp.ts), linear in the
//   input: "^(a+)+$" against forty a's and a "!" blocked a test worker for minutes on ajv's own
//   backtracking RegExp;
// - `uniqueItems` is decided in one pass over the items (bucketed by a structural hash), where
//   ajv compares every pair of non-scalar items (quadratic: 100,000 objects are 5e9 comparisons);
// - a schema over MAX_SCHEMA_BYTES does not compile, and a value over MAX_VALIDATED_BYTES is
//   refused before any keyword runs.
// So a validation costs at most the schema's size times the value's, both capped.
// test/unit/architecture.one-schema-engine.test.ts fails on a validator built anywhere else.

import type { default as Ajv, ErrorObject, Options } from "ajv";
import { outputBytes } from "../json";
import { linearRegExp } from "./linearRegExp";

/** The largest schema compiled (its JSON text, in bytes): a tool's input schema is rarely 10 KB. */
export const MAX_SCHEMA_BYTES = 1024 * 1024;
/** The largest value checked against a schema (its JSON text, in bytes): a mocks file's cap. */
export const MAX_VALIDATED_BYTES = 16 * 1024 * 1024;

/** Which JSON Schema draft a schema is compiled as. */
export type SchemaDraft = "draft-07" | "2019-09" | "2020-12";

/** What a caller may choose; the pattern engine and the limits are not among it. */
export interface SchemaEngineOptions {
  readonly draft?: SchemaDraft;
  readonly allErrors?: boolean;
  readonly verbose?: boolean;
  readonly strict?: boolean;
  readonly allowUnionTypes?: boolean;
  readonly discriminator?: boolean;
  readonly validateFormats?: boolean;
  /** Schemas the compiled ones may `$ref` by `$id`. */
  readonly refs?: readonly object[];
}

/** A compiled schema: `errors` holds ajv's errors of the last call that returned false. */
export interface SchemaValidator {
  (value: unknown): boolean;
  errors?: ErrorObject[] | null;
}

/** Compiles schemas under one set of options (one ajv instance, so `$ref`s and compiled code are shared). */
export interface SchemaEngine {
  /** Throws when the schema is not a valid JSON Schema or is over MAX_SCHEMA_BYTES. */
  compile(schema: unknown): SchemaValidator;
}

/** The schema's draft by its `$schema` (draft-07 when it names none or another). */
export function schemaDraft(schema: unknown): SchemaDraft {
  const named =
    typeof schema === "object" && schema !== null && typeof (schema as { $schema?: unknown }).$schema === "string"
      ? (schema as { $schema: string }).$schema
      : "";
  return named.includes("2020-12") ? "2020-12" : named.includes("2019-09") ? "2019-09" : "draft-07";
}

/** A new engine. ajv (and re2js, on the first pattern) are required here, on first use. */
export function schemaEngine(options: SchemaEngineOptions = {}): SchemaEngine {
  const { draft, refs, ...ajvOptions } = options;
  const ajv = newAjv(draft ?? "draft-07", { ...ajvOptions, code: { regExp: linearRegExp } });
  linearUniqueItems(ajv);
  for (const ref of refs ?? []) ajv.addSchema(ref);
  return {
    compile(schema) {
      const bytes = outputBytes(schema);
      if (bytes > MAX_SCHEMA_BYTES)
        throw new Error(`the schema has ${bytes} bytes, over the limit of ${MAX_SCHEMA_BYTES}`);
      const validate = ajv.compile(schema as object);
      const bounded: SchemaValidator = (value) => {
        const size = outputBytes(value);
        if (size > MAX_VALIDATED_BYTES) {
          bounded.errors = [tooBig(size)];
          return false;
        }
        const ok = validate(value);
        bounded.errors = ok ? null : validate.errors;
        return ok;
      };
      return bounded;
    },
  };
}

/** Engines of one set of options, one per draft: each made on the first schema that names it. */
export function enginesByDraft(options: Omit<SchemaEngineOptions, "draft">): (schema: unknown) => SchemaEngine {
  const engines = new Map<SchemaDraft, SchemaEngine>();
  return (schema) => {
    const draft = schemaDraft(schema);
    let engine = engines.get(draft);
    if (!engine) {
      engine = schemaEngine({ ...options, draft });
      engines.set(draft, engine);
    }
    return engine;
  };
}

/**
 * The engine of `npm run generate` (host/generated/: ajv's standalone code of the runtime's own
 * schemas, made by ajv/dist/standalone from this instance). Standalone code cannot call the RE2
 * engine without loading it at every start, so it keeps the engine's RegExp: the schemas are ours,
 * and the architecture test holds that every pattern the generated code holds is one of theirs
 * and runs on RE2 (so it is linear).
 */
export function aheadOfTimeEngine(options: SchemaEngineOptions): Ajv {
  const { draft, refs: _refs, ...ajvOptions } = options;
  return newAjv(draft ?? "draft-07", { ...ajvOptions, code: { source: true, esm: true, lines: true } });
}

function newAjv(draft: SchemaDraft, options: Options): Ajv {
  /* eslint-disable @typescript-eslint/no-require-imports */
  const engine =
    draft === "2020-12"
      ? (require("ajv/dist/2020") as typeof import("ajv/dist/2020")).default
      : draft === "2019-09"
        ? (require("ajv/dist/2019") as typeof import("ajv/dist/2019")).default
        : (require("ajv") as typeof import("ajv")).default;
  /* eslint-enable @typescript-eslint/no-require-imports */
  return new engine(options);
}

/**
 * `uniqueItems` in one pass: items are bucketed by a structural hash (the same for equal items:
 * object keys in any order), and only items of one bucket are compared.
 */
function linearUniqueItems(ajv: Ajv): void {
  ajv.removeKeyword("uniqueItems");
  ajv.addKeyword({
    keyword: "uniqueItems",
    type: "array",
    schemaType: "boolean",
    errors: true,
    validate: function unique(wanted: boolean, items: unknown[]): boolean {
      const self = unique as { errors?: Partial<ErrorObject>[] };
      self.errors = [];
      if (!wanted) return true;
      const buckets = new Map<number, number[]>();
      for (let j = 0; j < items.length; j++) {
        const key = structuralHash(items[j]);
        const bucket = buckets.get(key);
        const i = bucket?.find((k) => jsonEqual(items[k], items[j]));
        if (i !== undefined) {
          self.errors = [{ keyword: "uniqueItems", params: { i: j, j: i }, message: duplicateMessage(j, i) }];
          return false;
        }
        if (bucket) bucket.push(j);
        else buckets.set(key, [j]);
      }
      return true;
    },
  });
}

/**
 * Equality of JSON values as ajv's `equal` (fast-deep-equal) decides it, for the runtime's
 * prototype-free objects too, on which fast-deep-equal calls a `valueOf` they lack.
 */
export function jsonEqual(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (typeof a !== "object" || typeof b !== "object" || a === null || b === null) return false;
  if (Array.isArray(a) !== Array.isArray(b)) return false;
  if (Array.isArray(a))
    return a.length === (b as unknown[]).length && a.every((x, k) => jsonEqual(x, (b as unknown[])[k]));
  const keys = Object.keys(a);
  if (keys.length !== Object.keys(b).length) return false;
  return keys.every(
    (key) =>
      Object.prototype.hasOwnProperty.call(b, key) &&
      jsonEqual((a as Record<string, unknown>)[key], (b as Record<string, unknown>)[key]),
  );
}

// Seeded per process, so no fixed set of distinct items is known to share a bucket.
const SEED = (Math.random() * 0x7fffffff) | 0;

/** A 32-bit hash of a JSON value, linear in its size; an object's keys count in any order. */
function structuralHash(value: unknown): number {
  if (value === null || typeof value !== "object") return textHash(`${typeof value}:${String(value)}`);
  if (Array.isArray(value)) {
    let h = SEED ^ 0x5bd1e995;
    for (const item of value) h = Math.imul(h ^ structuralHash(item), 0x01000193);
    return h ^ value.length;
  }
  let sum = SEED;
  for (const [key, child] of Object.entries(value))
    sum = (sum + Math.imul(textHash(key) ^ structuralHash(child), 0x9e3779b1)) | 0;
  return sum;
}

/** FNV-1a over UTF-16 units, seeded. */
function textHash(text: string): number {
  let h = 0x811c9dc5 ^ SEED;
  for (let k = 0; k < text.length; k++) h = Math.imul(h ^ text.charCodeAt(k), 0x01000193);
  return h;
}

/** ajv's own words for the same failure. */
function duplicateMessage(i: number, j: number): string {
  return `must NOT have duplicate items (items ## ${j} and ${i} are identical)`;
}

function tooBig(bytes: number): ErrorObject {
  return {
    keyword: "maxBytes",
    instancePath: "",
    schemaPath: "#",
    params: { limit: MAX_VALIDATED_BYTES },
    message: `has ${bytes} bytes, over the limit of ${MAX_VALIDATED_BYTES} a schema checks`,
  };
}
