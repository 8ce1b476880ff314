// JSON values as the runtime sees them, and the few operations every layer needs on them.
// Objects may come from untrusted text, so keys are only ever read as own properties and
// objects the runtime builds have no prototype: "__proto__" or "constructor" stay plain keys.

import { isInteger, isSafeNumber, parse, stringify } from "lossless-json";

export type JsonPrimitive = string | number | boolean | null;
export type JsonValue = JsonPrimitive | JsonValue[] | JsonObject;
export interface JsonObject {
  [key: string]: JsonValue;
}

/** A location inside a JSON document: object keys and array indices from the root. */
export type JsonPath = readonly (string | number)[];

export function isJsonObject(value: unknown): value is JsonObject {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

export function hasOwn(object: object, key: string): boolean {
  return Object.prototype.hasOwnProperty.call(object, key);
}

/** The own property `key` of `object`, or undefined: never an inherited one. */
export function ownValue(object: object, key: string): unknown {
  return hasOwn(object, key) ? (object as Record<string, unknown>)[key] : undefined;
}

/** An empty object without a prototype, safe to fill with keys from untrusted input. */
export function newJsonObject(): JsonObject {
  return Object.create(null) as JsonObject;
}

/** Sets an own data property even when the key is "__proto__". */
export function setOwn(object: JsonObject, key: string, value: JsonValue): void {
  // Without a prototype there is no __proto__ setter to hit, and assignment is much faster.
  if (key !== "__proto__" || Object.getPrototypeOf(object) === null) object[key] = value;
  else Object.defineProperty(object, key, { value, enumerable: true, writable: true, configurable: true });
}

export function jsonObjectFrom(entries: Iterable<readonly [string, JsonValue]>): JsonObject {
  const object = newJsonObject();
  for (const [key, value] of entries) setOwn(object, key, value);
  return object;
}

/** UTF-8 length of a string, without allocating a buffer. */
export function utf8Length(text: string): number {
  return Buffer.byteLength(text, "utf8");
}

/**
 * Bytes a value costs against the output budget: the UTF-8 length of its JSON text.
 * Values that are not JSON (a context handle) are charged for their JSON form.
 */
export function outputBytes(value: unknown): number {
  const text = JSON.stringify(value);
  return text === undefined ? 4 : utf8Length(text);
}

/** A short, safe description of a value's shape for error messages (never its content). */
export function valueShape(value: unknown): string {
  if (value === null) return "null";
  if (Array.isArray(value)) return "list";
  switch (typeof value) {
    case "string":
      return "string";
    case "number":
      return "number";
    case "boolean":
      return "boolean";
    case "object":
      return "object";
    default:
      return typeof value;
  }
}

/** A JSON Pointer (an ajv instance path) as segments of `root`, array indices as numbers (jsonc-parser needs them). */
export function pointerPath(instancePath: string, root: unknown): (string | number)[] {
  if (instancePath === "") return [];
  const segments: (string | number)[] = [];
  let node: unknown = root;
  for (const raw of instancePath.slice(1).split("/")) {
    const key = raw.replace(/~1/g, "/").replace(/~0/g, "~");
    if (Array.isArray(node)) {
      segments.push(Number(key));
      node = node[Number(key)];
    } else {
      segments.push(key);
      node = isJsonObject(node) && hasOwn(node, key) ? node[key] : undefined;
    }
  }
  return segments;
}

export function valueAtPath(root: unknown, path: JsonPath): unknown {
  let node = root;
  for (const segment of path) {
    if (Array.isArray(node) && typeof segment === "number") node = node[segment];
    else if (isJsonObject(node) && typeof segment === "string" && hasOwn(node, segment)) node = node[segment];
    else return undefined;
  }
  return node;
}

/**
 * JSON.stringify, except that a bigint (an exact count beyond 2^53, see plan/count.ts) is
 * written as the integer it is instead of throwing.
 */
export function exactJsonText(value: unknown, indent?: number): string {
  return stringify(value, undefined, indent) ?? "null";
}

/** JSON.parse, except that an integer beyond 2^53 becomes the exact bigint (exactJsonText's inverse). */
export function parseExactJson(text: string): unknown {
  return parse(text, null, (digits) => (!isSafeNumber(digits) && isInteger(digits) ? BigInt(digits) : Number(digits)));
}

/** A step's path as `rlm-plan runs show` prints it and `run --step` takes it: `steps/2/then/0`. */
export function stepPathText(path: JsonPath): string {
  return pointer(path).slice(1);
}

/**
 * A step path as a user writes it: `steps/2` (as printed), a JSON Pointer (`/steps/2`), or the
 * journal's JSON array (`["steps",2]`); a segment of digits is an index. Undefined when it is none.
 */
export function parseStepPath(text: string): JsonPath | undefined {
  const trimmed = text.trim();
  if (trimmed.startsWith("[")) {
    let parsed: unknown;
    try {
      parsed = JSON.parse(trimmed);
    } catch {
      return undefined;
    }
    const ok =
      Array.isArray(parsed) &&
      parsed.length > 0 &&
      parsed.every((s) => typeof s === "string" || (typeof s === "number" && Number.isSafeInteger(s) && s >= 0));
    return ok ? (parsed as (string | number)[]) : undefined;
  }
  const body = trimmed.startsWith("/") ? trimmed.slice(1) : trimmed;
  if (body === "") return undefined;
  return body.split("/").map((raw) => {
    const key = raw.replace(/~1/g, "/").replace(/~0/g, "~");
    return /^(0|[1-9]\d*)$/.test(key) ? Number(key) : key;
  });
}

/** A JSON Pointer (RFC 6901) for a path: `/tools/flaky_fetch/timeoutMs`. */
export function pointer(path: JsonPath): string {
  return path.map((segment) => `/${String(segment).replace(/~/g, "~0").replace(/\//g, "~1")}`).join("");
}
