// Copies of JSON values, so nothing a caller holds shares structure with a stored context.

import { newJsonObject, setOwn, type JsonValue } from "../json";

/** A deep copy; objects come out without a prototype, so any key is a plain key. */
export function copyJson(value: JsonValue): JsonValue {
  if (Array.isArray(value)) return value.map(copyJson);
  if (typeof value !== "object" || value === null) return value;
  const copy = newJsonObject();
  for (const key of Object.keys(value)) setOwn(copy, key, copyJson(value[key] as JsonValue));
  return copy;
}

/**
 * A deep copy of a value that is supposed to be JSON, for registration: anything that is not
 * (undefined, a function, a cycle, a class instance) is refused with a TypeError.
 */
export function copyJsonStrict(value: unknown, path = "items", seen = new Set<object>()): JsonValue {
  if (value === null || typeof value === "string" || typeof value === "boolean" || typeof value === "number") {
    return value;
  }
  if (typeof value !== "object") throw new TypeError(`${path} is a ${typeof value}, not a JSON value`);
  if (seen.has(value)) throw new TypeError(`${path} refers back to itself`);
  seen.add(value);
  try {
    if (Array.isArray(value)) return value.map((item, i) => copyJsonStrict(item, `${path}[${i}]`, seen));
    const proto: unknown = Object.getPrototypeOf(value);
    if (proto !== Object.prototype && proto !== null) throw new TypeError(`${path} is not a plain JSON object`);
    const copy = newJsonObject();
    for (const key of Object.keys(value)) {
      setOwn(copy, key, copyJsonStrict((value as Record<string, unknown>)[key], `${path}.${key}`, seen));
    }
    return copy;
  } finally {
    seen.delete(value);
  }
}

/**
 * Some JSON for an arbitrary value, to show in an error what was passed: JSON values as they
 * are, a handle as its JSON form, cycles and non-JSON values (functions, undefined) as null.
 */
export function jsonSafe(value: unknown, seen = new Set<object>()): JsonValue {
  if (value === null || typeof value === "string" || typeof value === "boolean") return value;
  if (typeof value === "number") return Number.isFinite(value) ? value : null;
  if (typeof value !== "object" || seen.has(value)) return null;
  const toJSON: unknown = (value as { toJSON?: unknown }).toJSON;
  if (typeof toJSON === "function" && !Array.isArray(value)) {
    seen.add(value);
    try {
      return jsonSafe(toJSON.call(value), seen);
    } catch {
      return null;
    } finally {
      seen.delete(value);
    }
  }
  seen.add(value);
  try {
    if (Array.isArray(value)) return value.map((item) => jsonSafe(item, seen));
    const copy = newJsonObject();
    for (const key of Object.keys(value)) setOwn(copy, key, jsonSafe((value as Record<string, unknown>)[key], seen));
    return copy;
  } finally {
    seen.delete(value);
  }
}
