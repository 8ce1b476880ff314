// The output budget's measure of a value, without building its JSON text. A value made of shared
// parts (20,000 references to one 30 KB value) is measured by visiting each distinct part once,
// so the budget refuses a 600 MB result in milliseconds instead of first building the text (or
// failing with "Invalid string length"). The number is exactly utf8Length(JSON.stringify(value)).

import { utf8Length } from "../json";

/** Below this nesting, parts are measured by JSON.stringify itself (same number, its own stack). */
const MAX_WALK_DEPTH = 2000;

/** UTF-8 bytes of the value's JSON text; undefined where JSON.stringify gives undefined. */
export function jsonByteLength(value: unknown): number | undefined {
  return measure(value, new WeakMap(), new Map(), 0);
}

function measure(
  value: unknown,
  parts: WeakMap<object, number | undefined>,
  texts: Map<string, number>,
  depth: number,
): number | undefined {
  switch (typeof value) {
    case "string": {
      let bytes = texts.get(value);
      if (bytes === undefined) {
        bytes = utf8Length(JSON.stringify(value));
        if (value.length >= 64) texts.set(value, bytes);
      }
      return bytes;
    }
    case "number":
    case "boolean":
      return utf8Length(JSON.stringify(value));
    case "object":
      break;
    default:
      return undefined;
  }
  if (value === null) return 4;
  if (parts.has(value)) return parts.get(value);
  let bytes: number | undefined;
  if (depth > MAX_WALK_DEPTH || typeof (value as { toJSON?: unknown }).toJSON === "function") {
    const text = JSON.stringify(value);
    bytes = text === undefined ? undefined : utf8Length(text);
  } else if (Array.isArray(value)) {
    bytes = 2 + Math.max(0, value.length - 1);
    for (const item of value) bytes += measure(item, parts, texts, depth + 1) ?? 4; // undefined items print as null
  } else {
    bytes = 2;
    let members = 0;
    for (const key of Object.keys(value)) {
      const item = measure((value as Record<string, unknown>)[key], parts, texts, depth + 1);
      if (item === undefined) continue; // JSON.stringify leaves such members out
      bytes += (members++ > 0 ? 1 : 0) + utf8Length(JSON.stringify(key)) + 1 + item;
    }
  }
  parts.set(value, bytes);
  return bytes;
}
