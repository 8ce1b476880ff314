// An actual value laid out for a side-by-side diff with the expected one: object keys in the
// expected value's order first (then the rest in their own order), recursively, so a diff shows
// only what differs, not where a run happened to put a key. Values are unchanged: only the order
// of keys, which JSON equality ignores.

import { isJsonObject, newJsonObject, setOwn, type JsonValue } from "../json";

export function inExpectedOrder(actual: JsonValue, expected: JsonValue | undefined): JsonValue {
  if (Array.isArray(actual))
    return actual.map((item, i) => inExpectedOrder(item, Array.isArray(expected) ? expected[i] : undefined));
  if (!isJsonObject(actual)) return actual;
  const model = isJsonObject(expected) ? expected : undefined;
  const keys = [
    ...Object.keys(model ?? {}).filter((key) => Object.prototype.hasOwnProperty.call(actual, key)),
    ...Object.keys(actual).filter((key) => !model || !Object.prototype.hasOwnProperty.call(model, key)),
  ];
  const out = newJsonObject();
  for (const key of keys) setOwn(out, key, inExpectedOrder(actual[key] as JsonValue, model?.[key]));
  return out;
}
