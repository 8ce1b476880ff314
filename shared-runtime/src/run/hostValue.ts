// What a host handler (a tool or a provider) returns, copied before it reaches the plan's variables.

import { ContextHandle } from "../context/store";
import { newJsonObject, setOwn, type JsonValue } from "../json";
import { isPlainObject } from "../plan/normalize";
import { MAX_JSON_DEPTH } from "../text/jsonText";
import { fail, type PlanError } from "./errors";

/**
 * A host handler's result as a private copy: only JSON values and context handles (which a
 * trusted tool may pass on or create) get into the plan's variables; functions, cycles and
 * class instances are refused, and later mutation by the host changes nothing.
 */
export function hostValue(value: unknown, notJson: () => PlanError): JsonValue {
  const copy = copyHostValue(value, 0);
  return copy === NOT_JSON ? fail(notJson()) : copy;
}

const NOT_JSON = Symbol("not JSON");

function copyHostValue(value: unknown, depth: number): JsonValue | typeof NOT_JSON {
  if (depth > MAX_JSON_DEPTH) return NOT_JSON;
  switch (typeof value) {
    case "string":
    case "boolean":
      return value;
    case "number":
      return Number.isFinite(value) ? value : NOT_JSON;
    case "object": {
      if (value === null) return null;
      if (value instanceof ContextHandle) return value as unknown as JsonValue;
      if (Array.isArray(value)) {
        const items: JsonValue[] = [];
        for (const item of value as unknown[]) {
          const copy = copyHostValue(item, depth + 1);
          if (copy === NOT_JSON) return NOT_JSON;
          items.push(copy);
        }
        return items;
      }
      if (!isPlainObject(value)) return NOT_JSON;
      const object = newJsonObject();
      for (const key of Object.keys(value)) {
        const copy = copyHostValue(value[key], depth + 1);
        if (copy === NOT_JSON) return NOT_JSON;
        setOwn(object, key, copy);
      }
      return object;
    }
    default:
      return NOT_JSON;
  }
}
